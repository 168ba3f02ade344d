package kitchen

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/reconcile"
)

// statusFor computes the order's status from what the chef found.
// Conditions keep their transition times unless their status changes, so
// that the same kitchen gives the same status.
func (c *Chef) statusFor(order *Order, w *work) OrderStatus {
	st := OrderStatus{ObservedGeneration: order.Generation, Conditions: slices.Clone(order.Status.Conditions)}
	done, started := 0, 0
	for i, it := range order.Spec.Items {
		is := ItemStatus{Dish: it.Dish}
		if ck := w.cooks[i]; ck != nil {
			is.Cook, is.Phase = ck.Name, ck.Status.Phase
		}
		switch is.Phase {
		case CookDone:
			done++
			started++
		case CookCooking:
			started++
		}
		st.Items = append(st.Items, is)
	}
	cond := func(t string, s meta.ConditionStatus, reason, msg string) {
		meta.SetStatusCondition(&st.Conditions, meta.Condition{Type: t, Status: s,
			ObservedGeneration: order.Generation, Reason: reason, Message: msg})
	}
	cond(ConditionAccepted, meta.ConditionTrue, "OnTheMenu", "every dish is on the menu")
	switch {
	case w.short != nil && w.short.Expired:
		cond(ConditionStocked, meta.ConditionFalse, "IngredientsExpired", w.short.Error())
	case w.short != nil:
		cond(ConditionStocked, meta.ConditionFalse, "WaitingForDelivery", w.short.Error())
	default:
		cond(ConditionStocked, meta.ConditionTrue, "InStock", "every ingredient is reserved")
	}
	switch {
	case done == len(order.Spec.Items):
		st.Phase = OrderServed
		if left := c.platedAt(w) - c.Clock.Now(); left > 0 {
			st.Phase = OrderReady
			w.wait = left
		}
		cond(ConditionReady, meta.ConditionTrue, "AllCooked", "every item is at the pass")
	case started > 0:
		st.Phase = OrderCooking
		cond(ConditionReady, meta.ConditionFalse, "Cooking", "some items are still cooking")
	default:
		st.Phase = OrderPending
		cond(ConditionReady, meta.ConditionFalse, "Waiting", "no item has started yet")
	}
	return st
}

// platedAt is when the last item to finish reaches the table: one
// [PlatingTime] after it left the station.
func (c *Chef) platedAt(w *work) time.Duration {
	var last time.Duration
	for _, ck := range w.cooks {
		if at, ok := c.Stations.FinishedAt(keyOf(ck)); ok {
			last = max(last, at)
		}
	}
	return last + PlatingTime
}

// statusEqual reports whether two statuses say the same: field by field
// (a field added to [OrderStatus] belongs here too), with nil and empty
// lists alike, as slices.Equal has them.
func statusEqual(a, b OrderStatus) bool {
	return a.Phase == b.Phase && a.ObservedGeneration == b.ObservedGeneration &&
		slices.EqualFunc(a.Conditions, b.Conditions, conditionEqual) &&
		slices.Equal(a.Items, b.Items)
}

// conditionEqual compares two conditions, their transition times as
// instants (time.Time.Equal): == on a time.Time also compares its
// location and monotonic reading, which say nothing about the order.
func conditionEqual(a, b meta.Condition) bool {
	ta, tb := a.LastTransitionTime, b.LastTransitionTime
	a.LastTransitionTime, b.LastTransitionTime = meta.Time{}, meta.Time{}
	return a == b && ta.Equal(tb.Time)
}

// reject stops whatever was started, marks the order Rejected with the
// reason in the Accepted condition, and lets the order go.
func (c *Chef) reject(ctx context.Context, order *Order, reason, msg string) error {
	if err := c.clearCooks(ctx, order.Namespace, order.Name, "the order is rejected"); err != nil {
		return err
	}
	st := meta.DeepCopy(order).Status
	st.Phase, st.ObservedGeneration = OrderRejected, order.Generation
	meta.SetStatusCondition(&st.Conditions, meta.Condition{Type: ConditionAccepted, Status: meta.ConditionFalse,
		ObservedGeneration: order.Generation, Reason: reason, Message: msg})
	c.log().Say("chef", "%s: rejects the order (%s): %s", keyOf(order), reason, msg)
	order, err := c.writeStatus(ctx, order, st)
	if err != nil {
		return err
	}
	return c.removeFinalizer(ctx, order)
}

// finish tidies up an order in a final phase: its cooks are deleted and
// the finalizer removed, so that a later delete is immediate. Once that is
// done it does nothing (and reads nothing).
func (c *Chef) finish(ctx context.Context, order *Order) error {
	if !reconcile.ContainsFinalizer(order, OrderFinalizer) {
		return nil
	}
	if err := c.clearCooks(ctx, order.Namespace, order.Name, "the order is "+strings.ToLower(string(order.Status.Phase))); err != nil {
		return err
	}
	return c.removeFinalizer(ctx, order)
}

// cancel handles a deleted order: stop its cooks, return what they had
// not yet used, say Cancelled, remove the finalizer. The Cook objects
// stay: once the finalizer is off the order goes, and the API server's
// garbage collector deletes the cooks it owned.
func (c *Chef) cancel(ctx context.Context, order *Order) error {
	if !reconcile.ContainsFinalizer(order, OrderFinalizer) {
		return nil // not ours to hold, or already let go
	}
	c.log().Say("chef", "%s: the table cancelled (deletionTimestamp set): stopping its cooks", keyOf(order))
	list, err := c.cooksAt(ctx, order.Namespace, order.Name)
	if err != nil {
		return err
	}
	for _, ck := range list {
		c.stopCook(ck, "the table cancelled")
	}
	c.stopUncreated(order.Namespace, order.Name)
	if !order.Status.Phase.Final() {
		st := meta.DeepCopy(order).Status
		st.Phase = OrderCancelled
		meta.SetStatusCondition(&st.Conditions, meta.Condition{Type: ConditionReady, Status: meta.ConditionFalse,
			ObservedGeneration: order.Generation, Reason: "Cancelled", Message: "the table cancelled the order"})
		var err error
		if order, err = c.writeStatus(ctx, order, st); err != nil {
			return err
		}
	}
	return c.removeFinalizer(ctx, order)
}

// removeFinalizer lets the order go.
func (c *Chef) removeFinalizer(ctx context.Context, order *Order) error {
	if !reconcile.ContainsFinalizer(order, OrderFinalizer) {
		return nil
	}
	removed := false
	out, err := c.updateOrder(ctx, order, func(o *Order) bool {
		removed = reconcile.RemoveFinalizer(o, OrderFinalizer)
		return removed
	})
	switch {
	case meta.IsNotFound(err):
		// Let go already: this reconcile read a cache that had not seen
		// the order go.
		c.log().Detail("chef", "%s: the order is already gone (my cache was behind)", keyOf(order))
		return nil
	case err != nil || !removed:
		return err
	case out.DeletionTimestamp != nil && len(out.Finalizers) == 0:
		// Told after the write, so that it is told once: the apiserver
		// has deleted the order by now (its lines come first).
		c.log().Say("chef", "%s: removed finalizer %s: nothing held the order any more, so the apiserver deleted it, "+
			"and its garbage collector the cooks it owned", keyOf(order), OrderFinalizer)
	case out.DeletionTimestamp != nil:
		c.log().Say("chef", "%s: removed finalizer %s: other finalizers still hold the order (%v)", keyOf(order), OrderFinalizer, out.Finalizers)
	default:
		c.log().Say("chef", "%s: removed finalizer %s: the order is %s, so deleting it need not wait for the kitchen any more",
			keyOf(order), OrderFinalizer, strings.ToLower(phaseName(out.Status.Phase)))
	}
	return nil
}

// clearCooks stops and deletes every cook of the order ns/name, and
// releases any reservation a cook that never got created still holds.
func (c *Chef) clearCooks(ctx context.Context, ns, name, why string) error {
	list, err := c.cooksAt(ctx, ns, name)
	if err != nil {
		return err
	}
	for _, ck := range list {
		if err := c.dropCook(ctx, ck, why); err != nil {
			return err
		}
	}
	c.stopUncreated(ns, name)
	return nil
}

// stopCooks stops every cook of the order ns/name at its station without
// deleting it, and releases what uncreated cooks reserved. It is for an
// order already gone: its cooks name it as their owner, so the API
// server's garbage collector deletes them, and a chef deleting them too
// would only race it.
func (c *Chef) stopCooks(ctx context.Context, ns, name, why string) error {
	list, err := c.cooksAt(ctx, ns, name)
	if err != nil {
		return err
	}
	for _, ck := range list {
		c.stopCook(ck, why)
	}
	c.stopUncreated(ns, name)
	return nil
}

// cooksAt lists the cooks of the order ns/name from the API server rather
// than the cache: a cook created a moment ago may not be cached yet.
func (c *Chef) cooksAt(ctx context.Context, ns, name string) ([]*Cook, error) {
	list, _, err := c.CookAPI.Namespace(ns).List(ctx, meta.ListOptions{FieldSelector: "spec.order=" + name})
	return list, err
}

// stopUncreated releases what the order ns/name reserved for cooks whose
// Create failed or never happened: the pantry knows them by holder name.
func (c *Chef) stopUncreated(ns, name string) {
	for _, h := range c.Pantry.Holders() {
		if isCookOf(h, ns, name) {
			c.Stations.Stop(h)
		}
	}
}
