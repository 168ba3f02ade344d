package informer

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/store"
)

// stepWatch is a watch whose events the test sends one at a time.
type stepWatch struct {
	ch   chan meta.Event
	once sync.Once
}

func (w *stepWatch) ResultChan() <-chan meta.Event { return w.ch }
func (w *stepWatch) Stop()                         { w.once.Do(func() {}) }

// steppedLW answers lists from a queue and hands each watch to the test.
type steppedLW struct {
	lists   chan *meta.List
	watches chan *stepWatch
}

func newSteppedLW() *steppedLW {
	return &steppedLW{lists: make(chan *meta.List, 4), watches: make(chan *stepWatch, 4)}
}

func (lw *steppedLW) List(ctx context.Context, _ meta.ListOptions) (*meta.List, error) {
	select {
	case l := <-lw.lists:
		return l, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (lw *steppedLW) Watch(context.Context, meta.ListOptions) (meta.WatchInterface, error) {
	w := &stepWatch{ch: make(chan meta.Event)}
	lw.watches <- w
	return w, nil
}

// listAt is a list read at rv of objects given as name@rv pairs.
func listAt(rv string, objs ...*widget) *meta.List {
	l := &meta.List{ListMeta: meta.ListMeta{ResourceVersion: rv}}
	for _, o := range objs {
		l.Items = append(l.Items, o)
	}
	return l
}

// queueStep is one step of TestQueueKindsStepByStep: what happens, then
// what the handler is told and the cache's resourceVersion, per kind.
type queueStep struct {
	name   string
	do     func(lw *steppedLW, w *stepWatch)
	events map[QueueKind][]string // nil entry: same as QueueAtomic
	rv     string                 // QueueAtomic's; the others stay ""
}

// TestQueueKindsStepByStep drives an informer of each queue kind through
// the same list, watch events, a bookmark, a delete of a key it never
// had, and a relist after 410, and checks after every step what its
// handler was told and what the cache's LastStoreSyncResourceVersion
// says. It pins the differences between client-go v0.37's atomic FIFO
// (the default), the in-order FIFO of client-go 1.33–1.35 and the
// classic DeltaFIFO.
func TestQueueKindsStepByStep(t *testing.T) {
	send := func(typ meta.EventType, name, rv string) func(*steppedLW, *stepWatch) {
		return func(_ *steppedLW, w *stepWatch) { w.ch <- event(typ, name, rv) }
	}
	steps := []queueStep{
		{name: "first list at 10", do: func(lw *steppedLW, _ *stepWatch) {
			lw.lists <- listAt("10", newWidgetAt("a", "5"), newWidgetAt("b", "6"))
		}, events: map[QueueKind][]string{QueueAtomic: {"add a@5 initial=true", "add b@6 initial=true"}}, rv: "10"},
		{name: "watch: c added at 11", do: send(meta.EventAdded, "c", "11"),
			events: map[QueueKind][]string{QueueAtomic: {"add c@11 initial=false"}}, rv: "11"},
		{name: "watch: a updated at 12", do: send(meta.EventModified, "a", "12"),
			events: map[QueueKind][]string{QueueAtomic: {"update a@5->12"}}, rv: "12"},
		{name: "watch: bookmark at 15", do: send(meta.EventBookmark, "", "15"),
			events: map[QueueKind][]string{QueueAtomic: nil}, rv: "15"},
		// A delete of a key the informer never had: a RealFIFO queues
		// every event and the informer tells it, as client-go does; a
		// DeltaFIFO drops a delete of a key neither cached nor queued.
		{name: "watch: never-seen z deleted at 16", do: send(meta.EventDeleted, "z", "16"),
			events: map[QueueKind][]string{QueueAtomic: {"delete z@16 unknown=false"}, QueueDeltaFIFO: nil}, rv: "16"},
		{name: "watch: b deleted at 17", do: send(meta.EventDeleted, "b", "17"),
			events: map[QueueKind][]string{QueueAtomic: {"delete b@17 unknown=false"}}, rv: "17"},
		{name: "watch: e added at 18", do: send(meta.EventAdded, "e", "18"),
			events: map[QueueKind][]string{QueueAtomic: {"add e@18 initial=false"}}, rv: "18"},
		// 410, then a relist at 30 that lacks e (deleted while away),
		// has a unchanged, c changed and d new. The RealFIFOs tell the
		// tombstone first, the DeltaFIFO last.
		{name: "410 and a relist at 30", do: func(lw *steppedLW, w *stepWatch) {
			lw.lists <- listAt("30", newWidgetAt("a", "12"), newWidgetAt("c", "25"), newWidgetAt("d", "26"))
			w.ch <- errorEvent(meta.NewResourceExpired("too old resource version"))
		}, events: map[QueueKind][]string{
			QueueAtomic:    {"delete e@18 unknown=true", "update a@12->12", "update c@11->25", "add d@26 initial=false"},
			QueueDeltaFIFO: {"update a@12->12", "update c@11->25", "add d@26 initial=false", "delete e@18 unknown=true"},
		}, rv: "30"},
		{name: "watch after the relist: d updated at 31", do: send(meta.EventModified, "d", "31"),
			events: map[QueueKind][]string{QueueAtomic: {"update d@26->31"}}, rv: "31"},
	}
	for _, kind := range []QueueKind{QueueAtomic, QueueInOrder, QueueDeltaFIFO} {
		t.Run(kind.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) { runQueueSteps(t, kind, steps) })
		})
	}
}

func runQueueSteps(t *testing.T, kind QueueKind, steps []queueStep) {
	lw := newSteppedLW()
	inf := NewSharedIndexInformer[*widget](lw, Options[*widget]{Queue: kind, WatchErrorHandler: func(error) {}})
	rec := &recorder{}
	if _, err := inf.AddEventHandler(rec); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go inf.Run(ctx)
	var w *stepWatch
	for _, s := range steps {
		s.do(lw, w)
		time.Sleep(time.Minute) // past the backoff before a relist
		synctest.Wait()
		select {
		case w = <-lw.watches:
		default:
		}
		want, ok := s.events[kind]
		if !ok {
			want = s.events[QueueAtomic]
		}
		diffEvents(t, s.name, want, rec.take())
		wantRV := ""
		if kind == QueueAtomic {
			wantRV = s.rv
		}
		if got := inf.GetIndexer().LastStoreSyncResourceVersion(); got != wantRV {
			t.Errorf("%s: LastStoreSyncResourceVersion() = %q, want %q", s.name, got, wantRV)
		}
		if !inf.HasSynced() {
			t.Errorf("%s: not synced", s.name)
		}
	}
	if diff := cmp.Diff([]string{"a@12", "c@25", "d@31"}, cachedNamesOf(inf)); diff != "" {
		t.Errorf("cache (-want +got):\n%s", diff)
	}
}

func cachedNamesOf(inf *SharedIndexInformer[*widget]) []string {
	var names []string
	for _, w := range inf.GetIndexer().List() {
		names = append(names, w.Name+"@"+w.ResourceVersion)
	}
	return names
}

// Behind the atomic queue a relist reaches the cache in one step, before
// any handler hears of it: each call finds the whole new list cached and
// the vanished object gone, and a reader never sees half a relist.
func TestAtomicRelistIsCachedBeforeHandlersHear(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lw := newSteppedLW()
		inf := NewSharedIndexInformer[*widget](lw, Options[*widget]{WatchErrorHandler: func(error) {}})
		var mu sync.Mutex
		var seen []string
		_, err := inf.AddEventHandler(ResourceEventHandlerFuncs[*widget]{
			UpdateFunc: func(_, w *widget) {
				mu.Lock()
				defer mu.Unlock()
				seen = append(seen, w.Name+" sees "+strings.Join(cachedNamesOf(inf), " "))
			},
			DeleteFunc: func(w *widget, _ bool) {
				mu.Lock()
				defer mu.Unlock()
				seen = append(seen, w.Name+" sees "+strings.Join(cachedNamesOf(inf), " "))
			},
		})
		mustDo(t, err)
		go inf.Run(t.Context())
		lw.lists <- listAt("10", newWidgetAt("a", "5"), newWidgetAt("b", "6"), newWidgetAt("c", "7"))
		synctest.Wait()
		w := <-lw.watches
		lw.lists <- listAt("20", newWidgetAt("a", "15"), newWidgetAt("c", "16"), newWidgetAt("d", "17"))
		w.ch <- errorEvent(meta.NewResourceExpired("too old resource version"))
		time.Sleep(time.Minute)
		synctest.Wait()
		want := []string{"b sees a@15 c@16 d@17", "a sees a@15 c@16 d@17", "c sees a@15 c@16 d@17"}
		mu.Lock()
		defer mu.Unlock()
		if diff := cmp.Diff(want, seen); diff != "" {
			t.Errorf("what each relist call found cached (-want +got):\n%s", diff)
		}
	})
}

// A list is applied whole or not at all behind the atomic queue: an index
// function that refuses one object leaves the cache as it was (the error
// goes to the WatchErrorHandler), where a DeltaFIFO caches the others.
func TestAtomicListRefusedWhole(t *testing.T) {
	for _, tt := range []struct {
		kind QueueKind
		want []string
	}{{QueueAtomic, nil}, {QueueDeltaFIFO, []string{"a@5"}}} {
		t.Run(tt.kind.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				lw := newSteppedLW()
				var errs []error
				refuseBad := func(w *widget) ([]string, error) {
					if w.Name == "bad" {
						return nil, errors.New("refused")
					}
					return nil, nil
				}
				inf := NewSharedIndexInformer[*widget](lw, Options[*widget]{Queue: tt.kind,
					Indexers: store.Indexers[*widget]{"refuse": refuseBad}, WatchErrorHandler: func(err error) { errs = append(errs, err) }})
				go inf.Run(t.Context())
				lw.lists <- listAt("10", newWidgetAt("a", "5"), newWidgetAt("bad", "6"))
				synctest.Wait()
				if diff := cmp.Diff(tt.want, cachedNamesOf(inf)); diff != "" {
					t.Errorf("cache (-want +got):\n%s", diff)
				}
				if len(errs) != 1 {
					t.Errorf("errors reported: %v, want one", errs)
				}
			})
		})
	}
}
