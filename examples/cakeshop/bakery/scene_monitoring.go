package bakery

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/reconcile"
)

// SceneMonitoring plays the story's monitoring (监控). Two alert rules
// are evaluated in process while an oven runs slow and is repaired:
//
//   - the story's HighReconcileLatency, on the controller's reconcile
//     time histogram (controller_runtime_reconcile_time_seconds): p90 over
//     the last four shop hours above 10 seconds. It never fires: a
//     reconcile starts a step, or puts a sponge in the oven, and returns —
//     it takes microseconds of real time however long the bake, because
//     the waiting is done by RequeueAfter and by the [Oven]'s Bake objects,
//     not by a worker. A p90 of hours would mean workers blocked for hours.
//   - HighCakeLeadTime, on what the customer waits (first look to box, in
//     shop time, [LeadTimes]): p90 above two shop hours. This one sees the
//     slow oven: it fires, and resolves after the repair.
func SceneMonitoring(ctx context.Context, cfg Config) (*Report, error) {
	e, r := newEnv(cfg), newReport("monitoring")
	shop, err := NewShop(e.shop(ShopOptions{Workers: 3, Brief: true}))
	if err != nil {
		return nil, err
	}
	leads := &LeadTimes{}
	shop.Reconciler.LeadTimes = leads
	latency := AlertRule{Name: "HighReconcileLatency", Metric: "controller_runtime_reconcile_time_seconds", Quantile: 0.9,
		Window: 4 * time.Hour, Threshold: 10 * time.Second, RealTime: true}
	lead := AlertRule{Name: "HighCakeLeadTime", Metric: "bakery_cake_lead_time_seconds", Quantile: 0.9, Window: 4 * time.Hour, Threshold: 2 * time.Hour}
	reconcileTime := func() reconcile.Histogram { return shop.Controller.Metrics().ReconcileTime }
	monitors := []*Monitor{
		{Rule: latency, Interval: 10 * time.Minute, Source: reconcileTime, Clock: e.clock, Journal: e.j},
		{Rule: lead, Interval: 10 * time.Minute, Source: leads.Histogram, Clock: e.clock, Journal: e.j},
	}
	for _, rule := range []AlertRule{latency, lead} {
		e.j.Say("manager", "", "rule", "alert %s: histogram_quantile(%.1f, rate(%s[%s])) > %s",
			rule.Name, rule.Quantile, rule.Metric, FormatShop(rule.Window), rule.format(rule.Threshold))
	}
	stop := shop.Start(ctx)
	mctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for _, m := range monitors {
		wg.Go(func() { m.Run(mctx) })
	}
	err = slowOvenDay(ctx, e, shop)
	cancel()
	wg.Wait()
	if err = errors.Join(err, stop()); err != nil {
		return nil, err
	}
	monitoringReport(e, r, shop, latency)
	return r, e.outcomes(ctx, r, e.srv, e.till, "")
}

// monitoringReport says which alert fired, and what a reconcile really
// takes: the p90 of the whole day, in real time.
func monitoringReport(e *env, r *Report, shop *Shop, latency AlertRule) {
	count := func(rule, event string) int {
		return e.j.Count(func(en Entry) bool { return en.Event == event && strings.Contains(en.Text, rule+" ") })
	}
	h := shop.Controller.Metrics().ReconcileTime
	p90 := time.Duration(HistogramQuantile(0.9, h) * float64(time.Second))
	e.j.Say("manager", "", "measured", "%d reconciles today; p90 reconcile time %s of real time (in the histogram's lowest bucket, ≤ 5ms), while a cake took hours of shop time",
		h.Count, p90)
	r.Numbers["alert-fired"], r.Numbers["alert-resolved"] = count("HighCakeLeadTime", "alert-firing"), count("HighCakeLeadTime", "alert-resolved")
	r.Numbers["reconcile-alert-fired"] = count(latency.Name, "alert-firing")
	r.Numbers["reconcile-p90-under-threshold"] = b2i(p90 <= latency.Threshold)
	r.fact("HighReconcileLatency (p90 reconcile time > %s) fired: %v — no reconcile waits for the oven",
		latency.format(latency.Threshold), r.Numbers["reconcile-alert-fired"] > 0)
	r.fact("HighCakeLeadTime fired while the oven was slow: %v; resolved after the repair: %v",
		r.Numbers["alert-fired"] > 0, r.Numbers["alert-resolved"] > 0)
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
