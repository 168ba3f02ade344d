package restaurant

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/store"
	"github.com/kitchensync/kitchensync/workqueue"
)

// wire builds the two controllers and tells them what to watch, as any
// controller is wired: the chef reconciles orders (For) and hears of the
// cooks they own (Owns); the brigade reconciles cooks (For) and hears
// from the stations when one finishes.
func (r *Restaurant) wire(cfg Config, scheme *meta.Scheme) error {
	var err error
	var rail reconcile.PriorityWorkQueue = r.Rail
	if cfg.Queue != nil {
		rail = cfg.Queue(kitchen.RailName, r.Rail)
	}
	fresh := r.freshness()
	r.Chef.Freshness = fresh
	r.chefs, err = reconcile.NewController("chef", r.Chef, reconcile.Options{
		MaxConcurrentReconciles: cfg.Chefs, Tracer: r.Tracer, Freshness: fresh, FreshnessRetry: StaleRetry,
		NewQueue: func(string, workqueue.RateLimiter[reconcile.Request]) reconcile.WorkQueue {
			return rail
		}})
	if err != nil {
		return err
	}
	backoff := workqueue.NewItemExponentialFailureRateLimiter[reconcile.Request](r.Clock.Real(time.Minute/2), r.Clock.Real(10*time.Minute))
	if r.cooks, err = reconcile.NewController("brigade", r.Brigade, reconcile.Options{RateLimiter: backoff, Tracer: r.Tracer,
		NewQueue: r.newCookQueue(cfg.Queue)}); err != nil {
		return err
	}
	orderKind, err := scheme.KindFor(&kitchen.Order{})
	if err != nil {
		return err
	}
	if err := errors.Join(
		reconcile.For(r.chefs, r.Runner.Orders, GenerationChangedOrResyncPredicate{}),
		reconcile.Owns(r.chefs, r.Runner.Cooks, orderKind, CookPhaseChangedPredicate{}),
		reconcile.For(r.cooks, r.Runner.Cooks),
	); err != nil {
		return err
	}
	r.Stations.Notify(func(key string) {
		ns, name, _ := store.SplitMetaNamespaceKey(key)
		r.cooks.Queue().Add(reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: ns, Name: name}})
	})
	return nil
}

// freshness returns what lets the chef read his own writes: a ticket
// whose caches do not show what the chef last wrote for the order waits
// (see kitchen.Chef), a few real milliseconds at a time (StaleRetry): the
// runner catches up in real time, whatever the kitchen's clock (the
// rail's failure backoff counts kitchen minutes, an hour each in some
// lessons).
//
// Only behind the runner's default queue, informer.QueueAtomic, do its
// caches say how far they have caught up. Behind QueueInOrder or
// QueueDeltaFIFO they report no resourceVersion, as client-go's with its
// AtomicFIFO gate off, and a Freshness over them would hold nothing back
// (see reconcile.Freshness, "A cache that cannot tell") while the chef
// trusted his cooks cache: freshness returns nil there, and the chef asks
// the API server before he sends a cook, as he did before Kubernetes 1.36.
func (r *Restaurant) freshness() *reconcile.Freshness {
	if r.Runner.Orders.QueueKind() != informer.QueueAtomic || r.Runner.Cooks.QueueKind() != informer.QueueAtomic {
		return nil
	}
	fresh := reconcile.NewFreshness()
	fresh.Track(kitchen.OrderResource.GroupResource(), r.Runner.Orders.GetIndexer())
	fresh.Track(kitchen.CookResource.GroupResource(), r.Runner.Cooks.GetIndexer())
	return fresh
}

// StaleRetry is how long the chef's controller waits before it tries a
// ticket again that it skipped because the runner's caches lagged the
// chef's own writes: the first step of client-go's default controller
// backoff, in real time.
const StaleRetry = 5 * time.Millisecond

// newCookQueue returns the brigade's NewQueue: the default priority queue
// wrapped by wrap, or nil (the controller's default) without a wrap.
func (r *Restaurant) newCookQueue(wrap func(string, reconcile.PriorityWorkQueue) reconcile.PriorityWorkQueue) func(string, workqueue.RateLimiter[reconcile.Request]) reconcile.WorkQueue {
	if wrap == nil {
		return nil
	}
	return func(name string, rl workqueue.RateLimiter[reconcile.Request]) reconcile.WorkQueue {
		return wrap(name, workqueue.NewPriorityQueue(rl, workqueue.QueueConfig{Name: name, Tracer: r.Tracer}))
	}
}

// writeMenu creates the dishes, checking each first.
func (r *Restaurant) writeMenu(ctx context.Context, api *client.Client[*kitchen.Dish], menu []*kitchen.Dish) error {
	dishes := api.Namespace("")
	written := map[string]bool{}
	for _, d := range menu {
		if err := kitchen.ValidateDish(d); err != nil {
			return err
		}
		_, err := dishes.Create(ctx, meta.DeepCopy(d), meta.CreateOptions{})
		twice := written[d.Name]
		written[d.Name] = true
		switch {
		case meta.IsAlreadyExists(err) && !twice:
			// On the books already: a restaurant opened again on its DataDir.
		case err != nil:
			return fmt.Errorf("menu: %w", err)
		}
	}
	return nil
}
