package informer

import (
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/trace"
)

// traceListed records a list (or a watch-list's initial state) read at rv,
// or the error that failed it. A 410 is recorded as trace.Expired, with the
// resourceVersion that was too old.
func (r *Reflector) traceListed(from, rv string, n int, took time.Duration, err error, detail string) {
	if !r.opts.Tracer.Enabled() {
		return
	}
	rec := trace.Record{Action: trace.Listed, ResourceVersion: rv, Count: n, Duration: took, Err: err, Detail: detail}
	if meta.IsExpired(err) {
		rec = trace.Record{Action: trace.Expired, ResourceVersion: from, Err: err, Detail: detail}
	}
	r.emit(rec)
}

// traceWatch records a watch that started from rv (action
// trace.WatchStarted) or ended with the last resourceVersion rv
// (trace.WatchEnded); a 410 is recorded as trace.Expired.
func (r *Reflector) traceWatch(action trace.Action, rv string, err error, detail string) {
	if !r.opts.Tracer.Enabled() {
		return
	}
	if meta.IsExpired(err) {
		action = trace.Expired
	}
	r.emit(trace.Record{Action: action, ResourceVersion: rv, Err: err, Detail: detail})
}

func (r *Reflector) emit(rec trace.Record) {
	rec.Component, rec.Name = trace.Reflector, r.opts.Name
	r.opts.Tracer.Emit(rec)
}
