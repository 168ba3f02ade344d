package lessons

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/reconcile"
)

// WatchExpired cuts the runner off: its watch ends and, while it cannot
// get back, an order is cancelled, another placed, a third amended, and
// the front desk forgets its history (compaction). When the runner comes
// back and asks to watch from where it left off, the answer is 410 Gone
// (Expired): it relists, and the delete it missed reaches the
// controller's handler as a tombstone (DeleteStateUnknown), with the
// last state it knew. The chef reconciles what the relist changed, reading
// the cache, not the events.
//
// It is wired as a controller of your own would be: a
// [informer.SharedInformerFactory] (over a ListerWatcher that can get
// stuck, the lift), [reconcile.For] with a predicate that tells what
// reaches the handler, and the factory's WaitForCacheSync.
func WatchExpired(ctx context.Context, w io.Writer) error {
	w = serialised(w)
	// The reflector backs off in real time before it relists, so in this
	// lesson a kitchen minute lasts a real second.
	clock := kitchen.NewClock(time.Second)
	log := kitchen.NewNarrator(w, clock, kitchen.HandOffs)
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	orders := apiserver.NewClient[*kitchen.Order](srv).Namespace("dinner")
	for i := 1; i <= 3; i++ {
		if _, err := orders.Create(ctx, soup(fmt.Sprintf("order-%d", i), i), apiserver.CreateOptions{}); err != nil {
			return err
		}
	}
	g := &gate{log: log, open: make(chan struct{})}
	close(g.open)
	f := informer.NewSharedInformerFactoryFor(srv.Scheme(), func(gvr apiserver.GroupVersionResource, ns string) informer.ListerWatcher {
		g.lw = srv.Resource(gvr).Namespace(ns)
		return g
	}, 0, informer.WithWatchErrorHandler(func(_ apiserver.GroupVersionResource, err error) {
		if apiserver.IsExpired(err) {
			log.Say("runner", "watch failed: 410 Expired (%v) → relist", err)
			return
		}
		log.Say("runner", "watch failed: %v", err)
	}))
	inf := informer.InformerFor[*kitchen.Order](f)
	gone := make(chan struct{}) // closed when the chef finds order-2 gone
	chef, err := soupChef(inf.Lister(), log, gone)
	if err != nil {
		return err
	}
	if err := reconcile.For(chef, inf, handlerTold(log)); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer f.Shutdown()
	defer cancel()
	f.Start(ctx)
	if !informer.WaitForCacheSync(ctx, inf) {
		return ctx.Err()
	}
	wg.Go(func() { _ = chef.Start(ctx) })

	// A watch that ends within a second of its start without an event
	// looks broken to a reflector (client-go's "very short watch"): it
	// would list again at once instead of watching from where it was.
	// Let this one run a while first, as a real runner's would.
	if err := clock.Sleep(ctx, 2*time.Minute); err != nil {
		return err
	}
	heading(w, "1. The runner is cut off")
	g.close()
	srv.CloseWatches()
	if err := meanwhile(ctx, srv, orders, log); err != nil {
		return err
	}

	heading(w, "2. The runner is back: it watches from its last resourceVersion %s", inf.LastSyncResourceVersion())
	g.reopen()
	select {
	case <-gone:
	case <-ctx.Done():
		return ctx.Err()
	}
	cached := inf.GetIndexer().ListKeys()
	fmt.Fprintf(w, "\n  the runner's memory now: %v (in step with the front desk)\n", cached)
	return nil
}

// soupChef is the lesson's controller: it reads each order it is handed
// from the cache and says what it finds; it closes gone when it finds an
// order gone.
func soupChef(orders *informer.Lister[*kitchen.Order], log *kitchen.Narrator, gone chan struct{}) (*reconcile.Controller, error) {
	return reconcile.NewController("chef", reconcile.ReconcilerFunc(func(_ context.Context, req reconcile.Request) (reconcile.Result, error) {
		o, err := orders.Namespace(req.Namespace).Get(req.Name)
		switch {
		case apiserver.IsNotFound(err):
			log.Say("chef", "%s: not in the cache any more: the table left, nothing to cook", req.Name)
			close(gone)
		case err != nil:
			return reconcile.Result{}, err
		default:
			log.Say("chef", "%s: %d× %s (rv %s)", req.Name, o.Spec.Items[0].Quantity, o.Spec.Items[0].Dish, o.ResourceVersion)
		}
		return reconcile.Result{}, nil
	}), reconcile.Options{})
}

// handlerTold is a predicate that lets every event through and tells
// what reached the controller's handler.
func handlerTold(log *kitchen.Narrator) reconcile.Predicate[*kitchen.Order] {
	return reconcile.Funcs[*kitchen.Order]{
		CreateFunc: func(e reconcile.CreateEvent[*kitchen.Order]) bool {
			log.Say("runner", "OnAdd %s (rv %s, initial list: %v)", e.Object.Name, e.Object.ResourceVersion, e.IsInInitialList)
			return true
		},
		UpdateFunc: func(e reconcile.UpdateEvent[*kitchen.Order]) bool {
			old, o := e.ObjectOld, e.ObjectNew
			if old.ResourceVersion == o.ResourceVersion {
				// client-go does this too: a relist hands every unchanged
				// object over again, so handlers must be idempotent.
				log.Say("runner", "OnUpdate %s (rv %s → %s: unchanged, the relist hands it over again)", o.Name, old.ResourceVersion, o.ResourceVersion)
				return true
			}
			log.Say("runner", "OnUpdate %s (rv %s → %s)", o.Name, old.ResourceVersion, o.ResourceVersion)
			return true
		},
		DeleteFunc: func(e reconcile.DeleteEvent[*kitchen.Order]) bool {
			log.Say("runner", "OnDelete %s (last known rv %s, tombstone: %v)", e.Object.Name, e.Object.ResourceVersion, e.DeleteStateUnknown)
			return true
		},
	}
}

// meanwhile is what happens while the runner is away.
func meanwhile(ctx context.Context, srv *apiserver.Server, orders *apiserver.Client[*kitchen.Order], log *kitchen.Narrator) error {
	if err := orders.Delete(ctx, "order-2", apiserver.DeleteOptions{}); err != nil {
		return err
	}
	log.Say("waiter", "table 2 leaves: order-2 deleted (the runner does not hear of it)")
	if _, err := orders.Create(ctx, soup("order-4", 4), apiserver.CreateOptions{}); err != nil {
		return err
	}
	log.Say("waiter", "table 4 orders: order-4 created")
	o, err := orders.Get(ctx, "order-3", apiserver.GetOptions{})
	if err != nil {
		return err
	}
	o.Spec.Items[0].Quantity = 2
	if _, err := orders.Update(ctx, o, apiserver.UpdateOptions{}); err != nil {
		return err
	}
	log.Say("waiter", "table 3 wants two soups: order-3 updated")
	srv.CompactHistory()
	log.Say("apiserver", "history compacted at rv %s: older resourceVersions are gone", srv.ResourceVersion())
	return nil
}

func soup(name string, table int) *kitchen.Order {
	o := &kitchen.Order{Spec: kitchen.OrderSpec{Table: table, Items: []kitchen.OrderItem{{Dish: "tomato-soup", Quantity: 1}}}}
	o.Name = name
	return o
}

// gate is a ListerWatcher that can keep the runner from watching: the
// runner stuck in the lift.
type gate struct {
	lw  informer.ListerWatcher // set by the factory's ListerWatcherFor
	log *kitchen.Narrator

	mu   sync.Mutex // guards open
	open chan struct{}
}

func (g *gate) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.open = make(chan struct{})
	g.log.Say("runner", "stuck in the lift: cannot reach the front desk")
}

func (g *gate) reopen() {
	g.mu.Lock()
	defer g.mu.Unlock()
	close(g.open)
}

func (g *gate) List(ctx context.Context, opts apiserver.ListOptions) (*apiserver.List, error) {
	l, err := g.lw.List(ctx, opts)
	if err == nil {
		g.log.Say("runner", "LIST orders: %d orders at rv %s", len(l.Items), l.ResourceVersion)
	}
	return l, err
}

func (g *gate) Watch(ctx context.Context, opts apiserver.ListOptions) (apiserver.WatchInterface, error) {
	g.mu.Lock()
	open := g.open
	g.mu.Unlock()
	select {
	case <-open:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	g.log.Say("runner", "WATCH orders from rv %s", opts.ResourceVersion)
	return g.lw.Watch(ctx, opts)
}
