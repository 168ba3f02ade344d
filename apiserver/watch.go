package apiserver

import (
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// watchOutBuffer caps the channel a watcher's receiver reads from. Events
// that do not fit wait in the server's history instead, where they cost
// the watcher nothing (see [watcher]).
const watchOutBuffer = 128

// watcher is one running watch. Every watcher of a resource reads the
// same committed events, like a cursor into the watch cache's cyclic
// buffer: there is one copy of each event, and of each object, for all
// of them.
//
// A watcher is in one of two modes, and out has exactly one sender in
// each:
//
//   - live: it has been offered every event up to sentRV, and the
//     fan-out (watch_fanout.go) offers it the next ones: filtered through
//     the watcher's selectors, put into out without waiting, a batch at a
//     time. When out is full, it is lagging: the fan-out's next batch
//     tops it up from sentRV, and if the writers pause first, it becomes
//     catching up.
//   - catching up: its own goroutine (catchUp) sends the initial events,
//     then reads the history from sentRV on, in batches, and sends them,
//     waiting for the receiver; the fan-out leaves it alone. When it has
//     read everything, or the fan-out runs again, it becomes live and the
//     goroutine ends.
//
// Writers never wait for a reader. A watcher more than
// [Options.WatchBufferSize] resourceVersions behind, or whose next event
// the history has dropped, is cut off: the watch ends with a plain close
// and its client re-watches from the last resourceVersion it saw.
type watcher struct {
	srv  *Server
	gr   meta.GroupResource
	info meta.KindInfo
	ns   string // "" watches all namespaces
	sel  selectors
	all  bool // sel is empty: every object matches

	out       chan meta.Event
	bookmarks bool

	// Guarded by srv.fanMu (and set before the watcher is registered);
	// ending a watch needs srv.mu as well:
	live     bool
	ended    bool
	done     chan struct{} // closed when a catching-up watch ends
	sentRV   int64         // every event up to here has been sent or filtered out
	toldRV   int64         // the newest resourceVersion the receiver has seen
	stopCtx  func() bool   // unregisters the context.AfterFunc
	timeout  *time.Timer   // nil: none
	bookmark *time.Timer   // nil: no bookmark scheduled yet
	deadline time.Time     // when the watch times out; zero: never
	startRV  int64         // bookmarks only once the server is past it
}

// ResultChan returns the channel of events; see [meta.WatchInterface].
func (w *watcher) ResultChan() <-chan meta.Event { return w.out }

// Stop ends the watch; see [meta.WatchInterface].
func (w *watcher) Stop() {
	s := w.srv
	s.fanMu.Lock()
	defer s.fanMu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	w.feedFromHistoryLocked() // what was committed before the stop is delivered, if there is room
	w.endLocked()
}

// endLocked ends the watch, once: a live watch's channel closes now (the
// events already in it can still be read), a catching-up one's when its
// goroutine sees done. s.fanMu and s.mu must be held.
func (w *watcher) endLocked() {
	if w.ended {
		return
	}
	w.ended = true
	delete(w.srv.watchers[w.gr], w)
	delete(w.srv.lagging, w)
	w.srv.removeWatcherLocked(w)
	if w.stopCtx != nil {
		w.stopCtx()
	}
	for _, t := range []*time.Timer{w.timeout, w.bookmark} {
		if t != nil {
			t.Stop()
		}
	}
	if w.live {
		close(w.out)
	} else {
		close(w.done)
	}
}

// behind says whether a watcher that has been sent everything up to
// sentRV is too far behind to catch up, last being the newest
// resourceVersion: more than [Options.WatchBufferSize] resourceVersions
// (of any resource) waiting, its channel's included. s.fanMu must be held.
func (w *watcher) behind(sentRV, last int64) bool {
	return last-sentRV+int64(len(w.out)) > int64(w.srv.opts.WatchBufferSize)
}

// translate turns a stored change into the event this watcher sees, as the
// Kubernetes watch cache does: an object that starts matching the
// selectors is ADDED, one that stops matching is DELETED (with its
// previous content and the change's resourceVersion), and changes outside
// the selection are not sent at all. The objects are the committed ones,
// shared by every watcher; only the DELETED of an object leaving the
// selection is a copy, made for its new resourceVersion.
func (w *watcher) translate(ev *event) (meta.EventType, meta.Object) {
	if w.all { // the same answers, without looking at the objects
		switch {
		case ev.typ == meta.EventDeleted && ev.prev == nil:
			return "", nil
		case ev.typ == meta.EventDeleted:
			return meta.EventDeleted, ev.obj.obj
		case ev.prev != nil:
			return meta.EventModified, ev.obj.obj
		}
		return meta.EventAdded, ev.obj.obj
	}
	was := ev.prev != nil && w.sel.matches(w.info, ev.prev.obj)
	if ev.typ == meta.EventDeleted {
		if !was {
			return "", nil
		}
		return meta.EventDeleted, ev.obj.obj
	}
	is := w.sel.matches(w.info, ev.obj.obj)
	switch {
	case is && was:
		return meta.EventModified, ev.obj.obj
	case is:
		return meta.EventAdded, ev.obj.obj
	case was:
		obj := ev.prev.obj.DeepCopyObject()
		obj.GetObjectMeta().ResourceVersion = formatRV(ev.obj.rv)
		return meta.EventDeleted, obj
	}
	return "", nil
}

// compareKeys orders objects by namespace, then name, as lists are sorted.
func compareKeys(a, b meta.Object) int {
	am, bm := a.GetObjectMeta(), b.GetObjectMeta()
	if c := strings.Compare(am.Namespace, bm.Namespace); c != 0 {
		return c
	}
	return strings.Compare(am.Name, bm.Name)
}

// errorWatch is a finished watch holding a single ERROR event, as the
// server answers a watch from a compacted resourceVersion.
type errorWatch struct{ ch chan meta.Event }

func newErrorWatch(err *meta.StatusError) *errorWatch {
	ch := make(chan meta.Event, 1)
	ch <- meta.Event{Type: meta.EventError, Object: err.Status()}
	close(ch)
	return &errorWatch{ch: ch}
}

// ResultChan returns the channel with the single ERROR event.
func (w *errorWatch) ResultChan() <-chan meta.Event { return w.ch }

// Stop does nothing: the watch has already ended.
func (w *errorWatch) Stop() {}
