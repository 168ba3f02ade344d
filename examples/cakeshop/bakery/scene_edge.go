package bakery

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
)

// weddingCake is the story's oversized order: 10 layers, extreme
// decoration, 6h of oven at most and 2GB of icing memory.
func weddingCake() CakeSpec {
	return CakeSpec{Flavor: "vanilla", Size: 14, Layers: 10, Decoration: "Forever", DecorationComplexity: "extreme",
		Resources: CakeResources{MaxOvenTime: "6h", IcingMemory: "2GB"}}
}

// SceneEdge plays the story's edge cases (边缘案例). The wedding cake needs
// more icing memory than the fridge has. First the story's code, which
// returns RequeueAfter 1h together with an error: the controller ignores
// the Result when the error is not nil, so the rate limiter decides (5, 10,
// 20, 40 min), not the hour. Then the correct version, RequeueAfter alone:
// one look an hour later. Last, VIP orders jump the queue: a priority
// queue hands out the 1000s before the 100s.
func SceneEdge(ctx context.Context, cfg Config) (*Report, error) {
	r := newReport("edge")
	if err := weddingLesson(ctx, cfg, r, true); err != nil {
		return nil, err
	}
	if err := weddingLesson(ctx, cfg, r, false); err != nil {
		return nil, err
	}
	if err := vipFirst(ctx, cfg, r); err != nil {
		return nil, err
	}
	return r, nil
}

// weddingLesson runs the wedding cake with the story's bug (withError) or
// the fix, on a server of its own.
func weddingLesson(ctx context.Context, cfg Config, r *Report, withError bool) error {
	e := newEnv(cfg)
	branch := map[bool]string{true: "bug", false: "fixed"}[withError]
	if withError {
		e.j.Say("manager", "", "lesson", "the story's code: return ctrl.Result{RequeueAfter: 1h}, fmt.Errorf(\"糖霜内存不足...\")")
		e.j.Say("manager", "", "lesson", "the controller, which calls the baker's Reconcile and puts the order back on the rack, will say what it makes of that")
	} else {
		e.j.Say("manager", "", "lesson", "the fix: waiting is not an error → return ctrl.Result{RequeueAfter: 1h}, nil")
	}
	o := e.shop(ShopOptions{ErrorWithRequeue: withError, Brief: true})
	// Tell the controller's own warning about the ignored Result, in the
	// narration's words and the shop's time.
	o.Logger = newNarratingLogger(e.j, "controller", ignoredRequeue(e.clock))
	shop, err := NewShop(o)
	if err != nil {
		return err
	}
	shop.Kitchen.SetIcingMemory(1024)
	stop := shop.Start(ctx)
	err = weddingDay(ctx, e, shop, branch, withError)
	if err = errors.Join(err, stop()); err != nil {
		return err
	}
	m := shop.Controller.Metrics()
	k := branch + "/wedding"
	r.Delays[k] = shop.RetryDelays(k)
	r.Numbers[branch+"-reconcile-errors"] = int(m.ReconcileErrors)
	r.Numbers[branch+"-icing-looks"] = e.j.Count(Is(k, "icing-short"))
	if err := e.outcomes(ctx, r, e.srv, e.till, ""); err != nil {
		return err
	}
	if withError {
		r.fact("%s: asked for 1h, got the rate limiter's %s; reconcile errors %d",
			k, formatDelays(shop.RetryDelays(k)), m.ReconcileErrors)
	} else {
		r.fact("%s: one look at the icing, the next 1h later (RequeueAfter); rate-limited retries %d, reconcile errors %d",
			k, len(shop.RetryDelays(k)), m.ReconcileErrors)
	}
	return nil
}

func weddingDay(ctx context.Context, e *env, shop *Shop, branch string, withError bool) error {
	k := branch + "/wedding"
	if err := e.order(ctx, branch, "wedding", weddingCake()); err != nil {
		return err
	}
	first := e.clock.Now()
	if withError {
		// Four retries come within 75 shop minutes: nowhere near an hour each.
		// (Wait for the fourth warning, the last line of the fourth try.)
		if err := e.j.Await(ctx, 4, Is(k, "requeue-ignored")); err != nil {
			return err
		}
		e.j.Say("manager", "", "lesson", "the Result was ignored: the error's backoff decided, and every try counts as an error")
	} else {
		if err := e.j.Await(ctx, 1, Is(k, "icing-short")); err != nil {
			return err
		}
		if err := e.clock.Sleep(ctx, 30*time.Minute); err != nil {
			return err
		}
	}
	e.j.Say("manager", "", "delivery", "a bigger icing fridge (4GB) is delivered")
	shop.Kitchen.SetIcingMemory(4096)
	if err := e.await(ctx, k, "new", 1); err != nil {
		return err
	}
	if !withError {
		e.j.Say("manager", "", "lesson", "the baker looked again %s one hour after the first look, as asked, and logged no error",
			map[bool]string{true: "no earlier than", false: "LESS than"}[e.clock.Now()-first >= time.Hour])
	}
	return e.await(ctx, k, "completed", 1)
}

// ignoredRequeue tells the controller's warning that a reconciler
// returned both a RequeueAfter and an error (controller-runtime logs the
// same): the order's name, and the RequeueAfter in shop time (the
// controller saw it in real time), as the rest of the scene says it.
// Every other log record is left out.
func ignoredRequeue(clock *Clock) func(slog.Record, []slog.Attr) (string, string, string, bool) {
	return func(r slog.Record, attrs []slog.Attr) (string, string, string, bool) {
		if r.Level != slog.LevelWarn || !strings.Contains(r.Message, "the RequeueAfter is ignored") {
			return "", "", "", false
		}
		name := attrString(attrs, "name")
		key := attrString(attrs, "namespace") + "/" + name
		var after time.Duration
		for _, a := range attrs {
			if a.Key == "requeueAfter" && a.Value.Kind() == slog.KindDuration {
				after = a.Value.Duration()
			}
		}
		wait := FormatShop(clock.Kitchen(after).Round(time.Minute))
		return key, "requeue-ignored", fmt.Sprintf("%s: RequeueAfter %s came with an error → warns that it ignores the %s: the error's backoff decides", name, wait, wait), true
	}
}

// vipFirst shows the priority queue: while the only baker on duty is
// busy, five regular orders and then a VIP's come in and wait for her;
// when she is free, every waiting order goes back on the rack, and the
// VIP's is taken first.
func vipFirst(ctx context.Context, cfg Config, r *Report) error {
	e := newEnv(cfg)
	baker := &Staff{}
	baker.Hire("baker-wang")
	shop, err := NewShop(e.shop(ShopOptions{Brief: true, Shift: baker}))
	if err != nil {
		return err
	}
	stop := shop.Start(ctx)
	err = vipOrders(ctx, e)
	if err = errors.Join(err, stop()); err != nil {
		return err
	}
	var served []string
	for _, en := range e.j.Entries() {
		if en.Event == "new" {
			served = append(served, strings.TrimPrefix(en.Key, "xicheng/"))
		}
	}
	r.Served = served
	r.fact("VIP first: baked in the order %s", strings.Join(served, ", "))
	return e.outcomes(ctx, r, e.srv, e.till, "")
}

func vipOrders(ctx context.Context, e *env) error {
	if err := e.order(ctx, "xicheng", "early-bird", CakeSpec{Flavor: "carrot", Size: 8, Layers: 4}); err != nil {
		return err
	}
	if err := e.await(ctx, "xicheng/early-bird", "new", 1); err != nil {
		return err
	}
	names := []string{"regular-1", "regular-2", "regular-3", "regular-4", "regular-5", "vip-chen"}
	for i, name := range names {
		spec := CakeSpec{Flavor: "strawberry", Size: 6, Priority: PriorityRegular}
		if strings.HasPrefix(name, "vip") {
			spec = CakeSpec{Flavor: "double-chocolate", Size: 10, Decoration: "VIP", Priority: PriorityVIP}
		}
		if err := e.order(ctx, "xicheng", name, spec); err != nil {
			return err
		}
		if err := e.j.Await(ctx, i+2, IsEvent("noticed")); err != nil {
			return fmt.Errorf("vip: %w", err)
		}
	}
	for _, name := range append(names, "early-bird") {
		if err := e.await(ctx, "xicheng/"+name, "completed", 1); err != nil {
			return err
		}
	}
	return nil
}
