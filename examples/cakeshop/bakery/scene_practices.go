package bakery

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/reconcile"
)

// ScenePractices plays the story's best practices (最佳实践): a reconcile
// interrupted by a power cut resumes from the checkpoint in the status
// instead of starting over; reconciling a finished cake twice more changes
// nothing (idempotency); ten workers share five ovens — the story's
// semaphore.NewWeighted(5), taken without blocking ([Staff]) — and never
// more than five cakes are worked on at once; a resync every 30 shop minutes re-checks every order and writes
// nothing; and the baker's structured debug logs (log/slog) trace each step.
func ScenePractices(ctx context.Context, cfg Config) (*Report, error) {
	r := newReport("practices")
	e := newEnv(cfg)
	if err := checkpointAndIdempotency(ctx, e, r); err != nil {
		return nil, err
	}
	if err := e.outcomes(ctx, r, e.srv, e.till, ""); err != nil {
		return nil, err
	}
	if err := fiveOvens(ctx, cfg, r); err != nil {
		return nil, err
	}
	if err := resync(ctx, cfg, r); err != nil {
		return nil, err
	}
	return r, nil
}

// checkpointAndIdempotency cuts the power while a cake is being frosted,
// restarts the controller, and then reconciles the finished cake by hand.
func checkpointAndIdempotency(ctx context.Context, e *env, r *Report) error {
	const k = "haidian/marathon"
	kitchen := NewKitchen()
	o := e.shop(ShopOptions{Kitchen: kitchen})
	o.Logger = newJournalLogger(e.j, "log", func(_ slog.Level, attrs []slog.Attr) bool { return hasAttr(attrs, "step") })
	first, err := NewShop(o)
	if err != nil {
		return err
	}
	stop := first.Start(ctx)
	err = e.order(ctx, "haidian", "marathon", CakeSpec{Flavor: "red-velvet", Size: 10, Layers: 3, Decoration: "42 km!"})
	if err == nil {
		err = e.j.Await(ctx, 1, func(en Entry) bool { return en.Key == k && strings.Contains(en.Text, "frost with") })
	}
	e.j.Say("manager", "", "power-cut", "power cut! the controller stops in the middle of the frosting")
	if err = errors.Join(err, stop()); err != nil {
		return err
	}
	e.j.Say("manager", "", "restart", "power is back: a new controller starts, with a new front desk, on the same kitchen")
	o.Logger = nil
	second, err := NewShop(e.shop(ShopOptions{Kitchen: kitchen}))
	if err != nil {
		return err
	}
	stop = second.Start(ctx)
	err = e.await(ctx, k, "completed", 1)
	if err == nil {
		err = reconcileTwice(ctx, e, second, r)
	}
	if err = errors.Join(err, stop()); err != nil {
		return err
	}
	r.Numbers["marathon-bakes"] = kitchen.Tray(k).Bakes
	r.fact("marathon: sponges baked %d (resumed from checkpoint, not started over)", kitchen.Tray(k).Bakes)
	return nil
}

// reconcileTwice calls the reconciler of a finished cake twice by hand
// and checks that nothing was written.
func reconcileTwice(ctx context.Context, e *env, shop *Shop, r *Report) error {
	gr := CakeResource.GroupResource()
	writes := func() int64 {
		return e.srv.RequestCount(apiserver.VerbUpdate, gr) + e.srv.RequestCount(apiserver.VerbCreate, gr)
	}
	req := reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "haidian", Name: "marathon"}}
	// The front desk's ledger may lag the baker's last status write by a
	// moment: wait until it shows the cake Completed.
	for {
		c, err := shop.Reconciler.Cakes.Get(ctx, req.NamespacedName)
		if err != nil {
			return err
		}
		if c.Status.Phase == PhaseCompleted {
			break
		}
		if err := e.clock.Sleep(ctx, time.Minute); err != nil {
			return err
		}
	}
	before, rv := writes(), e.srv.ResourceVersion()
	for range 2 {
		if _, err := shop.Reconciler.Reconcile(ctx, req); err != nil {
			return err
		}
	}
	n := writes() - before
	e.j.Say("manager", "haidian/marathon", "idempotent", "reconciled marathon twice more by hand: %d writes, resourceVersion unchanged: %v",
		n, rv == e.srv.ResourceVersion())
	r.Numbers["idempotent-writes"] = int(n)
	r.Numbers["idempotent-rv-changed"] = b2i(rv != e.srv.ResourceVersion())
	r.fact("idempotency: two more reconciles of a Completed cake wrote %d times", n)
	return nil
}

// fiveOvens sends twelve orders to a shop with ten workers and five ovens.
func fiveOvens(ctx context.Context, cfg Config, r *Report) error {
	e := newEnv(cfg)
	shop, err := NewShop(e.shop(ShopOptions{Workers: 10, Ovens: 5, Brief: true}))
	if err != nil {
		return err
	}
	e.j.Say("manager", "", "setup", "10 workers (MaxConcurrentReconciles), 5 ovens (the story's semaphore.NewWeighted(5), taken without blocking: a cake with no oven waits on a list, not in a worker)")
	stop := shop.Start(ctx)
	for i := range 12 {
		if err = e.order(ctx, "chaoyang", "batch-"+string(rune('a'+i)), CakeSpec{Flavor: "vanilla", Size: 6}); err != nil {
			break
		}
	}
	if err == nil {
		err = e.j.Await(ctx, 12, IsEvent("completed"))
	}
	if err = errors.Join(err, stop()); err != nil {
		return err
	}
	e.j.Say("manager", "", "limit", "most cakes in the kitchen at once: %d", shop.Kitchen.MaxConcurrent())
	r.Numbers["max-concurrent"] = shop.Kitchen.MaxConcurrent()
	r.fact("12 orders, 10 workers, 5 ovens: at most %d cakes worked on at once", shop.Kitchen.MaxConcurrent())
	return e.outcomes(ctx, r, e.srv, e.till, "")
}

// resync shows the periodic resync: every 30 shop minutes the front desk
// re-delivers every order; the baker finds nothing to do and writes nothing.
func resync(ctx context.Context, cfg Config, r *Report) error {
	e := newEnv(cfg)
	shop, err := NewShop(e.shop(ShopOptions{Resync: 30 * time.Minute, Workers: 2, Brief: true}))
	if err != nil {
		return err
	}
	e.j.Say("manager", "", "setup", "the front desk resyncs every 30 shop minutes (informer resync period)")
	stop := shop.Start(ctx)
	for _, name := range []string{"daily-1", "daily-2"} {
		if err == nil {
			err = e.orderAndWait(ctx, "xicheng", name, CakeSpec{Flavor: "carrot", Size: 6})
		}
	}
	gr := CakeResource.GroupResource()
	before := e.srv.RequestCount(apiserver.VerbUpdate, gr)
	if err == nil {
		// One more round of resync after both cakes are finished. (Like
		// client-go, the informer never resyncs more often than once a real
		// second, so the 30 shop minutes take a second here.)
		err = e.j.Await(ctx, e.j.Count(IsEvent("resync"))+2, IsEvent("resync"))
	}
	if err = errors.Join(err, stop()); err != nil {
		return err
	}
	n := e.srv.RequestCount(apiserver.VerbUpdate, gr) - before
	e.j.Say("manager", "", "resync", "a resync of two finished orders: %d writes", n)
	r.Numbers["resync-writes"] = int(n)
	r.Numbers["resyncs"] = e.j.Count(IsEvent("resync"))
	r.fact("resync every 30 shop minutes (at least 1 real second, as in client-go): a round over finished cakes wrote %d times", n)
	return e.outcomes(ctx, r, e.srv, e.till, "")
}
