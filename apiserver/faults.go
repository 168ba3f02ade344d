package apiserver

import (
	"context"
	"maps"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/trace"
)

// begin accounts for one request: it counts it, waits the injected
// latency (or until ctx is done) and returns the injected error, if any.
func (s *Server) begin(ctx context.Context, verb Verb, gr meta.GroupResource) error {
	f := &s.faults
	f.mu.Lock()
	if f.counts == nil {
		f.counts = make(map[RequestKey]int64)
	}
	f.counts[RequestKey{verb, gr}]++
	latency := f.latency
	var err error
	if fl, ok := f.fail[verb]; ok && fl.n > 0 {
		err = fl.err
		if fl.n--; fl.n == 0 {
			delete(f.fail, verb)
		} else {
			f.fail[verb] = fl
		}
	}
	f.mu.Unlock()
	if latency > 0 {
		t := time.NewTimer(latency)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if err == nil {
		err = ctx.Err()
	}
	return err
}

// FailNext makes the next n requests of verb (on any resource) fail with
// err, e.g. [meta.NewConflict], [meta.NewInternalError], [meta.NewTooManyRequests] or
// [meta.NewTimeout]. A failed watch returns err from Watch. A later call for
// the same verb replaces the earlier one; n <= 0 clears it. The failed
// requests are counted but change nothing.
func (s *Server) FailNext(verb Verb, n int, err error) {
	f := &s.faults
	f.mu.Lock()
	defer f.mu.Unlock()
	if n <= 0 || err == nil {
		delete(f.fail, verb)
		return
	}
	if f.fail == nil {
		f.fail = make(map[Verb]failure)
	}
	f.fail[verb] = failure{n: n, err: err}
}

// SetLatency delays every later request by d before it is served (a watch
// by d before it starts). Under testing/synctest the delay is virtual.
// Zero removes the delay.
func (s *Server) SetLatency(d time.Duration) {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	s.faults.latency = d
}

// RequestCount returns how many requests of verb the server has received
// for resource gr, failed ones included.
func (s *Server) RequestCount(verb Verb, gr meta.GroupResource) int64 {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	return s.faults.counts[RequestKey{verb, gr}]
}

// RequestCounts returns a copy of all request counts.
func (s *Server) RequestCounts() map[RequestKey]int64 {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	return maps.Clone(s.faults.counts)
}

// CloseWatches ends every running watch now, with a plain close of its
// channel, as when an API server restarts or a load balancer drops the
// connection. Events still buffered for a watcher may be dropped (order
// is kept either way): a client re-watching from the last resourceVersion
// it saw gets them again.
func (s *Server) CloseWatches() {
	s.fanMu.Lock()
	defer s.fanMu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, ws := range s.watchers {
		for w := range ws {
			w.feedFromHistoryLocked() // what was committed before the close first, if there is room
			w.endLocked()
			n++
		}
	}
	if t := s.opts.Tracer; t.Enabled() {
		t.Emit(trace.Record{Component: trace.APIServer, Action: trace.WatchesClosed, Count: n})
	}
}

// CompactHistory compacts the storage at the current resourceVersion, as
// an etcd compaction does. As under kube-apiserver, whose watch cache
// keeps the recent events, a watch from a resourceVersion still in the
// history window ([Options.HistorySize]) is served as before (from an
// older one it got 410 Expired already); but an exact list or a continue
// token from before the compaction, which that server reads from etcd,
// now gets 410 Expired ("The resourceVersion for the provided list is too
// old.").
//
// With [Options.CompactionDropsHistory] it forgets every event so far
// too: a watch, an exact list or a continue token from any older
// resourceVersion now gets 410 Expired, and its client must list again.
// Running watches that have read everything are not affected; one still
// catching up is cut off, re-watches and gets 410.
func (s *Server) CompactHistory() {
	s.fanMu.Lock()
	defer s.fanMu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.opts.CompactionDropsHistory {
		for _, ws := range s.watchers {
			for w := range ws {
				w.feedFromHistoryLocked() // a live watch has read everything
			}
		}
		s.hist.compact()
	}
	s.hist.listFloor = s.hist.last
	if t := s.opts.Tracer; t.Enabled() {
		t.Emit(trace.Record{Component: trace.APIServer, Action: trace.Compacted, ResourceVersion: formatRV(s.hist.last)})
	}
}
