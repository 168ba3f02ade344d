package bakery

import (
	"context"
	"fmt"
	"strings"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/reconcile"
)

// Finalizer holds a cancelled order back until the baker has stopped the
// oven and refunded the deposit.
const Finalizer = "bakery.example.com/refund-deposit"

// Shift hands out the bakers on duty: a reconcile takes one for the time it
// works on a cake. [*Staff] is one.
type Shift interface {
	Acquire(ctx context.Context) (string, error)
	Release(name string)
}

// CakeReconciler is the baker (糕点师) working the kitchen (后厨): for one
// order at a time it compares the order's spec (desired) with the tray in
// the kitchen (actual) and does whatever closes the gap, writing a
// checkpoint to the status after each step. Like the story's
// CakeReconciler, but level-triggered all the way: it never asks what
// event woke it up. Its exported fields are set once, before the
// controller starts; Reconcile is safe for concurrent use on different
// orders.
type CakeReconciler struct {
	// Who names the baker in the narration, e.g. "baker" or "baker@east".
	Who     string
	Cakes   *reconcile.Client[*Cake]
	Kitchen *Kitchen
	Till    *Till
	Clock   *Clock
	Journal *Journal
	// Ovens, if set, limits how many cakes are worked on at once,
	// whatever the number of workers (the story's semaphore.NewWeighted(5)).
	Ovens *semaphore.Weighted
	// Shift, if set, makes each cake wait for a baker on duty.
	Shift Shift
	// OvenPool, if set, makes a baker on duty wait for a free oven: a pod
	// pending until a node has room for it.
	OvenPool Shift
	// Brief narrates only the start and the end of each cake.
	Brief bool
	// ErrorWithRequeue reproduces the story's edge-case bug: when the icing
	// fridge is too small it returns RequeueAfter 1h together with an
	// error. See the edge-case scene.
	ErrorWithRequeue bool
}

// Reconcile makes the cake of req match its order. It is idempotent: a
// finished cake whose order has not changed is left alone.
func (b *CakeReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	key := req.String()
	cake, err := b.Cakes.Get(ctx, req.NamespacedName)
	if apiserver.IsNotFound(err) {
		return reconcile.Result{}, nil // gone: the finalizer already did the cleanup
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	if cake.DeletionTimestamp != nil {
		return reconcile.Result{}, b.cancel(ctx, key, cake)
	}
	if reconcile.AddFinalizer(cake, Finalizer) {
		if cake, err = b.Cakes.Update(ctx, cake); err != nil {
			return reconcile.Result{}, err
		}
	}
	// 1. Idempotency (幂等): a finished order that has not changed needs nothing.
	if done(cake) {
		reconcile.LoggerFrom(ctx).Debug("nothing to do", "phase", cake.Status.Phase, "generation", cake.Generation)
		return reconcile.Result{}, nil
	}
	if res, wait, err := b.checkResources(ctx, key, cake); wait {
		return res, err
	}
	from := b.plan(key, cake)
	return b.work(ctx, key, cake, from)
}

// done reports whether cake is finished for its current generation.
func done(c *Cake) bool {
	p := c.Status.Phase
	return (p == PhaseCompleted || p == PhaseFailed) && c.Status.ObservedGeneration == c.Generation
}

// cancel handles a deleted order: stop the oven, throw the cake away,
// refund the deposit, and let the API server delete the order.
func (b *CakeReconciler) cancel(ctx context.Context, key string, cake *Cake) error {
	if !reconcile.ContainsFinalizer(cake, Finalizer) {
		return nil
	}
	stopped := b.Kitchen.Discard(key)
	if to := cake.Annotations[HandedOverAnnotation]; to != "" {
		b.say(key, "handed-over", "%s: handed over to %s → throw away the stale work, no refund", cake.Name, to)
	} else if amount, ok := b.Till.Refund(cake.UID); ok {
		b.say(key, "refunded", "%s: cancelled → %s, refund the ¥%d deposit", cake.Name,
			map[bool]string{true: "stop the oven and discard the cake", false: "nothing in the oven"}[stopped], amount)
	}
	reconcile.RemoveFinalizer(cake, Finalizer)
	_, err := b.Cakes.Update(ctx, cake)
	return err
}

// checkResources refuses, for now or for good, what the kitchen cannot
// make. wait is true when Reconcile should return res and err at once.
func (b *CakeReconciler) checkResources(ctx context.Context, key string, cake *Cake) (res reconcile.Result, wait bool, err error) {
	if t := b.Kitchen.Tray(key); t != nil && t.Done != StepNone {
		return res, false, nil // already started: it had what it needed
	}
	if limit, _ := time.ParseDuration(cake.Spec.Resources.MaxOvenTime); limit > 0 {
		if need := b.Kitchen.bakeTime(cake.Spec); need > limit {
			msg := fmt.Sprintf("needs %s in the oven, more than maxOvenTime %s", FormatShop(need), FormatShop(limit))
			b.say(key, "failed", "%s: %s → Failed", cake.Name, msg)
			return res, true, b.fail(ctx, cake, "OvenTimeExceeded", msg)
		}
	}
	if need, _ := ParseMemory(cake.Spec.Resources.IcingMemory); need > b.Kitchen.IcingMemory() {
		res, err = b.waitForIcing(key, cake, need)
		return res, true, err
	}
	return res, false, nil
}

// fail marks the order Failed for its current generation.
func (b *CakeReconciler) fail(ctx context.Context, cake *Cake, reason, msg string) error {
	cake.Status.Phase = PhaseFailed
	cake.Status.ObservedGeneration = cake.Generation
	apiserver.SetStatusCondition(&cake.Status.Conditions, apiserver.Condition{Type: "Ready", Status: apiserver.ConditionFalse, Reason: reason,
		Message: msg, ObservedGeneration: cake.Generation})
	_, err := b.Cakes.UpdateStatus(ctx, cake)
	return err
}

// waitForIcing is the story's resource check for a cake whose icing does not
// fit in the fridge. The story returns
//
//	return ctrl.Result{RequeueAfter: 1*time.Hour}, fmt.Errorf("糖霜内存不足，需要%dGB", ...)
//
// but controller-runtime (and reconcile.Controller) ignore the Result when
// the error is not nil: the request goes back on the queue through the rate
// limiter — after 5ms, 10ms, 20ms, ... in real controller-runtime — not in
// an hour, and the error counters and logs fill up. Waiting is not an
// error: the correct version returns the RequeueAfter alone.
func (b *CakeReconciler) waitForIcing(key string, cake *Cake, need int64) (reconcile.Result, error) {
	res := reconcile.Result{RequeueAfter: b.Clock.Real(time.Hour)}
	have := b.Kitchen.IcingMemory()
	if b.ErrorWithRequeue {
		b.say(key, "icing-short", "%s: needs %s of icing memory, the fridge has %s → return RequeueAfter 1h AND an error",
			cake.Name, FormatMemory(need), FormatMemory(have))
		return res, fmt.Errorf("糖霜内存不足，需要%s (have %s)", FormatMemory(need), FormatMemory(have))
	}
	b.say(key, "icing-short", "%s: needs %s of icing memory, the fridge has %s → return RequeueAfter 1h, no error",
		cake.Name, FormatMemory(need), FormatMemory(have))
	return res, nil
}

// say narrates as the baker.
func (b *CakeReconciler) say(key, event, format string, args ...any) {
	b.Journal.Say(b.who(), key, event, format, args...)
}

func (b *CakeReconciler) who() string {
	if b.Who == "" {
		return "baker"
	}
	return b.Who
}

// describe writes an order the way the narration does.
func describe(s CakeSpec) string {
	var parts []string
	parts = append(parts, fmt.Sprintf("%s %d\"", s.Flavor, s.Size))
	if s.LayerCount() > 1 {
		parts = append(parts, fmt.Sprintf("%d layers", s.LayerCount()))
	}
	if s.Decoration != "" {
		parts = append(parts, fmt.Sprintf("%q", s.Decoration))
	}
	if len(s.Allergies) > 0 {
		parts = append(parts, "allergies: "+strings.Join(s.Allergies, ","))
	}
	return strings.Join(parts, ", ")
}
