package restaurant

import (
	"context"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/reconcile"
)

// Runner is the 传菜员: shared informers over orders, cooks and dishes,
// made by one [informer.SharedInformerFactory] exactly as a controller of
// your own would make them. It lists and watches the front desk once,
// remembers everything in its caches (orders indexed by table and by
// section, cooks by order), and the controllers' watches
// ([reconcile.For], [reconcile.Owns]) turn what changed into tickets.
type Runner struct {
	Factory *informer.SharedInformerFactory
	Orders  *informer.SharedIndexInformer[*kitchen.Order]
	Cooks   *informer.SharedIndexInformer[*kitchen.Cook]
	Dishes  *informer.SharedIndexInformer[*kitchen.Dish]
}

// NewRunner returns a runner listing and watching api across namespaces
// — the API server in process (*apiserver.Server) or over HTTP
// (*rest.Client) — through one informer factory made with resync (real
// time; 0: none) and opts.
func NewRunner(api client.Interface, resync time.Duration, opts ...informer.FactoryOption) (*Runner, error) {
	f := informer.NewSharedInformerFactory(api, resync, opts...)
	r := &Runner{Factory: f, Orders: informer.InformerFor[*kitchen.Order](f),
		Cooks: informer.InformerFor[*kitchen.Cook](f), Dishes: informer.InformerFor[*kitchen.Dish](f)}
	if err := r.Orders.GetIndexer().AddIndexers(kitchen.OrderIndexers()); err != nil {
		return nil, err
	}
	if err := r.Cooks.GetIndexer().AddIndexers(kitchen.CookIndexers()); err != nil {
		return nil, err
	}
	return r, nil
}

// Start starts the three informers; they run until ctx is done or
// [Runner.Shutdown]. Start them before waiting for their caches, as with
// any factory: [Runner.WaitForCacheSync] waits only for started ones.
func (r *Runner) Start(ctx context.Context) { r.Factory.Start(ctx) }

// Shutdown stops the informers and waits until they have stopped.
func (r *Runner) Shutdown() { r.Factory.Shutdown() }

// WaitForCacheSync waits until the runner has seen everything once, and
// reports whether that happened before ctx ended.
func (r *Runner) WaitForCacheSync(ctx context.Context) bool {
	for _, synced := range r.Factory.WaitForCacheSync(ctx) {
		if !synced {
			return false
		}
	}
	return true
}

// GenerationChangedOrResyncPredicate is the chef's filter on order events: like
// [reconcile.GenerationChangedPredicate] it drops an update that left the
// spec as it was (the chef's own status writes, a finalizer added), so
// that the chef does not wake itself up; unlike it, it lets a resync
// through (old and new at the same resourceVersion), so that
// [Config].Resync does what it says.
type GenerationChangedOrResyncPredicate struct {
	reconcile.GenerationChangedPredicate[*kitchen.Order]
}

// Update passes resyncs and spec changes.
func (p GenerationChangedOrResyncPredicate) Update(e reconcile.UpdateEvent[*kitchen.Order]) bool {
	if e.ObjectOld != nil && e.ObjectNew != nil && e.ObjectOld.ResourceVersion == e.ObjectNew.ResourceVersion {
		return true
	}
	return p.GenerationChangedPredicate.Update(e)
}

// CookPhaseChangedPredicate is the chef's filter on its cooks' events
// (through [reconcile.Owns]): the chef hears of a cook when its phase
// changes or when it is deleted before it was done, not of its own
// creations and edits, nor of the done cooks it tidies away.
type CookPhaseChangedPredicate struct{}

// Create drops a new cook: the chef created it.
func (CookPhaseChangedPredicate) Create(reconcile.CreateEvent[*kitchen.Cook]) bool { return false }

// Update passes a change of phase.
func (CookPhaseChangedPredicate) Update(e reconcile.UpdateEvent[*kitchen.Cook]) bool {
	return e.ObjectOld != nil && e.ObjectNew != nil && e.ObjectOld.Status.Phase != e.ObjectNew.Status.Phase
}

// Delete passes a cook deleted before it was done.
func (CookPhaseChangedPredicate) Delete(e reconcile.DeleteEvent[*kitchen.Cook]) bool {
	return e.Object != nil && e.Object.Status.Phase != kitchen.CookDone
}

// Generic passes nothing.
func (CookPhaseChangedPredicate) Generic(reconcile.GenericEvent[*kitchen.Cook]) bool { return false }
