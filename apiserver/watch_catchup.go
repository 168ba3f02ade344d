package apiserver

import (
	"slices"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// How much a catching-up watcher reads from the history per hold of the
// server's lock: at most catchUpBatch events of its resource, scanning at
// most catchUpScan resourceVersions.
const (
	catchUpBatch = 256
	catchUpScan  = 4096
)

// catchUp is the goroutine of a watcher that is not live: it sends the
// initial events (a snapshot, sorted by key), the end-of-initial-events
// bookmark of a watch-list, then the history from sentRV on, until it has
// sent everything and the watcher is live again, or the watch ends. done
// is the watcher's done channel of this catch-up. The initial events are
// on the disk already (see [Server.startCatchUp]).
func (w *watcher) catchUp(initial []*entry, endBookmark bool, startRV int64, done chan struct{}) {
	told := int64(0)
	send := func(typ meta.EventType, obj meta.Object) bool {
		select {
		case w.out <- meta.Event{Type: typ, Object: obj}: // room: no need to look at done
			return true
		default:
		}
		select {
		case w.out <- meta.Event{Type: typ, Object: obj}:
			return true
		case <-done:
			return false
		}
	}
	// Only what the selectors let through needs sorting.
	initial = slices.DeleteFunc(initial, func(e *entry) bool { return !w.sel.matches(w.info, e.obj) })
	slices.SortFunc(initial, func(a, b *entry) int { return compareKeys(a.obj, b.obj) })
	for _, e := range initial {
		if !send(meta.EventAdded, e.obj) {
			close(w.out)
			return
		}
	}
	told = startRV
	if endBookmark && !send(meta.EventBookmark, w.bookmarkObject(startRV, true)) {
		close(w.out)
		return
	}
	var buf []*event // reused from batch to batch
	for {
		batch, more := w.nextBatch(told, buf)
		if !more {
			return
		}
		buf = batch
		for _, ev := range batch {
			typ, obj := w.translate(ev)
			if typ == "" {
				continue
			}
			if !send(typ, obj) {
				close(w.out)
				return
			}
			told = ev.obj.rv
		}
		clear(batch)
	}
}

// nextBatch returns the next events of the watcher's resource from the
// history, in buf's array, after recording that the receiver has seen
// told. When there are none left it makes the watcher live; more is false
// then, and when the watch has ended (its channel then still needs
// closing, which nextBatch does).
func (w *watcher) nextBatch(told int64, buf []*event) (batch []*event, more bool) {
	batch = buf[:0]
	s := w.cache
	s.fanMu.Lock()
	defer s.fanMu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	w.toldRV = max(w.toldRV, told)
	if !w.ended && w.sentRV < s.hist.compacted {
		w.endLocked() // the events it needs are gone: cut it off
	}
	if w.ended {
		close(w.out)
		return nil, false
	}
	if s.fanningOut {
		// The fan-out runs: it goes on from sentRV, topping the channel
		// up, round after round, with no goroutine waiting on it.
		w.live, w.done = true, nil
		s.lagging[w] = struct{}{}
		return nil, false
	}
	end := min(s.hist.shown, w.sentRV+catchUpScan)
	for r := w.sentRV + 1; r <= end && len(batch) < catchUpBatch; r++ {
		ev := s.hist.at(r)
		w.sentRV = r
		if ev.gr == w.gr && (w.ns == "" || ev.ns == w.ns) {
			batch = append(batch, ev)
		}
	}
	if w.sentRV >= s.hist.shown && len(batch) == 0 {
		w.live = true
		w.done = nil
		return nil, false
	}
	return batch, true
}
