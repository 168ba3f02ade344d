package kitchen

import (
	"context"
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/reconcile"
)

// Runner is the 传菜员: shared informers over orders, cooks and dishes.
// It lists and watches the front desk once, remembers everything in its
// caches (orders indexed by table and by section, cooks by order), and
// tells the kitchen what changed: tickets for the chef on the
// [TicketRail], work for the [Brigade].
//
// Its handlers do what reconcile.For and reconcile.Owns would (with a
// generation-changed predicate on orders), written out so that each
// hand-off can be narrated in order.
type Runner struct {
	Orders *informer.SharedIndexInformer[*Order]
	Cooks  *informer.SharedIndexInformer[*Cook]
	Dishes *informer.SharedIndexInformer[*Dish]
	desk   *deskWatch // what the front desk told of orders
	log    *Narrator
}

// NewRunner returns a runner watching srv across namespaces, with a
// resync period in real time (0: none).
func NewRunner(srv *apiserver.Server, resync time.Duration, log *Narrator) *Runner {
	desk := newDeskWatch(srv.Resource(OrderResource), log)
	return &Runner{
		Orders: informer.NewSharedIndexInformer(desk,
			informer.Options[*Order]{ResyncPeriod: resync, Indexers: OrderIndexers(), Resource: OrderResource}),
		Cooks: informer.NewSharedIndexInformer(&gcWatch{lw: srv.Resource(CookResource), orders: desk},
			informer.Options[*Cook]{ResyncPeriod: resync, Indexers: CookIndexers(), Resource: CookResource}),
		Dishes: informer.NewSharedIndexInformer(srv.Resource(DishResource), informer.Options[*Dish]{Resource: DishResource}),
		desk:   desk,
		log:    log,
	}
}

// Run runs the three informers until ctx is done, then returns once they
// have stopped.
func (r *Runner) Run(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Go(func() { r.Orders.Run(ctx) })
	wg.Go(func() { r.Cooks.Run(ctx) })
	wg.Go(func() { r.Dishes.Run(ctx) })
	wg.Wait()
}

// WaitForCacheSync waits until the runner has seen everything once, and
// reports whether that happened before ctx ended.
func (r *Runner) WaitForCacheSync(ctx context.Context) bool {
	return informer.WaitForCacheSync(ctx, r.Orders, r.Cooks, r.Dishes)
}

// PassTo makes the runner put tickets for changed orders on rail and
// cooks' work on cooks (the brigade's queue).
func (r *Runner) PassTo(rail, cooks reconcile.Queue) error {
	if _, err := r.Orders.AddEventHandler(&orderHandler{rail: rail, log: r.log}); err != nil {
		return err
	}
	_, err := r.Cooks.AddEventHandler(&cookHandler{rail: rail, cooks: cooks, desk: r.desk, log: r.log})
	return err
}

// orderHandler turns order events into tickets.
type orderHandler struct {
	rail reconcile.Queue
	log  *Narrator
}

func (h *orderHandler) OnAdd(o *Order, initial bool) {
	h.log.Say("runner", "sees %s ADDED (rv %s) → ticket", keyOf(o), o.ResourceVersion)
	h.rail.Add(reconcile.RequestFor(o))
}

func (h *orderHandler) OnUpdate(old, o *Order) {
	switch {
	case old.ResourceVersion == o.ResourceVersion:
		// A resync, or a relist that found the order unchanged: client-go
		// tells handlers both as an update with old == new.
		h.log.Say("runner", "resync or relist: hands %s over again (rv %s, unchanged) → ticket", keyOf(o), o.ResourceVersion)
	case old.Generation != o.Generation:
		h.log.Say("runner", "sees %s MODIFIED: generation %d → %d (rv %s) → ticket", keyOf(o), old.Generation, o.Generation, o.ResourceVersion)
	case old.DeletionTimestamp == nil && o.DeletionTimestamp != nil:
		h.log.Say("runner", "sees %s MODIFIED: deletionTimestamp set (rv %s) → ticket", keyOf(o), o.ResourceVersion)
	default:
		h.log.Detail("runner", "sees %s MODIFIED (rv %s): status or metadata only, no ticket", keyOf(o), o.ResourceVersion)
		return
	}
	h.rail.Add(reconcile.RequestFor(o))
}

func (h *orderHandler) OnDelete(o *Order, finalStateUnknown bool) {
	how := ""
	if finalStateUnknown {
		how = " (a tombstone: the delete happened while the watch was down)"
	}
	h.log.Say("runner", "sees %s DELETED (last rv %s)%s → ticket", keyOf(o), o.ResourceVersion, how)
	h.rail.Add(reconcile.RequestFor(o))
}

// cookHandler passes cooks to the brigade and their progress to the chef.
type cookHandler struct {
	rail, cooks reconcile.Queue
	desk        *deskWatch
	log         *Narrator
}

func (h *cookHandler) OnAdd(c *Cook, initial bool) {
	h.cooks.Add(reconcile.RequestFor(c))
}

func (h *cookHandler) OnUpdate(old, c *Cook) {
	h.cooks.Add(reconcile.RequestFor(c))
	if old.Status.Phase != c.Status.Phase {
		h.log.Say("runner", "sees cook %s %s (rv %s) → ticket for its order", keyOf(c), c.Status.Phase, c.ResourceVersion)
		h.toOwner(c)
	}
}

func (h *cookHandler) OnDelete(c *Cook, finalStateUnknown bool) {
	h.cooks.Add(reconcile.RequestFor(c))
	// Garbage-collected: the order's own DELETED brings its ticket, and
	// the chef stopped the cook before it let the order go.
	if h.desk.ifCollected(c, func(owner string) {
		h.log.Detail("runner", "sees cook %s DELETED (its order %s is gone: no ticket)", keyOf(c), owner)
	}) {
		return
	}
	if c.Status.Phase != CookDone { // a done cook is the chef's own tidying up
		h.log.Say("runner", "sees cook %s DELETED → ticket for its order", keyOf(c))
		h.toOwner(c)
	}
}

// toOwner tickets the order that controls the cook, as reconcile.Owns does.
func (h *cookHandler) toOwner(c *Cook) {
	if ref := apiserver.GetControllerOf(c); ref != nil && ref.Kind == "Order" {
		h.rail.Add(reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: c.Namespace, Name: ref.Name}})
	}
}
