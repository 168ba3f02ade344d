package explore

import (
	"strconv"
	"time"

	"github.com/kitchensync/kitchensync/trace"
)

// deliverNext delivers the next pending event to its informer, or does
// what a perturbation at that event asks instead: start holding the
// informer's events back (Lag, Coalesce), cut its watch (Cut) or end it
// with 410 (Expire). False if nothing can be delivered.
func (r *run) deliverNext() bool {
	s := &r.sched
	s.mu.Lock()
	defer s.mu.Unlock()
	s.finishEndedLocked()
	step := r.curStep()
	for {
		w := s.nextLocked()
		if w == nil {
			return false
		}
		st := w.stream
		counts := st.ctrl.events[st.res]
		if counts == nil {
			counts = map[int]int{}
			st.ctrl.events[st.res] = counts
		}
		n := counts[step] + 1
		at := strconv.Itoa(step) + ".e" + strconv.Itoa(n)
		if p, ok := r.matchLocked(Kind.atEvent, st.ctrl.Name, st.res, step, n); ok {
			r.perturbWatchLocked(w, p.Kind, at)
			return true
		}
		it := w.pending[0]
		if !w.out.ready() {
			w.stopped = true // the informer does not read: treat the watch as abandoned
			continue
		}
		w.pending = w.pending[1:]
		counts[step] = n
		s.delivered++
		st.observed(it)
		if r.learn != nil {
			r.learn.events = append(r.learn.events, point{ctrl: st.ctrl.Name, res: st.res, step: step, index: n})
		}
		// Narrated first: once handed over, the event is handled at once,
		// and its records must come after this one.
		r.emit(trace.Record{Component: component, Name: st.ctrl.Name + "/" + st.res, Action: actDelivered,
			Kind: st.kind, Key: it.key, ResourceVersion: strconv.FormatInt(it.rv, 10), DeltaType: string(it.typ)})
		w.out.deliver(it)
		return true
	}
}

// perturbWatchLocked does to w what a perturbation of kind k at event
// point at asks. Must be called with the scheduler's mu held.
func (r *run) perturbWatchLocked(w *watch, k Kind, at string) {
	st := w.stream
	who := st.ctrl.Name + "/" + st.res
	switch k {
	case Lag, Coalesce:
		st.hold = k
		r.emit(trace.Record{Component: component, Name: who, Action: actHeld, Kind: st.kind, Detail: string(k) + " from " + at})
	case Cut:
		r.emit(trace.Record{Component: component, Name: who, Action: actCut, Kind: st.kind, Detail: "before " + at})
		w.stopUp()
		w.finish()
	case Expire:
		st.relist = true
		r.emit(trace.Record{Component: component, Name: who, Action: actExpired, Kind: st.kind, Detail: "before " + at})
		w.out.expire()
		w.stopUp()
		w.finish()
	}
}

// releaseHeld ends the first hold: the informer's events flow again,
// coalesced first for Coalesce. False if no informer is held back.
func (r *run) releaseHeld() bool {
	s := &r.sched
	s.mu.Lock()
	defer s.mu.Unlock()
	held := s.heldLocked()
	if len(held) == 0 {
		return false
	}
	st := held[0]
	detail := ""
	if st.hold == Coalesce {
		detail = strconv.Itoa(s.coalesceLocked(st)) + " events dropped"
	}
	st.hold = ""
	r.emit(trace.Record{Component: component, Name: st.ctrl.Name + "/" + st.res, Action: actReleased, Kind: st.kind, Detail: detail})
	return true
}

// relistGrace is how long a run waits, at most, for an informer whose
// watch it expired to list again, even past Options.Settle: client-go's
// reflector backs off 0.8 to 1.6 s after a watch error before it lists
// (more than the 300ms a run over HTTP settles in by default).
const relistGrace = 3 * time.Second

// relistDue reports whether an informer of a running controller has not
// yet listed again after its watch was expired.
func (r *run) relistDue() bool {
	r.sched.mu.Lock()
	defer r.sched.mu.Unlock()
	for _, c := range r.ctrls {
		if c.inc == nil || c.inc.isDead() {
			continue
		}
		for _, st := range c.inc.streams {
			if st.relist {
				return true
			}
		}
	}
	return false
}
