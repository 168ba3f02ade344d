package reconcile

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/trace"
)

// traceStarted records that worker calls Reconcile for req.
func (c *Controller) traceStarted(req Request, worker int) {
	if c.tracer.Enabled() {
		c.tracer.Emit(trace.Record{Component: trace.Controller, Name: c.name, Action: trace.ReconcileStarted,
			Key: req.String(), Worker: worker})
	}
}

// traceStaleSkipped records that worker skipped req: its caches lag the
// controller's own writes (Options.Freshness).
func (c *Controller) traceStaleSkipped(req Request, worker int) {
	if c.tracer.Enabled() {
		c.tracer.Emit(trace.Record{Component: trace.Controller, Name: c.name, Action: trace.StaleSkipped,
			Key: req.String(), Worker: worker})
	}
}

// traceFinished records how the reconcile of req by worker ended.
func (c *Controller) traceFinished(req Request, worker int, result string, res Result, err error, took time.Duration) {
	if !c.tracer.Enabled() {
		return
	}
	r := trace.Record{Component: trace.Controller, Name: c.name, Action: trace.ReconcileFinished,
		Key: req.String(), Worker: worker, Result: result, Err: err, Duration: took}
	switch {
	case errors.As(err, new(recoveredPanic)):
		r.Detail = "panic"
	case IsTerminal(err):
		r.Detail = "terminal"
	case err == nil && res.RequeueAfter > 0:
		r.Detail = "after " + res.RequeueAfter.String()
	}
	c.tracer.Emit(r)
}

// pass reports whether every predicate lets an event of type typ on obj
// through; the first that does not is recorded by name.
func (h *eventHandler[T]) pass(typ string, obj T, ok func(Predicate[T]) bool) bool {
	for _, p := range h.preds {
		if ok(p) {
			continue
		}
		if h.tracer.Enabled() {
			r := trace.Record{Component: trace.Controller, Name: h.ctrl, Action: trace.Dropped,
				DeltaType: typ, Detail: predicateName(p)}
			if m := metaOf(obj); m != nil {
				r.Kind = obj.GetTypeMeta().Kind
				r.Key, r.ResourceVersion = NamespacedNameOf(obj).String(), m.ResourceVersion
			}
			h.tracer.Emit(r)
		}
		return false
	}
	return true
}

// traceMapped records that an event of type typ on obj maps to reqs,
// unless reqs is obj itself or nothing; it returns reqs.
func (h *eventHandler[T]) traceMapped(typ string, obj T, reqs []Request) []Request {
	if !h.tracer.Enabled() || len(reqs) == 0 {
		return reqs
	}
	m := metaOf(obj)
	if m == nil || len(reqs) == 1 && reqs[0] == RequestFor(obj) {
		return reqs
	}
	keys := make([]string, len(reqs))
	for i, r := range reqs {
		keys[i] = r.String()
	}
	h.tracer.Emit(trace.Record{Component: trace.Controller, Name: h.ctrl, Action: trace.Mapped, DeltaType: typ,
		Kind: obj.GetTypeMeta().Kind, Key: NamespacedNameOf(obj).String(), ResourceVersion: m.ResourceVersion,
		Detail: strings.Join(keys, ",")})
	return reqs
}

// predicateName names a predicate by its type, without type arguments:
// "reconcile.GenerationChangedPredicate". A controller-wide filter is named
// by the predicate it wraps; predicates built from functions (Funcs, And,
// Or, Not, NewPredicateFuncs) are all "reconcile.Funcs".
func predicateName(p any) string {
	type wrapper interface{ inner() any }
	if w, ok := p.(wrapper); ok {
		p = w.inner()
	}
	name := fmt.Sprintf("%T", p)
	name = strings.TrimLeft(name, "*")
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	return name
}
