package apiserver

import (
	"slices"
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// watchOutBuffer caps the channel a watcher's receiver reads from. Events
// that do not fit wait in the server's history instead, where they cost
// the watcher nothing (see [watcher]).
const watchOutBuffer = 128

// watchCache is what watchers read, like the Kubernetes watch cache: the
// history of committed events, the watchers, the fan-out that offers
// them each event (watch_fanout.go), and the readers that wait for a
// resourceVersion not reached yet (rv_wait.go). It does not know the
// objects: the [Server] embeds it, so that its mu is the server's lock,
// which guards the server's maps too, and its methods, like the
// server's, call their receiver s.
type watchCache struct {
	// fanMu guards the watchers' delivery state; it is taken before mu
	// (see watch_fanout.go).
	fanMu      sync.Mutex
	lagging    map[*watcher]struct{} // live watchers with a full channel; guarded by fanMu
	fanningOut bool                  // a fan-out goroutine runs; guarded by mu
	mu         sync.Mutex            // guards hist, watchers, fanLists, advanced, and the Server's maps
	hist       *history
	watchers   map[meta.GroupResource]map[*watcher]struct{}
	fanLists   map[meta.GroupResource]*watcherList // the watchers as the fan-out walks them
	// advanced, when not nil, is closed at the next write: readers
	// waiting for a resourceVersion the server has not reached wait on it.
	advanced chan struct{}
	// bufferSize and bookmarkInterval are [Options.WatchBufferSize] and
	// [Options.BookmarkInterval].
	bufferSize       int
	bookmarkInterval time.Duration
}

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
	cache *watchCache
	gr    meta.GroupResource
	info  meta.KindInfo
	ns    string // "" watches all namespaces
	sel   selectors
	all   bool // sel is empty: every object matches

	out       chan meta.Event
	bookmarks bool

	// Guarded by s.fanMu (and set before the watcher is registered);
	// ending a watch needs s.mu as well:
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

// endLocked ends the watch, once: a live watch's channel closes now (the
// events already in it can still be read), a catching-up one's when its
// goroutine sees done. s.fanMu and s.mu must be held.
func (w *watcher) endLocked() {
	if w.ended {
		return
	}
	w.ended = true
	delete(w.cache.watchers[w.gr], w)
	delete(w.cache.lagging, w)
	w.cache.removeWatcherLocked(w)
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
	return last-sentRV+int64(len(w.out)) > int64(w.cache.bufferSize)
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

// watcherList is what the fan-out walks: a resource's watchers in a
// slice, which a round reads as it stood when the round began. A new
// watcher is appended (past the end of every earlier round's view); an
// ended one stays until more than half of the list has ended, and the
// list is then copied without them (earlier views keep the old copy).
// Rounds skip ended watchers. Guarded by s.mu (and s.fanMu to remove).
type watcherList struct {
	ws    []*watcher
	ended int
}

// addWatcherLocked puts w in its resource's list. s.mu must be held.
func (s *watchCache) addWatcherLocked(w *watcher) {
	l := s.fanLists[w.gr]
	if l == nil {
		l = &watcherList{}
		s.fanLists[w.gr] = l
	}
	l.ws = append(l.ws, w)
}

// removeWatcherLocked notes that w, in its resource's list, has ended.
// s.fanMu and s.mu must be held.
func (s *watchCache) removeWatcherLocked(w *watcher) {
	l := s.fanLists[w.gr]
	if l == nil {
		return
	}
	if l.ended++; 2*l.ended > len(l.ws) {
		l.ws = slices.DeleteFunc(slices.Clone(l.ws), func(w *watcher) bool { return w.ended })
		l.ended = 0
	}
}

// bookmarkObject returns a new empty object of the watched kind carrying
// only its type, resourceVersion rv and, at the end of the initial events
// of a watch-list, the [meta.InitialEventsEndAnnotation].
func (w *watcher) bookmarkObject(rv int64, initialEnd bool) meta.Object {
	obj := w.info.New()
	*obj.GetTypeMeta() = meta.TypeMeta{APIVersion: w.info.GroupVersionKind().GroupVersion().String(), Kind: w.info.Kind}
	obj.GetObjectMeta().ResourceVersion = formatRV(rv)
	if initialEnd {
		obj.GetObjectMeta().Annotations = map[string]string{meta.InitialEventsEndAnnotation: "true"}
	}
	return obj
}
