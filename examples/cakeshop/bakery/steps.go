package bakery

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/reconcile"
)

// plan compares the order (desired) with the tray (actual) and returns the
// last step that is already done, after undoing whatever no longer fits:
// a sponge of the wrong flavor, size or layers is thrown away (rebake); a
// wrong decoration is scraped off (adjust the decoration only). The
// generation tells a modified order from an interrupted one.
func (b *CakeReconciler) plan(key string, cake *Cake) Step {
	tray, st, spec := b.Kitchen.Tray(key), cake.Status, cake.Spec
	modified := st.ObservedGeneration != 0 && st.ObservedGeneration != cake.Generation
	switch {
	case tray == nil && st.Checkpoint == StepNone:
		b.say(key, "new", "%s: new order (%s) → prepare ingredients, bake", cake.Name, describe(spec))
		return StepNone
	case tray == nil:
		b.say(key, "start-over", "%s: checkpoint says %q but the tray is gone → start over", cake.Name, st.Checkpoint)
		return StepNone
	case !tray.matches(spec):
		b.say(key, "rebake", "%s: generation %d changed %s → throw the old sponge away, rebake",
			cake.Name, cake.Generation, spongeDiff(tray, spec))
		b.Kitchen.Discard(key)
		return StepNone
	case modified && stepIndex(tray.Done) >= stepIndex(StepDecoration) && tray.Decoration != spec.Decoration:
		b.say(key, "redecorate", "%s: generation %d changed only the decoration %q → %q → keep the sponge, redo the decoration",
			cake.Name, cake.Generation, tray.Decoration, spec.Decoration)
		b.Kitchen.scrapeDecoration(key)
		return StepFrosting
	case modified:
		b.say(key, "carry-on", "%s: generation %d changes nothing already made → carry on", cake.Name, cake.Generation)
	case st.Checkpoint != StepNone && st.Checkpoint != StepBoxed:
		b.say(key, "resume", "%s: resume after checkpoint %q (the tray agrees: %q) — no starting over",
			cake.Name, st.Checkpoint, tray.Done)
	}
	return tray.Done
}

// spongeDiff names the fields of the sponge that differ, "flavor vanilla → matcha".
func spongeDiff(t *Tray, s CakeSpec) string {
	var d []string
	if t.Flavor != s.Flavor {
		d = append(d, fmt.Sprintf("flavor %s → %s", t.Flavor, s.Flavor))
	}
	if t.Size != s.Size {
		d = append(d, fmt.Sprintf("size %d\" → %d\"", t.Size, s.Size))
	}
	if t.Layers != s.LayerCount() {
		d = append(d, fmt.Sprintf("layers %d → %d", t.Layers, s.LayerCount()))
	}
	return strings.Join(d, ", ")
}

// work does the steps after from, one at a time, writing a checkpoint
// after each. It holds an oven (the semaphore) and a baker on duty (the
// shift) for as long as it works.
func (b *CakeReconciler) work(ctx context.Context, key string, cake *Cake, from Step) (reconcile.Result, error) {
	who, release, err := b.take(ctx)
	if err != nil {
		return reconcile.Result{}, err
	}
	defer release()
	for _, step := range Steps[stepIndex(from)+1:] {
		if step == StepDecoration {
			if res, wait, err := b.waitForDecorator(ctx, key, cake); wait || err != nil {
				return res, err
			}
		}
		if err := b.do(ctx, who, key, cake, step); err != nil {
			return reconcile.Result{}, b.interrupted(key, cake, step, err)
		}
		updated, err := b.checkpoint(ctx, cake, step)
		if err != nil {
			if apiserver.IsConflict(err) {
				b.say(key, "conflict", "%s: the order changed while I worked (409 Conflict) → back to the rack", cake.Name)
			}
			return reconcile.Result{}, err
		}
		cake = updated
	}
	return reconcile.Result{}, nil
}

// take waits for what working on a cake needs — an oven slot (the
// semaphore), a baker on duty, an oven — and returns the baker's name and
// a function that gives everything back.
func (b *CakeReconciler) take(ctx context.Context) (who string, release func(), err error) {
	var undo []func()
	release = func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
	if b.Ovens != nil {
		if err := b.Ovens.Acquire(ctx, 1); err != nil {
			return "", release, err
		}
		undo = append(undo, func() { b.Ovens.Release(1) })
	}
	who = b.who()
	for _, pool := range []Shift{b.Shift, b.OvenPool} {
		if pool == nil {
			continue
		}
		name, err := pool.Acquire(ctx)
		if err != nil {
			release()
			return "", func() {}, err
		}
		undo = append(undo, func() { pool.Release(name) })
		if pool == b.Shift {
			who = name
		}
	}
	b.Kitchen.enter()
	undo = append(undo, b.Kitchen.leave)
	return who, release, nil
}

// interrupted narrates why a step did not finish and returns the error.
func (b *CakeReconciler) interrupted(key string, cake *Cake, step Step, err error) error {
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		b.Journal.Say("oven", key, "interrupted", "%s: power cut during %q — progress kept at checkpoint %q",
			cake.Name, step, b.Kitchen.Tray(key).Done)
	case errors.Is(err, errCollapsed), errors.Is(err, errOvenBroken):
		b.Journal.Say("oven", key, "fault", "%s: %v → return an error, retry later", cake.Name, err)
	}
	return fmt.Errorf("%s: %s: %w", key, step, err)
}

// waitForDecorator lets the decoration come last (eventual consistency):
// if the decorator is not in yet, it records that the sponge is ready and
// asks to be woken up when the decorator arrives.
func (b *CakeReconciler) waitForDecorator(ctx context.Context, key string, cake *Cake) (reconcile.Result, bool, error) {
	at, in := b.Kitchen.decoratorIn(b.Clock.Now())
	if in {
		return reconcile.Result{}, false, nil
	}
	msg := "sponge ready"
	if p, err := ParseClockTime(cake.Spec.PickupTime); err == nil {
		msg = fmt.Sprintf("sponge ready, %s before pickup at %s", FormatShop((p - b.Clock.Now()).Truncate(time.Minute)), cake.Spec.PickupTime)
	}
	b.say(key, "decorate-later", "%s: %s; the decorator comes at %s → RequeueAfter", cake.Name, msg, FormatClock(at))
	return reconcile.Result{RequeueAfter: b.Clock.Real(at - b.Clock.Now())}, true, nil
}

// checkpoint records step in the status (断点续做) and returns the stored cake.
func (b *CakeReconciler) checkpoint(ctx context.Context, cake *Cake, step Step) (*Cake, error) {
	cake.Status.Checkpoint = step
	cake.Status.ObservedGeneration = cake.Generation
	cake.Status.Phase = phaseAfter(step)
	tray := b.Kitchen.Tray(cake.Namespace + "/" + cake.Name)
	if tray != nil {
		cake.Status.Frosting = tray.Frosting
	}
	g := cake.Generation
	switch {
	case step == StepSponge:
		apiserver.SetStatusCondition(&cake.Status.Conditions, apiserver.Condition{Type: ConditionSpongeReady, Status: apiserver.ConditionTrue, Reason: "Baked", ObservedGeneration: g})
	case step == StepFrosting && tray != nil && tray.Frosting != "buttercream":
		apiserver.SetStatusCondition(&cake.Status.Conditions, apiserver.Condition{Type: ConditionRecipe, Status: apiserver.ConditionTrue, Reason: "FallbackRecipe",
			Message: "buttercream ran out; frosted with " + tray.Frosting, ObservedGeneration: g})
	case step == StepDecoration && tray != nil && tray.Simplified:
		apiserver.SetStatusCondition(&cake.Status.Conditions, apiserver.Condition{Type: ConditionDegraded, Status: apiserver.ConditionTrue, Reason: "SkippedDecoration",
			Message: "fancy decoration simplified under load", ObservedGeneration: g})
	case step == StepBoxed:
		apiserver.SetStatusCondition(&cake.Status.Conditions, apiserver.Condition{Type: "Ready", Status: apiserver.ConditionTrue, Reason: "Boxed", ObservedGeneration: g})
	}
	updated, err := b.Cakes.UpdateStatus(ctx, cake)
	if err == nil && step == StepBoxed {
		pickup := ""
		if cake.Spec.PickupTime != "" {
			pickup = ", ready for pickup at " + cake.Spec.PickupTime // the story's schedule_delivery
		}
		b.say(cake.Namespace+"/"+cake.Name, "completed", "%s: boxed → Completed%s", cake.Name, pickup)
	}
	return updated, err
}

// phaseAfter returns the phase of a cake whose last finished step is s.
func phaseAfter(s Step) Phase {
	switch s {
	case StepBoxed:
		return PhaseCompleted
	case StepSponge, StepFrosting, StepDecoration:
		return PhaseDecorating
	}
	return PhaseBaking
}
