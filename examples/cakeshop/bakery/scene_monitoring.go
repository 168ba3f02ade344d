package bakery

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// SceneMonitoring plays the story's monitoring (监控): the controller's
// reconcile latency histogram (controller_runtime_reconcile_time_seconds)
// is watched by an in-process alert rule, HighReconcileLatency, which fires
// when the p90 over the last four shop hours exceeds two shop hours — as
// it does when an oven runs slow — and resolves once the oven is repaired.
func SceneMonitoring(ctx context.Context, cfg Config) (*Report, error) {
	e, r := newEnv(cfg), newReport("monitoring")
	shop, err := NewShop(e.shop(ShopOptions{Workers: 3, Brief: true}))
	if err != nil {
		return nil, err
	}
	rule := AlertRule{Name: "HighReconcileLatency", Quantile: 0.9, Window: 4 * time.Hour, Threshold: 2 * time.Hour}
	mon := &Monitor{Rule: rule, Interval: 10 * time.Minute, Controller: shop.Controller, Clock: e.clock, Journal: e.j}
	e.j.Say("manager", "", "rule", "alert %s: histogram_quantile(%.1f, rate(controller_runtime_reconcile_time_seconds_bucket[%s])) > %s",
		rule.Name, rule.Quantile, FormatShop(rule.Window), FormatShop(rule.Threshold))
	stop := shop.Start(ctx)
	mctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { mon.Run(mctx) })
	err = slowOvenDay(ctx, e, shop)
	cancel()
	wg.Wait()
	if err = errors.Join(err, stop()); err != nil {
		return nil, err
	}
	r.Numbers["alert-fired"] = e.j.Count(IsEvent("alert-firing"))
	r.Numbers["alert-resolved"] = e.j.Count(IsEvent("alert-resolved"))
	r.fact("%s fired while the oven was slow: %v; resolved after the repair: %v", rule.Name,
		e.j.Count(IsEvent("alert-firing")) > 0, e.j.Count(IsEvent("alert-resolved")) > 0)
	m := shop.Controller.Metrics()
	r.fact("reconciles observed by the histogram: %d", m.ReconcileTime.Count)
	return r, e.outcomes(ctx, r, e.srv, e.till, "")
}

// slowOvenDay bakes three batches of six cakes: normal, with a slow oven,
// and after the repair, waiting for the alert to fire and to resolve.
func slowOvenDay(ctx context.Context, e *env, shop *Shop) error {
	batch := func(prefix string) error {
		for i := range 6 {
			if err := e.order(ctx, "haidian", fmt.Sprintf("%s-%d", prefix, i+1), CakeSpec{Flavor: "matcha", Size: 8}); err != nil {
				return err
			}
		}
		for i := range 6 {
			if err := e.await(ctx, fmt.Sprintf("haidian/%s-%d", prefix, i+1), "completed", 1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := batch("morning"); err != nil {
		return err
	}
	e.j.Say("manager", "", "fault", "the oven's thermostat fails: baking takes four times as long")
	shop.Kitchen.SetSlowOven(4)
	if err := batch("noon"); err != nil {
		return err
	}
	if err := e.j.Await(ctx, 1, IsEvent("alert-firing")); err != nil {
		return err
	}
	e.j.Say("manager", "", "repair", "the oven is repaired")
	shop.Kitchen.SetSlowOven(1)
	if err := batch("evening"); err != nil {
		return err
	}
	return e.j.Await(ctx, 1, IsEvent("alert-resolved"))
}
