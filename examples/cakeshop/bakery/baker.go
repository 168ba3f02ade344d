package bakery

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/reconcile"
)

// Finalizer holds a cancelled order back until the baker has stopped the
// oven and refunded the deposit.
const Finalizer = "bakery.example.com/refund-deposit"

// CakeReconciler is the baker (糕点师) working the kitchen (后厨): for one
// order at a time it compares the order's spec (desired) with the tray in
// the kitchen (actual) and does whatever closes the gap, writing a
// checkpoint to the status after each step. Like the story's
// CakeReconciler, but level-triggered all the way — it never asks what
// event woke it up — and it never waits: each Reconcile starts the next
// step and returns RequeueAfter the step's length, or puts the sponge in
// the oven as a [Bake] and returns, to be woken by the [Oven]'s status
// write. A whole cake takes hours of shop time; no Reconcile takes more
// than a moment of real time, so a worker is never tied up by a bake.
//
// Its exported fields are set once, before the controller starts;
// Reconcile is safe for concurrent use on different orders.
type CakeReconciler struct {
	// Who names the baker in the narration, e.g. "baker" or "baker@east".
	Who   string
	Cakes *reconcile.Client[*Cake]
	// CakeAPI reads an order from the API server itself, when a write
	// based on the ledger meets 409 Conflict (see write).
	CakeAPI *client.Client[*Cake]
	Bakes   *reconcile.Client[*Bake]
	Kitchen *Kitchen
	Till    *Till
	Clock   *Clock
	Journal *Journal
	// Ovens, if set, limits how many cakes are worked on at once,
	// whatever the number of workers (the story's semaphore.NewWeighted(5),
	// taken without blocking).
	Ovens *Staff
	// Shift, if set, makes each cake wait for a baker on duty.
	Shift *Staff
	// OvenPool, if set, makes a baker on duty wait for a free oven: a pod
	// pending until a node has room for it.
	OvenPool *Staff
	// Brief narrates only the start and the end of each cake.
	Brief bool
	// ErrorWithRequeue reproduces the story's edge-case bug: when the icing
	// fridge is too small it returns RequeueAfter 1h together with an
	// error. See the edge-case scene.
	ErrorWithRequeue bool
	// LeadTimes, if set, observes each order's time from the baker's
	// first look to its box (the monitoring scene).
	LeadTimes *LeadTimes

	mu sync.Mutex // guards working and holding
	// working maps each cake being worked on to the generation planned.
	// It is memory only: a new baker (after a power cut) starts empty and
	// resumes from the checkpoint in the status and the tray.
	working map[string]int64
	holding map[string]bool // cakes holding their places, counted in the kitchen
}

// Reconcile makes the cake of req match its order. It is idempotent: a
// finished cake whose order has not changed is left alone.
func (b *CakeReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	key := req.String()
	cake, err := b.Cakes.Get(ctx, req.NamespacedName)
	if meta.IsNotFound(err) {
		b.release(key, true)
		return reconcile.Result{}, nil // gone: the finalizer already did the cleanup
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	if cake.DeletionTimestamp != nil {
		b.release(key, true)
		return reconcile.Result{}, b.cancel(ctx, key, cake)
	}
	if !reconcile.ContainsFinalizer(cake, Finalizer) {
		add := func(c *Cake) { reconcile.AddFinalizer(c, Finalizer) }
		if cake, err = b.write(ctx, cake, false, add); err != nil {
			return reconcile.Result{}, err
		}
	}
	// 1. Idempotency (幂等): a finished order that has not changed needs nothing.
	if done(cake) {
		reconcile.LoggerFrom(ctx).Debug("nothing to do", "phase", cake.Status.Phase, "generation", cake.Generation)
		b.release(key, true) // off any waiting list a stale look put it on
		return reconcile.Result{}, nil
	}
	if res, wait, err := b.checkResources(ctx, key, cake); wait {
		return res, err
	}
	if b.LeadTimes != nil {
		b.LeadTimes.Seen(cake.UID, b.Clock.Now())
	}
	who, ok := b.take(key)
	if !ok {
		return reconcile.Result{}, nil // on a waiting list: woken when a place frees
	}
	if b.starting(key, cake.Generation) {
		b.plan(key, cake)
	}
	res, err := b.work(ctx, who, key, cake)
	if err != nil {
		b.release(key, false) // back to the rack, after the backoff
	}
	return res, err
}

// starting reports whether key is new to this baker at generation g, and
// remembers it.
func (b *CakeReconciler) starting(key string, g int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.working == nil {
		b.working = map[string]int64{}
	}
	if b.working[key] == g {
		return false
	}
	b.working[key] = g
	return true
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
	_, err := b.write(ctx, cake, false, func(c *Cake) { reconcile.RemoveFinalizer(c, Finalizer) })
	if meta.IsNotFound(err) {
		// A stale look at a cake whose finalizer an earlier reconcile
		// already removed: it is gone, the cancellation is done.
		return nil
	}
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

// fail marks the order Failed for its current generation, over whatever
// status it has (see markDone).
func (b *CakeReconciler) fail(ctx context.Context, cake *Cake, reason, msg string) error {
	_, err := b.write(ctx, cake, true, func(c *Cake) {
		c.Status.Phase = PhaseFailed
		c.Status.ObservedGeneration = c.Generation
		meta.SetStatusCondition(&c.Status.Conditions, meta.Condition{Type: "Ready", Status: meta.ConditionFalse, Reason: reason,
			Message: msg, ObservedGeneration: c.Generation})
	})
	return err
}

// write sends edit(cake) to the API server, as an Update or (status) an
// UpdateStatus. The ledger can lag the baker's own last write — a Bake's
// news can wake the baker before the ledger has its last checkpoint — and
// the write then fails with 409 Conflict. If the stored order is still the
// generation being worked on, write applies edit again on top of it, read
// from the API server (RetryOnConflict's live re-read); a real change of
// the order is returned as the conflict, and the request retried.
func (b *CakeReconciler) write(ctx context.Context, cake *Cake, status bool, edit func(*Cake)) (*Cake, error) {
	send := b.Cakes.Update
	if status {
		send = b.Cakes.UpdateStatus
	}
	edit(cake)
	updated, err := send(ctx, cake)
	if !meta.IsConflict(err) || b.CakeAPI == nil {
		return updated, err
	}
	fresh, gerr := b.CakeAPI.Namespace(cake.Namespace).Get(ctx, cake.Name, meta.GetOptions{})
	if gerr != nil || fresh.Generation != cake.Generation {
		return updated, err
	}
	reconcile.LoggerFrom(ctx).Debug("the ledger was behind my own write: write again on the stored order",
		"resourceVersion", fresh.ResourceVersion)
	edit(fresh)
	return send(ctx, fresh)
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
