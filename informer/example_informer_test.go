package informer_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/informer"
)

type order = apiservertest.Widget

// newFrontDesk starts an in-memory API server with the test kinds and
// places orders (widgets standing in for restaurant orders, Size for the
// number of dishes) in the dining room.
func newFrontDesk(tables ...string) (*apiserver.Server, *apiserver.ResourceClient) {
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{})
	orders := srv.Resource(apiservertest.WidgetsResource)
	for i, table := range tables {
		place(orders, table, i+1)
	}
	return srv, orders
}

func place(orders *apiserver.ResourceClient, table string, dishes int) {
	o := apiservertest.NewWidget("dining-room", table)
	o.Spec.Size = dishes
	o.Labels = map[string]string{"section": "window"}
	if strings.HasSuffix(table, "2") {
		o.Labels["section"] = "terrace"
	}
	if _, err := orders.Create(context.Background(), o, apiserver.CreateOptions{}); err != nil {
		panic(err)
	}
}

// run runs inf until the returned stop is called; stop waits until every
// goroutine of the informer has ended.
func run(inf *informer.SharedIndexInformer[*order]) (stop func()) {
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

func (s printingStore) Add(obj apiserver.Object) error {
	s.calls <- "Add " + obj.GetObjectMeta().Name
	return nil
}
func (s printingStore) Update(obj apiserver.Object) error {
	s.calls <- "Update " + obj.GetObjectMeta().Name
	return nil
}
func (s printingStore) Delete(obj apiserver.Object) error {
	s.calls <- "Delete " + obj.GetObjectMeta().Name
	return nil
}
func (s printingStore) Resync() error { return nil }
func (s printingStore) Replace(objs []apiserver.Object, rv string) error {
	var names []string
	for _, o := range objs {
		names = append(names, o.GetObjectMeta().Name)
	}
	s.calls <- fmt.Sprintf("Replace %v", names)
	return nil
}

// A Reflector lists once, then watches from the list's resourceVersion:
// the runner copies every order, then only listens for changes.
func ExampleReflector() {
	srv, orders := newFrontDesk("table-1", "table-2")
	defer srv.CloseWatches()
	store := printingStore{calls: make(chan string)}
	r := informer.NewReflector(orders, store, informer.ReflectorOptions{})

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Run(ctx)
	}()
	fmt.Println("list:", <-store.calls)
	place(orders, "table-3", 5)
	fmt.Println("watch:", <-store.calls)
	cancel()
	<-done
	fmt.Println("caught up:", r.LastSyncResourceVersion() == srv.ResourceVersion())
	// Output:
	// list: Replace [table-1 table-2]
	// watch: Add table-3
	// caught up: true
}

// Two handlers share one informer, and so one cache and one watch. Each
// has its own queue: they see the same changes, each in order.
func ExampleSharedIndexInformer_AddEventHandler() {
	srv, orders := newFrontDesk("table-1", "table-2")
	defer srv.CloseWatches()
	inf := informer.NewSharedIndexInformer[*order](orders, informer.Options[*order]{})

	bell := func(who string, ch chan<- string) informer.ResourceEventHandler[*order] {
		return informer.ResourceEventHandlerFuncs[*order]{
			AddFunc: func(o *order, initial bool) {
				ch <- fmt.Sprintf("%s: new order %s, %d dishes (initial list: %v)", who, o.Name, o.Spec.Size, initial)
			},
			UpdateFunc: func(old, o *order) {
				ch <- fmt.Sprintf("%s: %s now %d dishes (was %d)", who, o.Name, o.Spec.Size, old.Spec.Size)
			},
		}
	}
	chef, cashier := make(chan string, 10), make(chan string, 10)
	chefReg, _ := inf.AddEventHandler(bell("chef", chef))
	cashierReg, _ := inf.AddEventHandler(bell("cashier", cashier))
	stop := run(inf)
	defer stop()
	informer.WaitForCacheSync(context.Background(), chefReg, cashierReg)

	o, _ := orders.Namespace("dining-room").Get(context.Background(), "table-2", apiserver.GetOptions{})
	o.(*order).Spec.Size = 3
	orders.Update(context.Background(), o, apiserver.UpdateOptions{})

	for _, ch := range []chan string{chef, cashier} {
		for range 3 {
			fmt.Println(<-ch)
		}
	}
	fmt.Println("orders in the one shared cache:", len(inf.GetIndexer().List()))
	// Output:
	// chef: new order table-1, 1 dishes (initial list: true)
	// chef: new order table-2, 2 dishes (initial list: true)
	// chef: table-2 now 3 dishes (was 2)
	// cashier: new order table-1, 1 dishes (initial list: true)
	// cashier: new order table-2, 2 dishes (initial list: true)
	// cashier: table-2 now 3 dishes (was 2)
	// orders in the one shared cache: 2
}

// A delete that happens while the informer is cut off, and whose event the
// server has since forgotten (compaction, then 410 Gone), still reaches
// OnDelete after the relist: as a tombstone, finalStateUnknown true, with
// the last state the cache knew.
func ExampleResourceEventHandler_tombstone() {
	srv, orders := newFrontDesk("table-1", "table-2")
	defer srv.CloseWatches()
	// The informer lists, but every watch is refused until we say so.
	srv.FailNext(apiserver.VerbWatch, 1_000_000, apiserver.NewTooManyRequests("busy", 1))
	inf := informer.NewSharedIndexInformer[*order](orders, informer.Options[*order]{
		Backoff:           &informer.Backoff{Initial: 10 * time.Millisecond},
		WatchErrorHandler: func(error) {}, // the 429s and the 410 are expected here
	})
	events := make(chan string, 10)
	reg, _ := inf.AddEventHandler(informer.ResourceEventHandlerFuncs[*order]{
		AddFunc: func(o *order, _ bool) { events <- "add " + o.Name },
		DeleteFunc: func(o *order, finalStateUnknown bool) {
			events <- fmt.Sprintf("delete %s (final state unknown: %v, last known dishes: %d)", o.Name, finalStateUnknown, o.Spec.Size)
		},
	})
	stop := run(inf)
	defer stop()
	<-reg.Synced()
	fmt.Println(<-events)
	fmt.Println(<-events)

	orders.Namespace("dining-room").Delete(context.Background(), "table-2", apiserver.DeleteOptions{})
	srv.CompactHistory()                      // the desk forgets what happened
	srv.FailNext(apiserver.VerbWatch, 0, nil) // the runner reconnects: 410, relist
	fmt.Println(<-events)
	// Output:
	// add table-1
	// add table-2
	// delete table-2 (final state unknown: true, last known dishes: 2)
}

// After a relist the handler hears about every object again: the ones
// that changed while the informer was away as real updates, and the ones
// that did not as OnUpdate(old, new) with the same resourceVersion, as in
// client-go. A handler must tolerate them; comparing resourceVersions
// tells them apart.
func ExampleResourceEventHandler_relist() {
	srv, orders := newFrontDesk("table-1", "table-2")
	defer srv.CloseWatches()
	// The informer lists, but every watch is refused until we say so.
	srv.FailNext(apiserver.VerbWatch, 1_000_000, apiserver.NewTooManyRequests("busy", 1))
	inf := informer.NewSharedIndexInformer[*order](orders, informer.Options[*order]{
		Backoff:           &informer.Backoff{Initial: 10 * time.Millisecond},
		WatchErrorHandler: func(error) {}, // the 429s and the 410 are expected here
	})
	events := make(chan string, 10)
	reg, _ := inf.AddEventHandler(informer.ResourceEventHandlerFuncs[*order]{
		UpdateFunc: func(old, o *order) {
			if old.ResourceVersion == o.ResourceVersion {
				events <- o.Name + ": unchanged, nothing to do"
				return
			}
			events <- fmt.Sprintf("%s: %d dishes (was %d)", o.Name, o.Spec.Size, old.Spec.Size)
		},
	})
	stop := run(inf)
	defer stop()
	<-reg.Synced()

	o, _ := orders.Namespace("dining-room").Get(context.Background(), "table-2", apiserver.GetOptions{})
	o.(*order).Spec.Size = 5
	orders.Update(context.Background(), o, apiserver.UpdateOptions{})
	srv.CompactHistory()                      // the desk forgets what happened
	srv.FailNext(apiserver.VerbWatch, 0, nil) // the runner reconnects: 410, relist
	fmt.Println(<-events)
	fmt.Println(<-events)
	// Output:
	// table-1: unchanged, nothing to do
	// table-2: 5 dishes (was 2)
}

// With a resync period, every cached object is handed to the handler again
// as an update with the same resourceVersion, without asking the server.
func ExampleSharedIndexInformer_AddEventHandlerWithResyncPeriod() {
	srv, orders := newFrontDesk("table-1")
	defer srv.CloseWatches()
	inf := informer.NewSharedIndexInformer[*order](orders, informer.Options[*order]{ResyncPeriod: time.Second})
	resyncs := make(chan string, 10)
	inf.AddEventHandlerWithResyncPeriod(informer.ResourceEventHandlerFuncs[*order]{
		UpdateFunc: func(old, o *order) {
			if old.ResourceVersion == o.ResourceVersion {
				resyncs <- "resync " + o.Name
			}
		},
	}, time.Second) // the shortest allowed
	stop := run(inf)
	defer stop()
	fmt.Println(<-resyncs)
	// Output:
	// resync table-1
}

// A Lister reads the cache, typed, by namespace and label selector; a
// missing object is the server's own NotFound error.
func ExampleLister() {
	srv, orders := newFrontDesk("table-1", "table-2", "table-3")
	defer srv.CloseWatches()
	inf := informer.NewSharedIndexInformer[*order](orders, informer.Options[*order]{Resource: apiservertest.WidgetsResource})
	stop := run(inf)
	defer stop()
	<-inf.Synced()

	window, _ := apiserver.ParseLabelSelector("section=window")
	list, _ := inf.Lister().Namespace("dining-room").List(window)
	for _, o := range list {
		fmt.Println("window:", o.Name)
	}
	_, err := inf.Lister().Namespace("dining-room").Get("table-99")
	fmt.Println(err, apiserver.IsNotFound(err))
	// Output:
	// window: table-1
	// window: table-3
	// widgets.test.kitchensync.io "table-99" not found true
}

// A factory shares one informer per kind: asking twice gives the same one.
func ExampleSharedInformerFactory() {
	srv, _ := newFrontDesk("table-1")
	defer srv.CloseWatches()
	f := informer.NewSharedInformerFactory(srv, 0)
	orders := informer.InformerFor[*order](f)
	fmt.Println("same informer:", orders == informer.InformerFor[*order](f))
	f.Start(context.Background())
	fmt.Println(f.WaitForCacheSync(context.Background()))
	o, _ := orders.Lister().Namespace("dining-room").Get("table-1")
	fmt.Println(o.Name, o.Spec.Size)
	f.Shutdown()
	// Output:
	// same informer: true
	// map[test.kitchensync.io/v1, Resource=widgets:true]
	// table-1 1
}
