package kitchen

import (
	"context"
	"fmt"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/reconcile"
)

// OrderFinalizer is the finalizer the chef puts on every order it works,
// so that a cancelled order (a delete) waits until its cooks are stopped
// and its unused ingredients are back in the pantry.
const OrderFinalizer = "menu.example.com/chef"

// CookOrderIndex is the name of the cooks cache's index by owning order
// ("namespace/order").
const CookOrderIndex = "order"

// PlatingTime is how long, in kitchen time, plates wait at the pass
// before they reach the table (Ready → Served).
const PlatingTime = time.Minute

// ExpiredWait is how long the chef waits when an ingredient went off —
// the story's "ingredients expired → RequeueAfter 5 minutes".
const ExpiredWait = 5 * time.Minute

// Cache is what the chef reads instead of the API server: the runner's
// memory. *store.Indexer[T] (an informer's GetIndexer) satisfies it.
type Cache[T meta.Object] interface {
	GetByKey(key string) (T, bool, error)
	ByIndex(indexName, indexedValue string) ([]T, error)
}

// Chef is the 主厨: the [reconcile.Reconciler] of orders. For each ticket
// it reads the order from the runner's cache, compares what the table
// asked for with what the kitchen is actually doing (the cooks, the
// stations, the pantry) and closes the gap:
//
//   - a new order: check the menu (else Rejected, with the reason in the
//     Accepted condition), put the finalizer on, reserve the ingredients
//     and create one [Cook] per item;
//   - an amended order: a changed dish or quantity restarts that item
//     only; added or removed extras are taken from or put back in the
//     pantry and handed to the cook without restarting it;
//   - every cook done: Ready, then Served one [PlatingTime] later;
//   - a cancelled order (deletionTimestamp set): stop the cooks, return
//     unused ingredients, mark it Cancelled and remove the finalizer; the
//     API server's garbage collector then deletes the Cook objects with
//     the order (the chef deletes a cook itself only to replace it).
//
// Reconcile is idempotent: with nothing changed it writes nothing. Status
// is written through the status subresource with
// [client.RetryOnConflict]. Set every field before use (Log and Recorder
// may stay nil); a Chef is safe for concurrent use by several workers
// (never two on one order).
type Chef struct {
	Orders Cache[*Order]
	Cooks  Cache[*Cook] // with the index CookOrderIndex
	Dishes Cache[*Dish]
	// OrderAPI and CookAPI reach the API server for orders and cooks, in
	// process or over HTTP (see [client.New]).
	OrderAPI *client.Client[*Order]
	CookAPI  *client.Client[*Cook]
	Stations *Stations
	Pantry   *Pantry
	Clock    *Clock
	Log      Logger // nil: tells nobody
	// Recorder, when set, takes the chef's notes on each order (a change
	// of phase, a rejection) as Events.
	Recorder EventRecorder
	// Freshness, when set, hears the resourceVersion of each order and
	// cook the chef writes for an order ([reconcile.Freshness.WroteAt]):
	// give the same one to the chef's controller
	// ([reconcile.Options].Freshness), tracking the Orders and Cooks
	// caches, and the controller skips a ticket whose caches do not show
	// the chef's last writes yet — kube-controller-manager's staleness
	// mitigation. The chef then trusts its cooks cache before creating a
	// cook; without Freshness it asks the API server first (a LIST), as
	// it cannot know whether its cache has its last creations. Set it
	// only over caches that report a resourceVersion (an informer behind
	// informer.QueueAtomic): over others Freshness holds nothing back,
	// and the chef would trust a cache that may lag.
	Freshness *reconcile.Freshness
}

// Reconcile brings one order's kitchen in line with the order.
func (c *Chef) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	order, ok, err := c.Orders.GetByKey(req.String())
	switch {
	case err != nil:
		return reconcile.Result{}, err
	case !ok:
		// Gone without our finalizer (or after it): settle the stations.
		// The Cook objects are the garbage collector's: they name the
		// order as their owner.
		return reconcile.Result{}, c.stopCooks(ctx, req.Namespace, req.Name, "the order is gone")
	case order.DeletionTimestamp != nil:
		return reconcile.Result{}, c.cancel(ctx, order)
	case order.Status.Phase.Final():
		return reconcile.Result{}, c.finish(ctx, order)
	}
	c.log().Say("chef", "%s: compares order (generation %d, rv %s) with the kitchen", req, order.Generation, order.ResourceVersion)
	menu, reason, msg := c.readMenu(order)
	if reason != "" {
		return reconcile.Result{}, c.reject(ctx, order, reason, msg)
	}
	if order, err = c.ensureFinalizer(ctx, order); err != nil {
		return reconcile.Result{}, err
	}
	if order.Status.Phase.Final() || order.DeletionTimestamp != nil {
		// Our cache was behind: the order moved on meanwhile (served, or
		// cancelled). The runner will bring the news; act on it then.
		c.log().Say("chef", "%s: the cache was behind (the order is now rv %s, %s); nothing to do", req,
			order.ResourceVersion, phaseName(order.Status.Phase))
		return reconcile.Result{}, nil
	}
	k, err := c.workItems(ctx, order, menu)
	if err != nil {
		return reconcile.Result{}, err
	}
	if k.outOfStock != nil {
		return reconcile.Result{}, c.reject(ctx, order, "OutOfStock", k.outOfStock.Error())
	}
	status := c.statusFor(order, k)
	if order, err = c.writeStatus(ctx, order, status); err != nil {
		return reconcile.Result{}, err
	}
	switch {
	case status.Phase == OrderServed:
		return reconcile.Result{}, c.finish(ctx, order)
	case k.wait > 0: // plating, or waiting for stock
		return reconcile.Result{RequeueAfter: c.Clock.Real(k.wait)}, nil
	}
	return reconcile.Result{}, nil
}

// readMenu finds each item's dish, or the reason to reject the order.
func (c *Chef) readMenu(order *Order) (menu []*Dish, reason, msg string) {
	for i, it := range order.Spec.Items {
		d, ok, err := c.Dishes.GetByKey(it.Dish)
		if err != nil || !ok {
			return nil, "DishNotOnMenu", fmt.Sprintf("spec.items[%d]: %q is not on the menu", i, it.Dish)
		}
		if _, err := Need(d, it); err != nil {
			return nil, "UnknownExtra", fmt.Sprintf("spec.items[%d]: %v", i, err)
		}
		if st := stationOf(d); !c.Stations.Has(st) {
			return nil, "NoSuchStation", fmt.Sprintf("spec.items[%d]: %s is cooked at the %s, and this kitchen has none", i, it.Dish, st)
		}
		menu = append(menu, d)
	}
	return menu, "", ""
}

// ensureFinalizer puts the chef's finalizer on the order, so that a
// cancellation waits for the clean-up, and returns the stored order.
func (c *Chef) ensureFinalizer(ctx context.Context, order *Order) (*Order, error) {
	if reconcile.ContainsFinalizer(order, OrderFinalizer) {
		return order, nil
	}
	added := false
	out, err := c.updateOrder(ctx, order, func(o *Order) bool {
		if o.Status.Phase.Final() || o.DeletionTimestamp != nil {
			return false // a stale cache: see Reconcile
		}
		added = reconcile.AddFinalizer(o, OrderFinalizer)
		return added
	})
	if err == nil && added {
		c.log().Say("chef", "%s: finalizer %s added (rv %s)", keyOf(order), OrderFinalizer, out.ResourceVersion)
	}
	return out, err
}

// updateOrder applies change to the order and writes it, re-reading the
// order from the API server after a conflict (the cache may lag).
func (c *Chef) updateOrder(ctx context.Context, order *Order, change func(*Order) bool) (*Order, error) {
	api := c.OrderAPI.Namespace(order.Namespace)
	cur, first := meta.DeepCopy(order), true
	var out *Order
	err := client.RetryOnConflict(conflictRetry, func() error {
		var err error
		if !first { // a retry: read the latest
			if cur, err = api.Get(ctx, order.Name, meta.GetOptions{}); err != nil {
				return err
			}
			c.log().Say("chef", "%s: 409 Conflict, the cache was behind (rv %s); read rv %s and retry", keyOf(order),
				order.ResourceVersion, cur.ResourceVersion)
		}
		first = false
		if !change(cur) {
			out = cur
			return nil
		}
		out, err = api.Update(ctx, cur, meta.UpdateOptions{})
		return err
	})
	if err == nil {
		err = c.wrote(order.Namespace, order.Name, OrderResource.GroupResource(), out)
	}
	return out, err
}

// wrote tells Freshness (if any) that the chef stored obj, of resource
// gr, on behalf of the order ns/order.
func (c *Chef) wrote(ns, order string, gr meta.GroupResource, obj meta.Object) error {
	if c.Freshness == nil {
		return nil
	}
	owner := reconcile.NamespacedName{Namespace: ns, Name: order}
	return c.Freshness.WroteAt(owner, gr, obj.GetObjectMeta().ResourceVersion)
}

// writeStatus stores status unless the order already has it, retrying on
// conflicts with a fresh read, and returns the order as stored.
func (c *Chef) writeStatus(ctx context.Context, order *Order, status OrderStatus) (*Order, error) {
	if statusEqual(order.Status, status) {
		return order, nil // idempotent: nothing to say
	}
	api := c.OrderAPI.Namespace(order.Namespace)
	cur := meta.DeepCopy(order)
	first, from := true, order.Status.Phase
	var stored *Order
	err := client.RetryOnConflict(conflictRetry, func() error {
		if !first {
			var err error
			if cur, err = api.Get(ctx, order.Name, meta.GetOptions{}); err != nil {
				return err
			}
			c.log().Say("chef", "%s: 409 Conflict writing the status, the cache was behind (rv %s); read rv %s and retry",
				keyOf(order), order.ResourceVersion, cur.ResourceVersion)
			if cur.Generation != order.Generation || (cur.Status.Phase.Final() && !status.Phase.Final()) {
				// Computed from a stale view: a newer spec or an ending we
				// did not see. Leave it; the event for it is on its way.
				stored = cur
				return nil
			}
			if statusEqual(cur.Status, status) {
				c.log().Say("chef", "%s: the status is already %s (rv %s): an earlier reconcile wrote it, my cache was behind; nothing to write",
					keyOf(order), status.Phase, cur.ResourceVersion)
				stored, from = cur, status.Phase
				return nil
			}
			from = cur.Status.Phase
		}
		first = false
		cur.Status = status
		var err error
		stored, err = api.UpdateStatus(ctx, cur, meta.UpdateOptions{})
		return err
	})
	if meta.IsNotFound(err) {
		return order, nil // gone meanwhile: our cache was behind
	}
	if err == nil {
		err = c.wrote(order.Namespace, order.Name, OrderResource.GroupResource(), stored)
	}
	if err == nil && stored.Status.Phase == status.Phase && from != status.Phase {
		c.log().Say("chef", "%s: status %s → %s (rv %s)", keyOf(order), phaseName(from), status.Phase, stored.ResourceVersion)
		c.note(stored, from)
	}
	return stored, err
}

func (c *Chef) log() Logger { return orSilent(c.Log) }

func phaseName(p OrderPhase) string {
	if p == "" {
		return "(new)"
	}
	return string(p)
}

// keyOf returns "namespace/name".
func keyOf(obj meta.Object) string {
	return reconcile.NamespacedNameOf(obj).String()
}

// conflictRetry retries a write that hit a 409 Conflict at once, after a
// fresh read, up to five times. client-go's retry.DefaultRetry waits about
// 10ms between tries; in a kitchen whose minute lasts a few milliseconds
// that would be two kitchen minutes of standing still, and it would make
// a service's timing depend on how often writes happened to collide.
var conflictRetry = client.Backoff{Steps: 5}
