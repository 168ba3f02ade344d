package bakery

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// SceneFaults plays the story's fault tolerance (容错处理): the buttercream
// runs out and the baker switches to a fallback recipe instead of stalling;
// a sponge collapses twice and each time the error sends the order back
// through the rate limiter (5 min: the reconcile that put the next sponge
// in succeeded, and success resets the backoff); the oven will not heat
// four times
// (5, 10, 20, 40 min: growing backoff); the decorator comes in late, so the
// decoration finishes last while the sponge is on time (eventual
// consistency); and an order cancelled mid-bake is stopped and refunded.
func SceneFaults(ctx context.Context, cfg Config) (*Report, error) {
	e, r := newEnv(cfg), newReport("faults")
	shop, err := NewShop(e.shop(ShopOptions{}))
	if err != nil {
		return nil, err
	}
	stop := shop.Start(ctx)
	err = faults(ctx, e, shop, r)
	if err = errors.Join(err, stop()); err != nil {
		return nil, err
	}
	return r, e.outcomes(ctx, r, e.srv, e.till, "")
}

func faults(ctx context.Context, e *env, shop *Shop, r *Report) error {
	k := shop.Kitchen
	plain := func(flavor string) CakeSpec {
		return CakeSpec{Flavor: flavor, Size: 6, Decoration: "Congratulations", Priority: PriorityRegular}
	}
	// Frosting runs out after one cake.
	e.j.Say("manager", "", "setup", "one portion of buttercream left")
	k.SetFrosting(1)
	for _, name := range []string{"frost-1", "frost-2"} {
		if err := e.orderAndWait(ctx, "haidian", name, plain("strawberry")); err != nil {
			return err
		}
	}
	k.SetFrosting(-1)
	e.j.Say("manager", "", "setup", "the buttercream delivery arrives")
	// A sponge that collapses twice.
	k.CollapseNext("haidian/wobbly", 2)
	e.j.Say("manager", "", "setup", "the next two sponges of wobbly will collapse")
	if err := e.orderAndWait(ctx, "haidian", "wobbly", plain("red-velvet")); err != nil {
		return err
	}
	r.Delays["haidian/wobbly"] = shop.RetryDelays("haidian/wobbly")
	r.fact("wobbly collapsed twice; retried after %s (each collapse a first failure: putting the next sponge in succeeded)",
		formatDelays(shop.RetryDelays("haidian/wobbly")))
	// An oven that fails to heat four times.
	k.BreakOven(4)
	e.j.Say("manager", "", "setup", "the oven is broken for the next four tries")
	if err := e.orderAndWait(ctx, "haidian", "patient", plain("carrot")); err != nil {
		return err
	}
	r.Delays["haidian/patient"] = shop.RetryDelays("haidian/patient")
	r.fact("the broken oven made patient wait %s (growing backoff)", formatDelays(shop.RetryDelays("haidian/patient")))
	if err := decorateLast(ctx, e, shop, r); err != nil {
		return err
	}
	return cancelMidBake(ctx, e)
}

// orderAndWait places an order and waits until it is Completed.
func (e *env) orderAndWait(ctx context.Context, branch, name string, spec CakeSpec) error {
	if err := e.order(ctx, branch, name, spec); err != nil {
		return err
	}
	return e.await(ctx, branch+"/"+name, "completed", 1)
}

// decorateLast shows eventual consistency: the decorator comes in later
// than the sponge is ready; the sponge is on time, the decoration last.
func decorateLast(ctx context.Context, e *env, shop *Shop, r *Report) error {
	now := e.clock.Now()
	arrival := (now + 2*time.Hour).Truncate(time.Hour)
	pickup := arrival + time.Hour
	shop.Kitchen.SetDecoratorArrival(arrival)
	e.j.Say("manager", "", "setup", "the decorator comes in at %s", FormatClock(arrival))
	spec := CakeSpec{Flavor: "vanilla", Size: 10, Decoration: "Welcome Home", PickupTime: FormatClock(pickup)}
	if err := e.order(ctx, "haidian", "late-deco", spec); err != nil {
		return err
	}
	if err := e.await(ctx, "haidian/late-deco", "decorate-later", 1); err != nil {
		return err
	}
	sponge := e.clock.Now()
	if err := e.await(ctx, "haidian/late-deco", "completed", 1); err != nil {
		return err
	}
	done := e.clock.Now()
	shop.Kitchen.SetDecoratorArrival(0)
	r.Numbers["sponge-before-decorator"] = b2i(sponge < arrival)
	r.Numbers["completed-before-pickup"] = b2i(done <= pickup)
	r.fact("late-deco: sponge ready before the decorator came: %v; completed before pickup: %v",
		sponge < arrival, done <= pickup)
	return nil
}

// cancelMidBake cancels an order while its sponge is in the oven.
func cancelMidBake(ctx context.Context, e *env) error {
	if err := e.order(ctx, "haidian", "change-of-heart", CakeSpec{Flavor: "matcha", Size: 8, Layers: 3}); err != nil {
		return err
	}
	if err := e.await(ctx, "haidian/change-of-heart", "bake", 1); err != nil {
		return err
	}
	if err := e.cancel(ctx, "haidian", "change-of-heart"); err != nil {
		return err
	}
	if err := e.await(ctx, "haidian/change-of-heart", "gone", 1); err != nil {
		return fmt.Errorf("cancel mid-bake: %w", err)
	}
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
