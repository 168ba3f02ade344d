package explore

import (
	"context"
	"errors"
	"strconv"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/trace"
)

// errCrashed is what a request of a crashed incarnation gets: as if the
// process were gone, it never reaches the server.
var errCrashed = errors.New("explore: the controller has crashed (its process is gone)")

// The verbs of writes, as the narration names them.
const (
	verbCreate       = "create"
	verbUpdate       = "update"
	verbUpdateStatus = "update-status"
	verbPatch        = "patch"
	verbDelete       = "delete"
)

// isUpdate reports whether verb can meet a 409 Conflict for a stale
// resourceVersion.
func isUpdate(verb string) bool {
	return verb == verbUpdate || verb == verbUpdateStatus || verb == verbPatch
}

// writeCall is one write a front is about to make for a controller.
type writeCall struct {
	c     *ctrlState // nil for the workload's writes
	inc   *incarnation
	verb  string
	gr    meta.GroupResource
	kind  string
	key   string
	do    func() (rv, key string, err error) // makes the write; key names what it wrote, if known only now
	rvNow func() string                      // the server's latest resourceVersion
}

// write makes w.do's write for a controller, applying the perturbations
// at this point: a Conflict instead of the write, a Crash or Stale
// crash right after it (the caller then gets errCrashed, as every later
// request of its incarnation does). It counts the write and narrates it.
func (r *run) write(w writeCall) error {
	if w.c == nil {
		r.sched.mu.Lock()
		r.sched.writes++
		r.sched.mu.Unlock()
		rv, key, err := w.do()
		r.emitWrite("user", w, rv, key, err)
		return err
	}
	if w.inc.isDead() {
		return errCrashed
	}
	step, n, p, hit := r.countWrite(w)
	at := strconv.Itoa(step) + ".w" + strconv.Itoa(n)
	if hit && p.Kind == Conflict {
		err := meta.NewConflict(w.gr, name(w.key), errors.New(conflictMessage))
		r.emit(trace.Record{Component: component, Name: w.c.Name, Action: actConflict, Kind: w.kind, Key: w.key, Detail: at})
		r.emitWrite(w.c.Name, w, "", "", err)
		return err
	}
	var staleRV string
	if hit && p.Kind == Stale {
		staleRV = w.rvNow()
	}
	rv, key, err := w.do()
	r.emitWrite(w.c.Name, w, rv, key, err)
	if hit && (p.Kind == Crash || p.Kind == Stale) {
		if staleRV != "" {
			r.sched.mu.Lock()
			w.c.staleRV = staleRV
			r.sched.mu.Unlock()
		}
		r.kill(w.c, w.inc, actCrashed, "after write "+at)
		// The write is committed, but the process is gone before it
		// hears so: the code after the call must not run as if it had
		// succeeded (a side effect outside the API, such as freeing a
		// resource, would happen that a real crash never makes).
		return errCrashed
	}
	return err
}

// countWrite counts a controller's write within the current step, and
// finds the perturbation at it, if any.
func (r *run) countWrite(w writeCall) (step, n int, p Perturbation, hit bool) {
	step = r.curStep()
	r.sched.mu.Lock()
	defer r.sched.mu.Unlock()
	w.c.writes[step]++
	n = w.c.writes[step]
	p, hit = r.matchLocked(Kind.atWrite, w.c.Name, "", step, n)
	if r.learn != nil {
		r.learn.writes = append(r.learn.writes, point{ctrl: w.c.Name, step: step, index: n, verb: w.verb, chain: r.sched.delivered})
	}
	r.sched.writes++
	return step, n, p, hit
}

// conflictMessage is kube-apiserver's wording of a stale write.
const conflictMessage = "the object has been modified; please apply your changes to the latest version and try again"

// name returns the name part of a namespace/name key.
func name(key string) string {
	for i := len(key) - 1; i >= 0; i-- {
		if key[i] == '/' {
			return key[i+1:]
		}
	}
	return key
}

func (r *run) emitWrite(who string, w writeCall, rv, key string, err error) {
	if key == "" {
		key = w.key
	}
	r.emit(trace.Record{Component: component, Name: who, Action: actWrote, Kind: w.kind, Key: key,
		ResourceVersion: rv, Detail: w.verb, Err: err})
}

// streamFor returns inc's stream for resource res, creating it.
func (r *run) streamFor(c *ctrlState, inc *incarnation, res, kind string) *stream {
	r.sched.mu.Lock()
	defer r.sched.mu.Unlock()
	st := inc.streams[res]
	if st == nil {
		st = &stream{ctrl: c, inc: inc, res: res, kind: kind, known: map[string]bool{}}
		inc.streams[res] = st
	}
	return st
}

// beforeList waits for a list's turn and returns its options: the first
// list of each resource after a Stale crash reads at the older
// resourceVersion. A continued list is not held.
func (r *run) beforeList(ctx context.Context, st *stream, opts meta.ListOptions) (meta.ListOptions, error) {
	if st.inc.isDead() {
		return opts, errCrashed
	}
	if opts.Continue != "" {
		return opts, nil
	}
	if !r.sched.waitList(ctx, st) {
		return opts, errCrashed
	}
	r.sched.mu.Lock()
	first := !st.inc.listed[st.res]
	st.inc.listed[st.res] = true
	r.sched.mu.Unlock()
	if first && st.inc.staleRV != "" {
		opts.ResourceVersion = st.inc.staleRV
		opts.ResourceVersionMatch = meta.ResourceVersionMatchExact
		r.emit(trace.Record{Component: component, Name: st.ctrl.Name + "/" + st.res, Action: actStaleList, Kind: st.kind,
			ResourceVersion: st.inc.staleRV})
	}
	return opts, nil
}

// afterList records what the informer now caches. first is false for a
// continued page.
func (r *run) afterList(st *stream, keys []string, rv string, first bool, err error) {
	if err != nil {
		return
	}
	r.sched.mu.Lock()
	if first {
		clear(st.known)
	}
	for _, k := range keys {
		st.known[k] = true
	}
	r.sched.mu.Unlock()
	r.emit(trace.Record{Component: component, Name: st.ctrl.Name + "/" + st.res, Action: actListed, Kind: st.kind,
		ResourceVersion: rv, Count: len(keys)})
}
