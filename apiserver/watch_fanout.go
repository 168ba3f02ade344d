package apiserver

import (
	"runtime"
	"slices"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Fan-out: how committed events reach the live watchers.
//
// A writer does not hand its event to every watcher itself: that would
// wake each parked receiver once per event, and waking a goroutine costs
// far more than the send. It appends the event to the history ring and,
// unless one is already running, starts a fan-out goroutine (fanOut).
// That goroutine runs rounds: each takes the events committed since the
// last one and, without holding s.mu (writers go on committing
// meanwhile; the ring's slots are read atomically), gives each live
// watcher all of them in a row. A receiver is woken once per round, not
// once per event, and the faster writers go, the more events a round
// carries.
//
// Each watcher is offered each event in resourceVersion order, through
// its selectors, without waiting, from its own position in the ring
// (sentRV), like the watch cache's cursor per watcher. A watcher whose
// channel is full is lagging: the next round tops it up from where it
// stopped, and when the writers pause with watchers still lagging, each
// of them gets a goroutine of its own that waits for its receiver
// (catchUp), until the fan-out runs again.
//
// Locks: s.fanMu guards the watchers' delivery state (see [watcher]) and
// the lagging set, and is taken before s.mu, never after. Every event up
// to s.hist.fannedOut has been offered to every live watcher that is not
// lagging, or is in a round under way.

// fanOutAfterCommitLocked is called by a writer after it appended an event
// of gr to the history. s.mu must be held.
func (s *watchCache) fanOutAfterCommitLocked(gr meta.GroupResource) {
	switch {
	case s.fanningOut, s.hist.shown < s.hist.last:
		// The running fan-out picks the event up, or the sync that makes
		// it durable starts one (Server.synced).
	case s.hist.fannedOut == s.hist.last-1 && len(s.watchers[gr]) == 0:
		s.hist.fannedOut = s.hist.last // nobody to tell
	default:
		s.fanningOut = true
		go s.fanOut()
	}
}

// fanOut is the fan-out goroutine: it runs rounds while there are new
// events, or lagging watchers whose receivers make progress.
func (s *watchCache) fanOut() {
	r := fanOutRound{progress: true}
	for r.next(s) {
		r.run(s)
		if r.lagging {
			// Let the receivers drain their channels before the next
			// round fills them up again.
			runtime.Gosched()
		}
	}
}

// fanOutRound is one round of the fan-out: the watchers to offer events
// up to last, read under s.mu, lagging ones included. Its slices are
// reused from round to round.
type fanOutRound struct {
	last int64
	// lists are the watcher lists of the round's resources (grs), as
	// they stood (see [watcherList]); extra are the lagging watchers of
	// other resources.
	lists [][]*watcher
	extra []*watcher
	grs   []meta.GroupResource
	// events are the round's new events, read from the history once for
	// all watchers: events[i] has resourceVersion last-len(events)+1+i.
	events []*event
	// progress: the last round sent an event; lagging: it left watchers
	// lagging.
	progress, lagging bool
}

// fanOutNextLocked reads the watchers of the next round into r. When
// there is no new event, and no lagging watcher took one in the last
// round, it hands the lagging watchers to goroutines of their own, ends
// the fan-out and returns false. s.fanMu and s.mu must be held.
func (s *watchCache) fanOutNextLocked(r *fanOutRound) bool {
	if s.hist.fannedOut >= s.hist.shown && (len(s.lagging) == 0 || !r.progress) {
		for w := range s.lagging {
			w.catchUpLocked()
		}
		s.fanningOut = false
		return false
	}
	from := max(s.hist.fannedOut, s.hist.compacted) + 1
	r.last = s.hist.shown
	s.hist.fannedOut = r.last
	r.grs, r.events = r.grs[:0], r.events[:0]
	for rv := from; rv <= r.last; rv++ {
		ev := s.hist.at(rv)
		r.events = append(r.events, ev)
		if !slices.Contains(r.grs, ev.gr) {
			r.grs = append(r.grs, ev.gr)
		}
	}
	r.lists = r.lists[:0]
	for _, gr := range r.grs {
		if l := s.fanLists[gr]; l != nil {
			r.lists = append(r.lists, l.ws)
		}
	}
	r.extra = r.extra[:0]
	for w := range s.lagging {
		if !slices.Contains(r.grs, w.gr) {
			r.extra = append(r.extra, w)
		}
	}
	clear(s.lagging)
	return true
}

// next takes s.fanMu and s.mu to read the next round; see fanOutNextLocked.
// It releases s.mu, and s.fanMu too if there is no round.
func (r *fanOutRound) next(s *watchCache) bool {
	s.fanMu.Lock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.fanOutNextLocked(r) {
		s.fanMu.Unlock()
		return false
	}
	return true
}

// run offers the round's watchers the events up to r.last, ends the
// watches that fell too far behind, and releases s.fanMu.
func (r *fanOutRound) run(s *watchCache) {
	defer s.fanMu.Unlock()
	var cut []*watcher
	r.progress = false
	offer := func(w *watcher) {
		told := w.toldRV
		switch {
		case w.ended:
		case !w.live:
			if w.behind(w.sentRV, r.last) {
				cut = append(cut, w)
			}
		case !w.feedLocked(r.last, r.events):
			cut = append(cut, w)
		}
		r.progress = r.progress || w.toldRV != told
	}
	for _, ws := range r.lists {
		for _, w := range ws {
			offer(w)
		}
	}
	for _, w := range r.extra {
		offer(w)
	}
	r.lagging = len(s.lagging) > 0
	clear(r.lists)
	clear(r.extra)
	clear(r.events)
	if len(cut) > 0 {
		s.mu.Lock()
		for _, w := range cut {
			w.endLocked()
		}
		s.mu.Unlock()
	}
}

// feedLocked offers the live watcher, without waiting, the events after
// its sentRV up to last, the newest of which may have been read from the
// history already (recent: the events up to last). When its channel
// fills up the watcher is lagging and the next round goes on from there.
// It returns false if the watcher is too far behind, or its next event
// has left the history, and must be cut off (which needs s.mu). s.fanMu
// must be held.
func (w *watcher) feedLocked(last int64, recent []*event) bool {
	first := last - int64(len(recent)) + 1
	var older cursor // read from where recent does not reach, if anywhere
	if w.sentRV+1 < first {
		older = w.cache.hist.cursor(w.sentRV + 1)
	}
	for rv := w.sentRV + 1; rv <= last; rv++ {
		var ev *event
		if rv >= first {
			ev = recent[rv-first]
		} else if ev = older.next(); ev == nil {
			return false
		}
		if ev.gr != w.gr || (w.ns != "" && ev.ns != w.ns) {
			w.sentRV = rv
			continue
		}
		typ, obj := w.translate(ev)
		if typ == "" {
			w.sentRV = rv
			continue
		}
		select {
		case w.out <- meta.Event{Type: typ, Object: obj}:
			w.sentRV, w.toldRV = rv, rv
		default: // full: lagging
			if w.behind(rv-1, last) {
				return false
			}
			w.cache.lagging[w] = struct{}{}
			return true
		}
	}
	return true
}

// feedFromHistoryLocked offers a live watcher, without waiting, every
// committed event it has not been offered yet, so that what was
// committed before a stop, a close or a bookmark reaches it first. It
// leaves a watcher that is not live alone, and cuts one off that cannot
// catch up. s.fanMu and s.mu must be held.
func (w *watcher) feedFromHistoryLocked() {
	s := w.cache
	if !w.live || w.ended {
		return
	}
	if !w.feedLocked(s.hist.shown, nil) {
		w.endLocked()
		return
	}
	if _, ok := s.lagging[w]; ok && !s.fanningOut {
		w.catchUpLocked() // no round will top it up
	}
}

// catchUpLocked hands a lagging watcher to a goroutine of its own, which
// waits for its receiver. s.fanMu and s.mu must be held.
func (w *watcher) catchUpLocked() {
	delete(w.cache.lagging, w)
	w.live = false
	w.done = make(chan struct{})
	go w.catchUp(nil, false, 0, w.done)
}

// Stop ends the watch; see [meta.WatchInterface].
func (w *watcher) Stop() {
	s := w.cache
	s.fanMu.Lock()
	defer s.fanMu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	w.feedFromHistoryLocked() // what was committed before the stop is delivered, if there is room
	w.endLocked()
}
