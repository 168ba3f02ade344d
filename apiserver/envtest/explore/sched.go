package explore

import (
	"cmp"
	"context"
	"slices"
	"sync"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// item is one watch event waiting to be delivered.
type item struct {
	typ meta.EventType
	key string // namespace/name
	rv  int64
	ev  meta.Event // in process
	raw []byte     // over HTTP: the frame as the server wrote it
}

// outlet is the consumer's side of a watch, as a front implements it.
// Its methods are called by the scheduler only, from the goroutine that
// drives the run.
type outlet interface {
	// ready reports whether the consumer has taken the last event: then
	// deliver does not block.
	ready() bool
	// deliver hands it over.
	deliver(it item)
	// retype returns it as an event of type typ (coalescing).
	retype(it item, typ meta.EventType) item
	// expire delivers an ERROR event with a 410 Expired status.
	expire()
	// close ends the consumer's stream.
	close()
}

// watch is one watch of one informer, held by the explorer between the
// server and the informer. A reader goroutine appends what the server
// sends to pending; the scheduler delivers it, one event at a time, at
// quiet points.
type watch struct {
	id     int
	stream *stream
	out    outlet
	stopUp func() // stops the server's watch

	// guarded by scheduler.mu:
	pending  []item
	upDone   bool // the server's watch ended
	stopped  bool // the consumer stopped it
	finished bool // out is closed; the watch is forgotten
}

// stream is one informer of one incarnation of a controller: what it has
// seen, and whether its events are being held back.
type stream struct {
	ctrl  *ctrlState
	inc   *incarnation
	res   string          // plural resource name
	kind  string          // its kind, for narration
	known map[string]bool // keys in the informer's cache, as far as the explorer knows
	hold  Kind            // Lag or Coalesce while held back, else ""
	// relist is set when the explorer has ended the informer's watch with
	// 410 Expired, until the informer asks to list again.
	relist bool
}

// listReq is a list waiting for its turn: lists are granted one at a
// time, at quiet points, so that informers fill their caches in a fixed
// order.
type listReq struct {
	stream *stream
	grant  chan struct{}
}

// scheduler holds every watch and waiting list of a run.
type scheduler struct {
	mu        sync.Mutex // guards the fields below and every watch's guarded fields
	watches   []*watch
	lists     []*listReq
	nextID    int
	activity  int // counts events received, lists asked for and moves made: a change means "not quiet"
	writes    int // counts writes made: a change means "check the invariants again"
	delivered int // counts events delivered
}

// addWatch registers a watch for st whose events go to out.
func (s *scheduler) addWatch(st *stream, out outlet, stopUp func()) *watch {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	w := &watch{id: s.nextID, stream: st, out: out, stopUp: stopUp}
	s.watches = append(s.watches, w)
	return w
}

// push queues an event from the server.
func (s *scheduler) push(w *watch, it item) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w.pending = append(w.pending, it)
	s.activity++
}

// upstreamEnded records that the server's watch ended: the consumer's
// ends too, once what is pending is delivered.
func (s *scheduler) upstreamEnded(w *watch) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w.upDone = true
	s.activity++
}

// stop records that the consumer stopped the watch.
func (s *scheduler) stop(w *watch) {
	s.mu.Lock()
	w.stopped = true
	s.mu.Unlock()
	w.stopUp()
}

// activityCount returns the activity counter.
func (s *scheduler) activityCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.activity
}

// changeCount returns a number that changes whenever the server may
// have: with every write and every event.
func (s *scheduler) changeCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.activity + s.writes
}

// waitList blocks the caller until its list is granted, or ctx or the
// stream's incarnation ends.
func (s *scheduler) waitList(ctx context.Context, st *stream) bool {
	req := &listReq{stream: st, grant: make(chan struct{})}
	s.mu.Lock()
	st.relist = false
	s.lists = append(s.lists, req)
	s.activity++
	s.mu.Unlock()
	select {
	case <-req.grant:
		return true
	case <-ctx.Done():
	case <-st.inc.ctx.Done():
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-req.grant:
		return true // granted meanwhile
	default:
	}
	s.lists = slices.DeleteFunc(s.lists, func(r *listReq) bool { return r == req })
	return false
}

// grantList lets the first waiting list (by controller, then resource)
// proceed; false if none waits.
func (s *scheduler) grantList() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.lists) == 0 {
		return false
	}
	first := slices.MinFunc(s.lists, func(a, b *listReq) int {
		return cmp.Or(cmp.Compare(a.stream.ctrl.idx, b.stream.ctrl.idx), cmp.Compare(a.stream.res, b.stream.res))
	})
	s.lists = slices.DeleteFunc(s.lists, func(r *listReq) bool { return r == first })
	close(first.grant)
	return true
}

// finishEnded closes the outlets of watches that are over: stopped by
// their consumer, or ended by the server with nothing left to deliver.
// Must be called with mu held.
func (s *scheduler) finishEndedLocked() {
	s.watches = slices.DeleteFunc(s.watches, func(w *watch) bool {
		if !w.stopped && (!w.upDone || len(w.pending) > 0) {
			return false
		}
		w.finish()
		return true
	})
}

// finishAll closes every watch's outlet and forgets them.
func (s *scheduler) finishAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, w := range s.watches {
		w.finish()
	}
	s.watches = nil
}

// finish closes w's outlet once. Must be called with mu held.
func (w *watch) finish() {
	if !w.finished {
		w.finished = true
		w.pending = nil
		w.out.close()
	}
}

// next returns the watch whose first pending event goes next: the
// oldest event (by resourceVersion) among the watches not held back, ties
// broken by controller, resource and watch. Nil if none. Must be called
// with mu held.
func (s *scheduler) nextLocked() *watch {
	var best *watch
	for _, w := range s.watches {
		if w.finished || w.stopped || len(w.pending) == 0 || w.stream.hold != "" || w.stream.inc.isDead() {
			continue
		}
		if best == nil || compareHeads(w, best) < 0 {
			best = w
		}
	}
	return best
}

func compareHeads(a, b *watch) int {
	return cmp.Or(
		cmp.Compare(a.pending[0].rv, b.pending[0].rv),
		cmp.Compare(a.stream.ctrl.idx, b.stream.ctrl.idx),
		cmp.Compare(a.stream.res, b.stream.res),
		cmp.Compare(a.id, b.id))
}

// held returns the streams being held back that have events waiting,
// in a fixed order. Must be called with mu held.
func (s *scheduler) heldLocked() []*stream {
	var out []*stream
	for _, w := range s.watches {
		if w.stream.hold != "" && !slices.Contains(out, w.stream) {
			out = append(out, w.stream)
		}
	}
	slices.SortFunc(out, func(a, b *stream) int {
		return cmp.Or(cmp.Compare(a.ctrl.idx, b.ctrl.idx), cmp.Compare(a.res, b.res))
	})
	return out
}

// coalesceLocked leaves, of the events pending for st, only the last of
// each object, typed as a relist would show it to the informer: an object
// it knew is MODIFIED (or DELETED), one it did not is ADDED, and one that
// came and went is not shown at all. Must be called with mu held.
func (s *scheduler) coalesceLocked(st *stream) (dropped int) {
	for _, w := range s.watches {
		if w.stream != st || len(w.pending) < 2 {
			continue
		}
		last := map[string]int{}
		for i, it := range w.pending {
			last[it.key] = i
		}
		var kept []item
		for i, it := range w.pending {
			if last[it.key] != i || it.typ == meta.EventBookmark || it.typ == meta.EventError {
				if it.typ != meta.EventBookmark && it.typ != meta.EventError {
					dropped++
				}
				continue
			}
			known := st.known[it.key]
			switch {
			case it.typ == meta.EventDeleted && !known:
				dropped++
				continue
			case it.typ != meta.EventDeleted && known:
				it = w.out.retype(it, meta.EventModified)
			case it.typ != meta.EventDeleted:
				it = w.out.retype(it, meta.EventAdded)
			}
			kept = append(kept, it)
		}
		w.pending = kept
	}
	return dropped
}

// dropPendingLocked forgets the events pending for every watch of inc
// (it crashed). Must be called with mu held.
func (s *scheduler) endIncarnationLocked(inc *incarnation) {
	for _, w := range s.watches {
		if w.stream.inc == inc {
			w.stopped = true
		}
	}
	s.lists = slices.DeleteFunc(s.lists, func(r *listReq) bool { return r.stream.inc == inc })
}

// observed updates st.known with what its informer was just handed.
func (st *stream) observed(it item) {
	switch it.typ {
	case meta.EventAdded, meta.EventModified:
		st.known[it.key] = true
	case meta.EventDeleted:
		delete(st.known, it.key)
	}
}
