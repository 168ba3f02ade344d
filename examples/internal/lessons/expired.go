package lessons

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/kitchentest"
	"github.com/kitchensync/kitchensync/kitchen/narration"
	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/workqueue"
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
	log := narration.New(w, clock, narration.HandOffs)
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{CompactionDropsHistory: true})
	orders := client.New[*kitchen.Order](srv).Namespace("dinner")
	for i := 1; i <= 3; i++ {
		if _, err := orders.Create(ctx, soup(fmt.Sprintf("order-%d", i), i), meta.CreateOptions{}); err != nil {
			return err
		}
	}
	c := conductorFrom(ctx)
	rn, err := newExpiredRunner(srv, log, c)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer rn.wait()
	defer cancel()
	if err := rn.start(ctx); err != nil {
		return err
	}
	// A watch that ends within a second of its start without an event
	// looks broken to a reflector (client-go's "very short watch"): it
	// would list again at once instead of watching from where it was.
	// Let this one run a while first, as a real runner's would.
	if err := clock.Sleep(ctx, 2*time.Minute); err != nil || !c.WaitTurn(ctx) {
		return ctx.Err()
	}
	heading(w, "1. The runner is cut off")
	rn.gate.close()
	srv.CloseWatches()
	if err := meanwhile(ctx, srv, orders, log); err != nil {
		return err
	}
	heading(w, "2. The runner is back: it watches from its last resourceVersion %s", rn.inf.LastSyncResourceVersion())
	rn.gate.openWatches()
	return relisted(ctx, w, clock, c, rn)
}

// relisted waits for the runner to ask for a list after the 410, lets it
// list at minute 4 (a fixed time, whatever the reflector's jittered
// backoff was), and tells the runner's memory once the chef has found
// order-2 gone.
func relisted(ctx context.Context, w io.Writer, clock *kitchen.Clock, c *kitchentest.Conductor, rn *expiredRunner) error {
	select {
	case <-rn.gate.knock:
	case <-ctx.Done():
		return ctx.Err()
	}
	if err := clock.SleepUntil(ctx, 4*time.Minute); err != nil || !c.WaitTurn(ctx) {
		return ctx.Err()
	}
	heading(w, "3. The runner copies the whole board again (a relist)")
	rn.gate.openLists()
	select {
	case <-rn.gone:
	case <-ctx.Done():
		return ctx.Err()
	}
	if !c.WaitTurn(ctx) {
		return ctx.Err()
	}
	fmt.Fprintf(w, "\n  the runner's memory now: %v (in step with the front desk)\n", rn.inf.GetIndexer().ListKeys())
	return nil
}

// expiredRunner is the lesson's runner and chef, wired as any
// controller: an informer from a factory, a controller For its kind.
type expiredRunner struct {
	gate *gate
	f    *informer.SharedInformerFactory
	inf  *informer.SharedIndexInformer[*kitchen.Order]
	chef *reconcile.Controller
	gone chan struct{} // closed when the chef finds order-2 gone
	wg   sync.WaitGroup
}

// newExpiredRunner wires the runner over srv through the lift (g), its
// steps waiting for c's turns (none if c is nil).
func newExpiredRunner(srv *apiserver.Server, log *narration.Narrator, c *kitchentest.Conductor) (*expiredRunner, error) {
	rn := &expiredRunner{gate: newGate(log), gone: make(chan struct{})}
	rn.f = informer.NewSharedInformerFactory(srv, 0, informer.WithListerWatcher(func(gvr meta.GroupVersionResource, lw informer.ListerWatcher) informer.ListerWatcher {
		rn.gate.lw = lw
		return c.ListerWatcher(rn.gate, gvr.Resource)
	}), informer.WithWatchErrorHandler(func(_ meta.GroupVersionResource, err error) {
		if meta.IsExpired(err) {
			log.Say("runner", "watch failed: 410 Expired (%v) → relist", err)
			return
		}
		log.Say("runner", "watch failed: %v", err)
	}))
	rn.inf = informer.InformerFor[*kitchen.Order](rn.f)
	var err error
	if rn.chef, err = soupChef(rn.inf.Lister(), log, rn.gone, c); err != nil {
		return nil, err
	}
	return rn, reconcile.For(rn.chef, rn.inf, handlerTold(log))
}

// start starts the informers, waits for their caches and starts the
// chef, waiting for the waiter's turn before it returns.
func (rn *expiredRunner) start(ctx context.Context) error {
	rn.f.Start(ctx)
	if !informer.WaitForCacheSync(ctx, rn.inf) {
		return ctx.Err()
	}
	rn.wg.Go(func() { _ = rn.chef.Start(ctx) })
	<-rn.chef.Running()
	if !turn(ctx) {
		return ctx.Err()
	}
	return nil
}

// wait stops the informers and waits for them and the chef, once the
// lesson's ctx is done.
func (rn *expiredRunner) wait() {
	rn.f.Shutdown()
	rn.wg.Wait()
}

// soupChef is the lesson's controller: it reads each order it is handed
// from the cache and says what it finds; it closes gone when it finds an
// order gone.
func soupChef(orders *informer.Lister[*kitchen.Order], log *narration.Narrator, gone chan struct{}, c *kitchentest.Conductor) (*reconcile.Controller, error) {
	return reconcile.NewController("chef", reconcile.ReconcilerFunc(func(_ context.Context, req reconcile.Request) (reconcile.Result, error) {
		o, err := orders.Namespace(req.Namespace).Get(req.Name)
		switch {
		case meta.IsNotFound(err):
			log.Say("chef", "%s: not in the cache any more: the table left, nothing to cook", req.Name)
			close(gone)
		case err != nil:
			return reconcile.Result{}, err
		default:
			log.Say("chef", "%s: %d× %s (rv %s)", req.Name, o.Spec.Items[0].Quantity, o.Spec.Items[0].Dish, o.ResourceVersion)
		}
		return reconcile.Result{}, nil
	}), reconcile.Options{
		// Without a conductor, the default queue would do; with one, a
		// queue without priorities keeps the relist's order exact.
		NewQueue: func(name string, rl workqueue.RateLimiter[reconcile.Request]) reconcile.WorkQueue {
			if c == nil {
				return workqueue.NewPriorityQueue(rl, workqueue.QueueConfig{Name: name})
			}
			return c.Queue(name, workqueue.NewRateLimiting(rl, workqueue.QueueConfig{Name: name}))
		}})
}

// handlerTold is a predicate that lets every event through and tells
// what reached the controller's handler.
func handlerTold(log *narration.Narrator) reconcile.Predicate[*kitchen.Order] {
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
func meanwhile(ctx context.Context, srv *apiserver.Server, orders *client.Client[*kitchen.Order], log *narration.Narrator) error {
	if err := orders.Delete(ctx, "order-2", meta.DeleteOptions{}); err != nil {
		return err
	}
	log.Say("waiter", "table 2 leaves: order-2 deleted (the runner does not hear of it)")
	if _, err := orders.Create(ctx, soup("order-4", 4), meta.CreateOptions{}); err != nil {
		return err
	}
	log.Say("waiter", "table 4 orders: order-4 created")
	o, err := orders.Get(ctx, "order-3", meta.GetOptions{})
	if err != nil {
		return err
	}
	o.Spec.Items[0].Quantity = 2
	if _, err := orders.Update(ctx, o, meta.UpdateOptions{}); err != nil {
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

// gate is a ListerWatcher that can keep the runner from the front desk:
// the runner stuck in the lift. While it is closed, watches and lists
// wait; a list knocks first, so that the lesson knows the runner wants
// one.
type gate struct {
	lw  informer.ListerWatcher // set by the factory's WithListerWatcher
	log *narration.Narrator

	mu      sync.Mutex    // guards watches and lists
	watches chan struct{} // closed: watches may go
	lists   chan struct{} // closed: lists may go
	knock   chan struct{} // a list is waiting (buffered)
}

func newGate(log *narration.Narrator) *gate {
	g := &gate{log: log, watches: make(chan struct{}), lists: make(chan struct{}), knock: make(chan struct{}, 1)}
	close(g.watches)
	close(g.lists)
	return g
}

func (g *gate) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.watches, g.lists = make(chan struct{}), make(chan struct{})
	g.log.Say("runner", "stuck in the lift: cannot reach the front desk")
}

func (g *gate) openWatches() {
	g.mu.Lock()
	defer g.mu.Unlock()
	close(g.watches)
}

func (g *gate) openLists() {
	g.mu.Lock()
	defer g.mu.Unlock()
	close(g.lists)
}

// pass waits until the gate lets a list (or a watch) through; a list
// knocks while it waits.
func (g *gate) pass(ctx context.Context, list bool) error {
	g.mu.Lock()
	open := g.watches
	if list {
		open = g.lists
	}
	g.mu.Unlock()
	select {
	case <-open:
		return nil
	default:
	}
	if list {
		select {
		case g.knock <- struct{}{}:
		default:
		}
	}
	select {
	case <-open:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (g *gate) List(ctx context.Context, opts meta.ListOptions) (*meta.List, error) {
	if err := g.pass(ctx, true); err != nil {
		return nil, err
	}
	l, err := g.lw.List(ctx, opts)
	if err == nil {
		g.log.Say("runner", "LIST orders: %d orders at rv %s", len(l.Items), l.ResourceVersion)
	}
	return l, err
}

func (g *gate) Watch(ctx context.Context, opts meta.ListOptions) (meta.WatchInterface, error) {
	if err := g.pass(ctx, false); err != nil {
		return nil, err
	}
	g.log.Say("runner", "WATCH orders from rv %s", opts.ResourceVersion)
	return g.lw.Watch(ctx, opts)
}
