package apiserver

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"
)

// watcher is one running watch. Writers offer it events through in,
// without blocking, while holding the server's lock; its own goroutine
// (run) filters them through the selectors, copies each object for the
// receiver and sends it on out. That split is why a reader can never
// block a writer: the worst a slow reader can do is fill in, and then it
// is cut off.
type watcher struct {
	srv  *Server
	gr   GroupResource
	info KindInfo
	ns   string // "" watches all namespaces
	sel  selectors
	ctx  context.Context

	in       chan *event
	out      chan Event
	done     chan struct{} // closed to end the watch
	stopOnce sync.Once

	bookmarks bool
	timeout   time.Duration // 0: none; negative: ended before it began

	// Owned by run:
	sentRV   int64 // every event up to here has been delivered or filtered out
	toldRV   int64 // the newest resourceVersion the receiver has seen
	timeoutC <-chan time.Time
}

// ResultChan returns the channel of events; see [WatchInterface].
func (w *watcher) ResultChan() <-chan Event { return w.out }

// Stop ends the watch; see [WatchInterface].
func (w *watcher) Stop() {
	w.srv.forget(w)
	w.stopOnce.Do(func() { close(w.done) })
}

// offerLocked hands ev to the watcher without blocking, or cuts the
// watcher off if its buffer is full. s.mu must be held.
func (w *watcher) offerLocked(ev *event) {
	if w.ns != "" && ev.ns != w.ns {
		return
	}
	select {
	case w.in <- ev:
	default:
		// Like the Kubernetes watch cache with an unresponsive watcher:
		// terminate the watch rather than wait for it.
		delete(w.srv.watchers[w.gr], w)
		w.stopOnce.Do(func() { close(w.done) })
	}
}

// forget stops offering events to w.
func (s *Server) forget(w *watcher) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.watchers[w.gr], w)
}

// requestBookmark queues a bookmark at the current resourceVersion behind
// the events already queued for w, so it cannot overtake them.
func (s *Server) requestBookmark(w *watcher) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.watchers[w.gr][w]; !ok {
		return
	}
	select {
	case w.in <- &event{typ: EventBookmark, obj: &entry{rv: s.hist.last}}:
	default: // full: the next event will say more than a bookmark
	}
}

// run delivers the initial events (a snapshot, sorted by key), the
// end-of-initial-events bookmark in watch-list mode, the backlog of
// history, and then live events until the watch ends.
func (w *watcher) run(initial []*entry, endBookmark bool, backlog []*event) {
	defer close(w.out)
	defer w.srv.forget(w)
	if w.timeout < 0 {
		return // timed out before it began
	}
	if w.timeout > 0 {
		t := time.NewTimer(w.timeout)
		defer t.Stop()
		w.timeoutC = t.C
	}
	if !w.catchUp(initial, endBookmark, backlog) {
		return
	}
	var tick <-chan time.Time
	if w.bookmarks {
		t := time.NewTicker(w.srv.opts.BookmarkInterval)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case ev := <-w.in:
			if !w.handle(ev) {
				return
			}
		case <-tick:
			w.srv.requestBookmark(w)
		case <-w.done:
			return
		case <-w.ctx.Done():
			return
		case <-w.timeoutC:
			return
		}
	}
}

// catchUp delivers what precedes the live events. It returns false when
// the watch has ended.
func (w *watcher) catchUp(initial []*entry, endBookmark bool, backlog []*event) bool {
	slices.SortFunc(initial, func(a, b *entry) int { return compareKeys(a.obj, b.obj) })
	for _, e := range initial {
		if w.sel.matches(w.info, e.obj) && !w.send(EventAdded, e.obj.DeepCopyObject()) {
			return false
		}
	}
	w.toldRV = w.sentRV
	if endBookmark && !w.send(EventBookmark, w.bookmarkObject(w.sentRV, true)) {
		return false
	}
	for _, ev := range backlog {
		if !w.handle(ev) {
			return false
		}
	}
	return true
}

// handle delivers what ev means to this watcher, if anything. It returns
// false when the watch has ended.
func (w *watcher) handle(ev *event) bool {
	if ev.typ == EventBookmark {
		if !w.bookmarks || ev.obj.rv <= w.toldRV || ev.obj.rv < w.sentRV {
			return true // no news
		}
		w.toldRV = ev.obj.rv
		return w.send(EventBookmark, w.bookmarkObject(ev.obj.rv, false))
	}
	if ev.obj.rv <= w.sentRV {
		return true // at or before the start
	}
	w.sentRV = ev.obj.rv
	typ, obj := w.translate(ev)
	if typ == "" {
		return true
	}
	w.toldRV = ev.obj.rv
	return w.send(typ, obj)
}

// translate turns a stored change into the event this watcher sees, as the
// Kubernetes watch cache does: an object that starts matching the
// selectors is ADDED, one that stops matching is DELETED (with its
// previous content and the change's resourceVersion), and changes outside
// the selection are not sent at all.
func (w *watcher) translate(ev *event) (EventType, Object) {
	was := ev.prev != nil && w.sel.matches(w.info, ev.prev.obj)
	if ev.typ == EventDeleted {
		if !was {
			return "", nil
		}
		return EventDeleted, ev.obj.obj.DeepCopyObject()
	}
	is := w.sel.matches(w.info, ev.obj.obj)
	switch {
	case is && was:
		return EventModified, ev.obj.obj.DeepCopyObject()
	case is:
		return EventAdded, ev.obj.obj.DeepCopyObject()
	case was:
		obj := ev.prev.obj.DeepCopyObject()
		obj.GetObjectMeta().ResourceVersion = formatRV(ev.obj.rv)
		return EventDeleted, obj
	}
	return "", nil
}

// send delivers one event, unless the watch ends first.
func (w *watcher) send(typ EventType, obj Object) bool {
	select {
	case w.out <- Event{Type: typ, Object: obj}:
		return true
	case <-w.done:
	case <-w.ctx.Done():
	case <-w.timeoutC:
	}
	return false
}

// bookmarkObject returns a new empty object of the watched kind carrying
// only its type, resourceVersion rv and, at the end of the initial events
// of a watch-list, the [InitialEventsEndAnnotation].
func (w *watcher) bookmarkObject(rv int64, initialEnd bool) Object {
	obj := w.info.New()
	*obj.GetTypeMeta() = TypeMeta{APIVersion: w.info.GroupVersionKind().GroupVersion().String(), Kind: w.info.Kind}
	obj.GetObjectMeta().ResourceVersion = formatRV(rv)
	if initialEnd {
		obj.GetObjectMeta().Annotations = map[string]string{InitialEventsEndAnnotation: "true"}
	}
	return obj
}

// compareKeys orders objects by namespace, then name, as lists are sorted.
func compareKeys(a, b Object) int {
	am, bm := a.GetObjectMeta(), b.GetObjectMeta()
	if c := strings.Compare(am.Namespace, bm.Namespace); c != 0 {
		return c
	}
	return strings.Compare(am.Name, bm.Name)
}

// errorWatch is a finished watch holding a single ERROR event, as the
// server answers a watch from a compacted resourceVersion.
type errorWatch struct{ ch chan Event }

func newErrorWatch(err *StatusError) *errorWatch {
	ch := make(chan Event, 1)
	ch <- Event{Type: EventError, Object: err.Status()}
	close(ch)
	return &errorWatch{ch: ch}
}

// ResultChan returns the channel with the single ERROR event.
func (w *errorWatch) ResultChan() <-chan Event { return w.ch }

// Stop does nothing: the watch has already ended.
func (w *errorWatch) Stop() {}
