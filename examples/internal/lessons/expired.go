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
)

// WatchExpired cuts the runner off: its watch ends and, while it cannot
// get back, an order is cancelled, another placed, a third amended, and
// the front desk forgets its history (compaction). When the runner comes
// back and asks to watch from where it left off, the answer is 410 Gone
// (Expired): it relists, and the delete it missed reaches its handler as
// a tombstone (finalStateUnknown), with the last state it knew.
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
	g := &gate{lw: srv.Resource(kitchen.OrderResource), log: log, open: make(chan struct{})}
	close(g.open)
	tombstone := make(chan struct{})
	inf := informer.NewSharedIndexInformer[*kitchen.Order](g, informer.Options[*kitchen.Order]{
		WatchErrorHandler: func(err error) {
			if apiserver.IsExpired(err) {
				log.Say("runner", "watch failed: 410 Expired (%v) → relist", err)
				return
			}
			log.Say("runner", "watch failed: %v", err)
		}})
	reg, err := inf.AddEventHandler(expiredHandler{log: log, tombstone: tombstone})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	wg.Go(func() { inf.Run(ctx) })
	select {
	case <-reg.Synced(): // the handler has seen the initial list
	case <-ctx.Done():
		return ctx.Err()
	}

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
	case <-tombstone:
	case <-ctx.Done():
		return ctx.Err()
	}
	cached := inf.GetIndexer().ListKeys()
	fmt.Fprintf(w, "\n  the runner's memory now: %v (in step with the front desk)\n", cached)
	return nil
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
	lw  informer.ListerWatcher
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

// expiredHandler narrates what reaches the handler.
type expiredHandler struct {
	log       *kitchen.Narrator
	tombstone chan struct{}
}

func (h expiredHandler) OnAdd(o *kitchen.Order, initial bool) {
	h.log.Say("runner", "OnAdd %s (rv %s, initial list: %v)", o.Name, o.ResourceVersion, initial)
}

func (h expiredHandler) OnUpdate(old, o *kitchen.Order) {
	if old.ResourceVersion == o.ResourceVersion {
		// client-go does this too: a relist hands every unchanged object
		// over again, so handlers must be idempotent.
		h.log.Say("runner", "OnUpdate %s (rv %s → %s: unchanged, the relist hands it over again)", o.Name, old.ResourceVersion, o.ResourceVersion)
		return
	}
	h.log.Say("runner", "OnUpdate %s (rv %s → %s)", o.Name, old.ResourceVersion, o.ResourceVersion)
}

func (h expiredHandler) OnDelete(o *kitchen.Order, finalStateUnknown bool) {
	h.log.Say("runner", "OnDelete %s (last known rv %s, tombstone: %v)", o.Name, o.ResourceVersion, finalStateUnknown)
	if finalStateUnknown {
		close(h.tombstone)
	}
}
