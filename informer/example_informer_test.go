package informer_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
)

// newServer starts an in-memory API server with the test kinds and
// creates one widget per name in namespace "default", the i-th of size i,
// labelled env=prod (env=staging if its name ends in 2).
func newServer(names ...string) (*apiserver.Server, *apiserver.ResourceClient) {
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{CompactionDropsHistory: true})
	widgets := srv.Resource(apiservertest.WidgetsResource)
	for i, name := range names {
		createWidget(widgets, name, i+1)
	}
	return srv, widgets
}

func createWidget(widgets *apiserver.ResourceClient, name string, size int) {
	w := apiservertest.NewWidget("default", name)
	w.Spec.Size = size
	w.Labels = map[string]string{"env": "prod"}
	if strings.HasSuffix(name, "2") {
		w.Labels["env"] = "staging"
	}
	if _, err := widgets.Create(context.Background(), w, meta.CreateOptions{}); err != nil {
		panic(err)
	}
}

// run runs inf until the returned stop is called; stop waits until every
// goroutine of the informer has ended.
func run(inf *informer.SharedIndexInformer[*apiservertest.Widget]) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		inf.Run(ctx)
	}()
	return func() {
		cancel()
		<-done
	}
}

// printingStore is a ReflectorStore that reports each call on a channel.
type printingStore struct{ calls chan string }

func (s printingStore) Add(obj meta.Object) error {
	s.calls <- "Add " + obj.GetObjectMeta().Name
	return nil
}
func (s printingStore) Update(obj meta.Object) error {
	s.calls <- "Update " + obj.GetObjectMeta().Name
	return nil
}
func (s printingStore) Delete(obj meta.Object) error {
	s.calls <- "Delete " + obj.GetObjectMeta().Name
	return nil
}
func (s printingStore) Resync() error { return nil }
func (s printingStore) Replace(objs []meta.Object, rv string) error {
	var names []string
	for _, o := range objs {
		names = append(names, o.GetObjectMeta().Name)
	}
	s.calls <- fmt.Sprintf("Replace %v", names)
	return nil
}

// A Reflector lists once, then watches from the list's resourceVersion:
// it copies every object once, then only hears about changes.
func ExampleReflector() {
	srv, widgets := newServer("widget-1", "widget-2")
	defer srv.CloseWatches()
	store := printingStore{calls: make(chan string)}
	r := informer.NewReflector(widgets, store, informer.ReflectorOptions{})

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Run(ctx)
	}()
	fmt.Println("list:", <-store.calls)
	createWidget(widgets, "widget-3", 5)
	fmt.Println("watch:", <-store.calls)
	cancel()
	<-done
	fmt.Println("caught up:", r.LastSyncResourceVersion() == srv.ResourceVersion())
	// Output:
	// list: Replace [widget-1 widget-2]
	// watch: Add widget-3
	// caught up: true
}

// Two handlers share one informer, and so one cache and one watch. Each
// has its own queue: they see the same changes, each in order.
func ExampleSharedIndexInformer_AddEventHandler() {
	srv, widgets := newServer("widget-1", "widget-2")
	defer srv.CloseWatches()
	inf := informer.NewSharedIndexInformer[*apiservertest.Widget](widgets, informer.Options[*apiservertest.Widget]{})

	handler := func(who string, ch chan<- string) informer.ResourceEventHandler[*apiservertest.Widget] {
		return informer.ResourceEventHandlerFuncs[*apiservertest.Widget]{
			AddFunc: func(o *apiservertest.Widget, initial bool) {
				ch <- fmt.Sprintf("%s: added %s, size %d (initial list: %v)", who, o.Name, o.Spec.Size, initial)
			},
			UpdateFunc: func(old, o *apiservertest.Widget) {
				ch <- fmt.Sprintf("%s: %s now size %d (was %d)", who, o.Name, o.Spec.Size, old.Spec.Size)
			},
		}
	}
	a, b := make(chan string, 10), make(chan string, 10)
	aReg, _ := inf.AddEventHandler(handler("a", a))
	bReg, _ := inf.AddEventHandler(handler("b", b))
	stop := run(inf)
	defer stop()
	informer.WaitForCacheSync(context.Background(), aReg, bReg)

	o, _ := widgets.Namespace("default").Get(context.Background(), "widget-2", meta.GetOptions{})
	o.(*apiservertest.Widget).Spec.Size = 3
	widgets.Update(context.Background(), o, meta.UpdateOptions{})

	for _, ch := range []chan string{a, b} {
		for range 3 {
			fmt.Println(<-ch)
		}
	}
	fmt.Println("objects in the one shared cache:", len(inf.GetIndexer().List()))
	// Output:
	// a: added widget-1, size 1 (initial list: true)
	// a: added widget-2, size 2 (initial list: true)
	// a: widget-2 now size 3 (was 2)
	// b: added widget-1, size 1 (initial list: true)
	// b: added widget-2, size 2 (initial list: true)
	// b: widget-2 now size 3 (was 2)
	// objects in the one shared cache: 2
}

// A delete that happens while the informer is cut off, and whose event the
// server has since forgotten (compaction, then 410 Gone), still reaches
// OnDelete after the relist: as a tombstone, finalStateUnknown true, with
// the last state the cache knew.
func ExampleResourceEventHandler_tombstone() {
	srv, widgets := newServer("widget-1", "widget-2")
	defer srv.CloseWatches()
	// The informer lists, but every watch is refused until we say so.
	srv.FailNext(apiserver.VerbWatch, 1_000_000, meta.NewTooManyRequests("busy", 1))
	inf := informer.NewSharedIndexInformer[*apiservertest.Widget](widgets, informer.Options[*apiservertest.Widget]{
		Backoff:           &informer.BackoffManager{Initial: 10 * time.Millisecond},
		WatchErrorHandler: func(error) {}, // the 429s and the 410 are expected here
	})
	events := make(chan string, 10)
	reg, _ := inf.AddEventHandler(informer.ResourceEventHandlerFuncs[*apiservertest.Widget]{
		AddFunc: func(o *apiservertest.Widget, _ bool) { events <- "add " + o.Name },
		DeleteFunc: func(o *apiservertest.Widget, finalStateUnknown bool) {
			events <- fmt.Sprintf("delete %s (final state unknown: %v, last known size: %d)", o.Name, finalStateUnknown, o.Spec.Size)
		},
	})
	stop := run(inf)
	defer stop()
	<-reg.Synced()
	fmt.Println(<-events)
	fmt.Println(<-events)

	widgets.Namespace("default").Delete(context.Background(), "widget-2", meta.DeleteOptions{})
	srv.CompactHistory()                      // the server forgets the delete
	srv.FailNext(apiserver.VerbWatch, 0, nil) // the watch comes back: 410, relist
	fmt.Println(<-events)
	// Output:
	// add widget-1
	// add widget-2
	// delete widget-2 (final state unknown: true, last known size: 2)
}

// After a relist the handler hears about every object again: the ones
// that changed while the informer was away as real updates, and the ones
// that did not as OnUpdate(old, new) with the same resourceVersion, as in
// client-go. A handler must tolerate them; comparing resourceVersions
// tells them apart.
func ExampleResourceEventHandler_relist() {
	srv, widgets := newServer("widget-1", "widget-2")
	defer srv.CloseWatches()
	// The informer lists, but every watch is refused until we say so.
	srv.FailNext(apiserver.VerbWatch, 1_000_000, meta.NewTooManyRequests("busy", 1))
	inf := informer.NewSharedIndexInformer[*apiservertest.Widget](widgets, informer.Options[*apiservertest.Widget]{
		Backoff:           &informer.BackoffManager{Initial: 10 * time.Millisecond},
		WatchErrorHandler: func(error) {}, // the 429s and the 410 are expected here
	})
	events := make(chan string, 10)
	reg, _ := inf.AddEventHandler(informer.ResourceEventHandlerFuncs[*apiservertest.Widget]{
		UpdateFunc: func(old, o *apiservertest.Widget) {
			if old.ResourceVersion == o.ResourceVersion {
				events <- o.Name + ": unchanged, nothing to do"
				return
			}
			events <- fmt.Sprintf("%s: size %d (was %d)", o.Name, o.Spec.Size, old.Spec.Size)
		},
	})
	stop := run(inf)
	defer stop()
	<-reg.Synced()

	o, _ := widgets.Namespace("default").Get(context.Background(), "widget-2", meta.GetOptions{})
	o.(*apiservertest.Widget).Spec.Size = 5
	widgets.Update(context.Background(), o, meta.UpdateOptions{})
	srv.CompactHistory()                      // the server forgets the delete
	srv.FailNext(apiserver.VerbWatch, 0, nil) // the watch comes back: 410, relist
	fmt.Println(<-events)
	fmt.Println(<-events)
	// Output:
	// widget-1: unchanged, nothing to do
	// widget-2: size 5 (was 2)
}

// With a resync period, every cached object is handed to the handler again
// as an update with the same resourceVersion, without asking the server.
func ExampleSharedIndexInformer_AddEventHandlerWithResyncPeriod() {
	srv, widgets := newServer("widget-1")
	defer srv.CloseWatches()
	inf := informer.NewSharedIndexInformer[*apiservertest.Widget](widgets, informer.Options[*apiservertest.Widget]{ResyncPeriod: time.Second})
	resyncs := make(chan string, 10)
	inf.AddEventHandlerWithResyncPeriod(informer.ResourceEventHandlerFuncs[*apiservertest.Widget]{
		UpdateFunc: func(old, o *apiservertest.Widget) {
			if old.ResourceVersion == o.ResourceVersion {
				resyncs <- "resync " + o.Name
			}
		},
	}, time.Second) // the shortest allowed
	stop := run(inf)
	defer stop()
	fmt.Println(<-resyncs)
	// Output:
	// resync widget-1
}

// A Lister reads the cache, typed, by namespace and label selector; a
// missing object is the server's own NotFound error.
func ExampleLister() {
	srv, widgets := newServer("widget-1", "widget-2", "widget-3")
	defer srv.CloseWatches()
	inf := informer.NewSharedIndexInformer[*apiservertest.Widget](widgets, informer.Options[*apiservertest.Widget]{Resource: apiservertest.WidgetsResource})
	stop := run(inf)
	defer stop()
	<-inf.Synced()

	prod, _ := meta.ParseLabelSelector("env=prod")
	list, _ := inf.Lister().Namespace("default").List(prod)
	for _, w := range list {
		fmt.Println("prod:", w.Name)
	}
	_, err := inf.Lister().Namespace("default").Get("widget-99")
	fmt.Println(err, meta.IsNotFound(err))
	// Output:
	// prod: widget-1
	// prod: widget-3
	// widgets.test.kitchensync.io "widget-99" not found true
}

// A factory shares one informer per kind: asking twice gives the same one.
func ExampleSharedInformerFactory() {
	srv, _ := newServer("widget-1")
	defer srv.CloseWatches()
	f := informer.NewSharedInformerFactory(srv, 0)
	inf := informer.InformerFor[*apiservertest.Widget](f)
	fmt.Println("same informer:", inf == informer.InformerFor[*apiservertest.Widget](f))
	f.Start(context.Background())
	fmt.Println(f.WaitForCacheSync(context.Background()))
	o, _ := inf.Lister().Namespace("default").Get("widget-1")
	fmt.Println(o.Name, o.Spec.Size)
	f.Shutdown()
	// Output:
	// same informer: true
	// map[test.kitchensync.io/v1, Resource=widgets:true]
	// widget-1 1
}
