package bakery

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/reconcile"
)

// plan compares the order (desired) with the tray (actual) when the baker
// takes up a cake, or sees a new generation of it, and undoes whatever no
// longer fits:
// a sponge of the wrong flavor, size or layers is thrown away (rebake); a
// wrong decoration is scraped off (adjust the decoration only). The
// generation tells a modified order from an interrupted one.
func (b *CakeReconciler) plan(key string, cake *Cake) {
	tray, st, spec := b.Kitchen.Tray(key), cake.Status, cake.Spec
	modified := st.ObservedGeneration != 0 && st.ObservedGeneration != cake.Generation
	switch {
	case tray == nil && st.Checkpoint == StepNone:
		b.say(key, "new", "%s: new order (%s) → prepare ingredients, bake", cake.Name, describe(spec))
	case tray == nil:
		b.say(key, "start-over", "%s: checkpoint says %q but the tray is gone → start over", cake.Name, st.Checkpoint)
	case !tray.matches(spec):
		b.say(key, "rebake", "%s: generation %d changed %s → throw the old sponge away, rebake",
			cake.Name, cake.Generation, spongeDiff(tray, spec))
		b.Kitchen.Discard(key)
	case modified && stepIndex(tray.Done) >= stepIndex(StepDecoration) && tray.Decoration != spec.Decoration:
		b.say(key, "redecorate", "%s: generation %d changed only the decoration %q → %q → keep the sponge, redo the decoration",
			cake.Name, cake.Generation, tray.Decoration, spec.Decoration)
		b.Kitchen.scrapeDecoration(key)
	case modified:
		b.say(key, "carry-on", "%s: generation %d changes nothing already made → carry on", cake.Name, cake.Generation)
	case st.Checkpoint != StepNone && st.Checkpoint != StepBoxed:
		b.say(key, "resume", "%s: resume after checkpoint %q (the tray agrees: %q done, %s) — no starting over",
			cake.Name, st.Checkpoint, tray.Done, underWay(tray))
	}
}

// underWay says which step is under way on a tray.
func underWay(t *Tray) string {
	switch {
	case t.Doing != StepNone:
		return fmt.Sprintf("%q under way", t.Doing)
	case t.Oven != "":
		return "the sponge in the oven"
	}
	return "nothing under way"
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

// work moves the cake on as far as it can without waiting: it finishes
// the step under way if it is due, writes the checkpoint (断点), and starts
// the next step, returning RequeueAfter its length — or puts the sponge in
// the oven and returns, to be woken by the oven. It gives the places the
// cake holds back when the cake is boxed or waits for the decorator.
func (b *CakeReconciler) work(ctx context.Context, who, key string, cake *Cake) (reconcile.Result, error) {
	for {
		tray := b.Kitchen.Tray(key)
		switch {
		case tray != nil && tray.Doing != StepNone:
			if left := tray.Until - b.Clock.Now(); left > 0 {
				return reconcile.Result{RequeueAfter: b.Clock.Real(left)}, nil // woken early
			}
			b.Kitchen.finishStep(key, func(t *Tray, s Step) {
				if s == StepDecoration {
					t.Decoration = cake.Spec.Decoration
				}
			})
			continue
		case tray != nil && b.Kitchen.clearCollapsed(key):
			return reconcile.Result{}, b.interrupted(key, cake, StepSponge, errCollapsed)
		case tray != nil && tray.Done != StepNone &&
			(tray.Done != cake.Status.Checkpoint || cake.Status.ObservedGeneration != cake.Generation):
			updated, err := b.checkpoint(ctx, cake, tray.Done)
			if err != nil {
				if meta.IsConflict(err) {
					b.say(key, "conflict", "%s: the order changed while I worked (409 Conflict) → back to the rack", cake.Name)
				}
				return reconcile.Result{}, err
			}
			cake = updated
			continue
		case tray != nil && tray.Done == StepBoxed:
			b.release(key, true)
			return reconcile.Result{}, nil
		}
		next := StepIngredients
		if tray != nil {
			next = Steps[stepIndex(tray.Done)+1]
		}
		switch next {
		case StepSponge:
			return b.sponge(ctx, key, cake, tray)
		case StepDecoration:
			if res, wait := b.waitForDecorator(key, cake); wait {
				b.release(key, false)
				return res, nil
			}
		}
		return reconcile.Result{RequeueAfter: b.Clock.Real(b.begin(ctx, who, key, cake, next))}, nil
	}
}

// sponge puts the cake's sponge in the oven — creates a [Bake] owned by
// the cake, which the [Oven] times — unless it is already in, and returns
// without waiting: the oven's status write wakes the baker up again
// (reconcile.Owns), with the sponge on the tray. A broken oven is an error.
func (b *CakeReconciler) sponge(ctx context.Context, key string, cake *Cake, tray *Tray) (reconcile.Result, error) {
	bake := &Bake{ObjectMeta: meta.ObjectMeta{Namespace: cake.Namespace, Name: bakeName(cake, tray.Bakes+1),
		OwnerReferences: []meta.OwnerReference{meta.NewControllerRef(cake)}},
		Spec: BakeSpec{Cake: cake.Name, Flavor: cake.Spec.Flavor, Size: cake.Spec.Size, Layers: cake.Spec.LayerCount(),
			Minutes: int(b.Kitchen.bakeTime(cake.Spec) / time.Minute)}}
	bakeKey := bake.Namespace + "/" + bake.Name
	if tray.Oven == bakeKey {
		return reconcile.Result{}, nil // in the oven: the oven will say when it is out
	}
	if err := b.Kitchen.heat(); err != nil {
		return reconcile.Result{}, b.interrupted(key, cake, StepSponge, err)
	}
	b.Kitchen.putIn(key, bakeKey)
	// Narrated before the create: the oven may start the bake before
	// Create returns.
	b.detail(b.who(), key, "%s: sponge into the oven: create Bake %s (owned by the cake) and return — the oven will call", cake.Name, bake.Name)
	_, err := b.Bakes.Create(ctx, bake)
	switch {
	case meta.IsAlreadyExists(err):
		// Only a stale read gets here: the Bake is on the server already.
		b.say(key, "already-in", "%s: Bake %s already exists (my cache was behind) → it is in the oven, nothing to do", cake.Name, bake.Name)
		return reconcile.Result{}, nil
	case err != nil:
		return reconcile.Result{}, err
	}
	return reconcile.Result{}, nil
}

// take gets what working on a cake needs — an oven slot, a baker on duty,
// an oven — without waiting, and returns the baker's name. ok is false if
// one is missing: the cake is on that place's waiting list, and keeps what
// it already holds.
func (b *CakeReconciler) take(key string) (who string, ok bool) {
	who = b.who()
	for _, places := range []*Staff{b.Ovens, b.Shift, b.OvenPool} {
		if places == nil {
			continue
		}
		name, ok := places.Take(key)
		if !ok {
			return "", false
		}
		if places == b.Shift {
			who = name
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.holding == nil {
		b.holding = map[string]bool{}
	}
	if !b.holding[key] {
		b.holding[key] = true
		b.Kitchen.enter()
	}
	return who, true
}

// release gives back every place key holds; forget also drops it from the
// cakes this baker is working on (it is finished, or gone). The cake
// leaves the kitchen's count before its places free, the mirror of take:
// a place freed first could go to a waiting cake that enters while this
// one is still counted, and the count would exceed the places.
func (b *CakeReconciler) release(key string, forget bool) {
	b.mu.Lock()
	if b.holding[key] {
		delete(b.holding, key)
		b.Kitchen.leave()
	}
	if forget {
		delete(b.working, key)
	}
	b.mu.Unlock()
	for _, places := range []*Staff{b.OvenPool, b.Shift, b.Ovens} {
		if places != nil {
			places.Release(key)
		}
	}
}

// interrupted narrates why a step did not finish and returns the error.
func (b *CakeReconciler) interrupted(key string, cake *Cake, step Step, err error) error {
	b.Journal.Say("oven", key, "fault", "%s: %v → return an error, retry later", cake.Name, err)
	return fmt.Errorf("%s: %s: %w", key, step, err)
}

// waitForDecorator lets the decoration come last (eventual consistency):
// if the decorator is not in yet, it records that the sponge is ready and
// asks to be woken up when the decorator arrives.
func (b *CakeReconciler) waitForDecorator(key string, cake *Cake) (reconcile.Result, bool) {
	at, in := b.Kitchen.decoratorIn(b.Clock.Now())
	if in {
		return reconcile.Result{}, false
	}
	msg := "sponge ready"
	if p, err := ParseClockTime(cake.Spec.PickupTime); err == nil {
		msg = fmt.Sprintf("sponge ready, %s before pickup at %s", FormatShop((p - b.Clock.Now()).Truncate(time.Minute)), cake.Spec.PickupTime)
	}
	b.say(key, "decorate-later", "%s: %s; the decorator comes at %s → RequeueAfter", cake.Name, msg, FormatClock(at))
	return reconcile.Result{RequeueAfter: b.Clock.Real(at - b.Clock.Now())}, true
}

// checkpoint records step in the status (断点续做) and returns the stored cake.
func (b *CakeReconciler) checkpoint(ctx context.Context, cake *Cake, step Step) (*Cake, error) {
	tray := b.Kitchen.Tray(cake.Namespace + "/" + cake.Name)
	updated, err := b.write(ctx, cake, true, func(c *Cake) { markDone(c, step, tray) })
	if err == nil && step == StepBoxed && b.LeadTimes != nil {
		b.LeadTimes.Boxed(cake.UID, b.Clock.Now())
	}
	if err == nil && step == StepBoxed {
		pickup := ""
		if cake.Spec.PickupTime != "" {
			pickup = ", ready for pickup at " + cake.Spec.PickupTime // the story's schedule_delivery
		}
		b.say(cake.Namespace+"/"+cake.Name, "completed", "%s: boxed → Completed%s", cake.Name, pickup)
	}
	return updated, err
}

// markDone records in c's status that step is done, on tray: the
// checkpoint, the phase, the frosting and the step's condition. It
// changes only these, over whatever status c has: when a write meets 409
// Conflict (the ledger was behind the baker's own writes), write applies
// it again over the stored status, and what the earlier steps recorded
// stays. (Computing the whole status from the ledger's copy and putting
// it over the stored one dropped, behind a ledger that lagged, the
// SpongeReady condition that an earlier reconcile had written.)
func markDone(c *Cake, step Step, tray *Tray) {
	c.Status.Checkpoint = step
	c.Status.ObservedGeneration = c.Generation
	c.Status.Phase = phaseAfter(step)
	if tray != nil {
		c.Status.Frosting = tray.Frosting
	}
	g := c.Generation
	switch {
	case step == StepSponge:
		meta.SetStatusCondition(&c.Status.Conditions, meta.Condition{Type: ConditionSpongeReady, Status: meta.ConditionTrue, Reason: "Baked", ObservedGeneration: g})
	case step == StepFrosting && tray != nil && tray.Frosting != "buttercream":
		meta.SetStatusCondition(&c.Status.Conditions, meta.Condition{Type: ConditionRecipe, Status: meta.ConditionTrue, Reason: "FallbackRecipe",
			Message: "buttercream ran out; frosted with " + tray.Frosting, ObservedGeneration: g})
	case step == StepDecoration && tray != nil && tray.Simplified:
		meta.SetStatusCondition(&c.Status.Conditions, meta.Condition{Type: ConditionDegraded, Status: meta.ConditionTrue, Reason: "SkippedDecoration",
			Message: "fancy decoration simplified under load", ObservedGeneration: g})
	case step == StepBoxed:
		meta.SetStatusCondition(&c.Status.Conditions, meta.Condition{Type: "Ready", Status: meta.ConditionTrue, Reason: "Boxed", ObservedGeneration: g})
	}
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
