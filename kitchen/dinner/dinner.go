package dinner

import (
	"context"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"slices"
	"sort"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/narration"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
)

// Config describes a dinner service for [Run].
type Config struct {
	// Seed makes the service: who comes when, orders what, amends or
	// cancels. The same seed gives the same service.
	Seed int64
	// Orders is how many orders arrive (default 30).
	Orders int
	// Minute is the real duration of a kitchen minute (default
	// [kitchen.DefaultMinute]).
	Minute time.Duration
	// Verbosity of the narration written to Run's writer.
	Verbosity narration.Verbosity
	// Pacer, when set, makes the whole narration the same for a seed: the
	// kitchen's steps and the waiter's take turns (kitchentest.Conductor
	// is one; for tests under testing/synctest).
	Pacer Pacer
}

// A Pacer decides when each step of a dinner service may go, so that a
// test can make the service tell the same story every run.
type Pacer interface {
	// Pace sets the seams of the restaurant's Config through which its
	// steps wait for their turns (InformerOptions, Queue, Timers).
	Pace(cfg *restaurant.Config)
	// WaitTurn waits until the waiter may act, or until ctx ends (false).
	WaitTurn(ctx context.Context) bool
}

// waitTurn waits for the waiter's turn when cfg has a Pacer.
func (cfg Config) waitTurn(ctx context.Context) bool {
	return cfg.Pacer == nil || cfg.Pacer.WaitTurn(ctx)
}

// dinnerEvent is one thing the waiter does at a kitchen time.
type dinnerEvent struct {
	at    time.Duration
	kind  string // "place", "amend", "cancel"
	order *kitchen.Order
}

// dinnerPlan is a whole service, decided from the seed before it starts.
type dinnerPlan struct {
	events []dinnerEvent
	orders int
	stock  map[string]kitchen.Quantity
}

// dinnerStations has more places than the default kitchen: a dinner
// service has a full brigade.
func dinnerStations() map[string]int {
	return map[string]int{"oven": 4, "stove": 4, "grill": 3, "pastry": 2, "cold": 2}
}

// planDinner draws the service from the seed. About one order in twelve
// asks for a dish that is not on the menu (rejected), one in ten is
// cancelled a minute after it is placed, one in five gets black truffle
// added two minutes in.
func planDinner(cfg Config) dinnerPlan {
	rng := rand.New(rand.NewPCG(uint64(cfg.Seed), 0x6b69746368656e))
	menu := kitchen.DefaultMenu()
	var p dinnerPlan
	p.orders = cfg.Orders
	var at time.Duration
	for i := range cfg.Orders {
		at += time.Duration(rng.IntN(5)) * time.Minute
		o := dinnerOrder(rng, menu, i+1)
		p.events = append(p.events, dinnerEvent{at: at, kind: "place", order: o})
		switch r := rng.IntN(10); {
		case r == 0:
			p.events = append(p.events, dinnerEvent{at: at + time.Minute, kind: "cancel", order: o})
		case r <= 2:
			p.events = append(p.events, dinnerEvent{at: at + 2*time.Minute, kind: "amend", order: o})
		}
	}
	sort.SliceStable(p.events, func(i, j int) bool { return p.events[i].at < p.events[j].at })
	p.stock = dinnerStock(menu, cfg.Orders)
	return p
}

// dinnerOrder draws one order.
func dinnerOrder(rng *rand.Rand, menu []*kitchen.Dish, n int) *kitchen.Order {
	table := 1 + rng.IntN(20)
	section := "main"
	switch {
	case table <= 4:
		section = "vip"
	case table >= 13:
		section = "terrace"
	}
	o := &kitchen.Order{ObjectMeta: meta.ObjectMeta{Name: fmt.Sprintf("order-%03d", n)},
		Spec: kitchen.OrderSpec{Table: table, Section: section}}
	for range 1 + rng.IntN(3) {
		it := kitchen.OrderItem{Dish: menu[rng.IntN(len(menu))].Name, Quantity: 1}
		if rng.IntN(10) == 0 {
			it.Quantity = 2
		}
		if rng.IntN(12) == 0 {
			it.Dish = "lobster-thermidor" // not on the menu
		}
		if rng.IntN(7) == 0 {
			it.Extras = []string{"chili"}
		}
		o.Spec.Items = append(o.Spec.Items, it)
	}
	return o
}

// dinnerStock is enough of everything for the worst case of n orders
// (three items of two portions each, all with extras).
func dinnerStock(menu []*kitchen.Dish, n int) map[string]kitchen.Quantity {
	totals := map[string]kitchen.Amount{}
	for _, d := range menu {
		need, _ := kitchen.Need(d, kitchen.OrderItem{Dish: d.Name, Quantity: 6 * n, Extras: []string{"black-truffle", "chili"}})
		for name, a := range need {
			totals[name] = kitchen.Amount{Value: totals[name].Value + a.Value, Unit: a.Unit}
		}
	}
	stock := map[string]kitchen.Quantity{}
	for _, name := range slices.Sorted(maps.Keys(totals)) {
		stock[name] = kitchen.Quantity(totals[name].String())
	}
	return stock
}

// serve plays the plan: the waiter acts at each event's kitchen time (in
// its turn, with a Pacer).
func (p dinnerPlan) serve(ctx context.Context, r *restaurant.Restaurant, obs *observer, cfg Config) error {
	for _, e := range p.events {
		if err := r.Clock.SleepUntil(ctx, e.at); err != nil || !cfg.waitTurn(ctx) {
			return nil // the service was called off
		}
		var err error
		switch e.kind {
		case "place":
			obs.placed(e.order.Name, r.Clock.Now())
			_, err = r.Waiter.Place(ctx, meta.DeepCopy(e.order))
		case "amend":
			_, err = r.Waiter.AddExtra(ctx, e.order.Name, 0, "black-truffle")
		case "cancel":
			err = r.Waiter.Cancel(ctx, e.order.Name)
		}
		if err != nil && !meta.IsNotFound(err) {
			return fmt.Errorf("waiter: %s %s: %w", e.kind, e.order.Name, err)
		}
	}
	return nil
}

// Run runs a whole dinner service: the seeded plan of arrivals,
// amendments and cancellations, played by the waiter against a running
// [restaurant.Restaurant] until every order has reached Served, Rejected
// or Cancelled. It narrates to w and returns the [Summary].
//
// Given the seed, the plan is fixed. In virtual time — inside a
// testing/synctest bubble, where computation takes no time at all — so is
// the Summary apart from its Counters: the outcomes, and the latencies and
// length in kitchen minutes (examples/restaurant pins seed 1's in
// testdata/seed1.golden). In a real run the kitchen clock keeps running
// while goroutines wait for a CPU: on a loaded machine every hand-off
// comes a little late in kitchen time, and the latencies and the length
// can shift by a few minutes from run to run (the outcomes, in practice,
// do not). The Counters (reconciles, requeues, API requests) can differ by
// a few between runs even in virtual time, and so can the order of
// narration lines from different goroutines within one kitchen instant:
// same-instant events collapse on the rail, or collide in a write and
// retry, as the scheduler happens to run them. With a [Pacer] such as
// kitchentest.Conductor (in virtual time) nothing is left to the
// scheduler: the whole narration and the whole Summary are the same for a
// seed (examples/restaurant pins seed 1's in
// testdata/seed1-narration.golden).
func Run(ctx context.Context, w io.Writer, cfg Config) (Summary, error) {
	if cfg.Orders <= 0 {
		cfg.Orders = 30
	}
	plan := planDinner(cfg)
	kcfg := restaurant.Config{Minute: cfg.Minute, Out: w, Verbosity: cfg.Verbosity, Stock: plan.stock,
		Stations: dinnerStations(),
		// The story's cream goes off at minute 30; fresh cream comes at 40.
		Expiries:   map[string]time.Duration{"cream": 30 * time.Minute},
		Deliveries: []kitchen.Delivery{{At: 40 * time.Minute, Ingredient: "cream", Amount: plan.stock["cream"]}},
	}
	if cfg.Pacer != nil {
		cfg.Pacer.Pace(&kcfg)
	}
	r, err := restaurant.Open(ctx, kcfg)
	if err != nil {
		return Summary{}, err
	}
	obs := newObserver(r, plan.orders)
	if _, err := r.Runner.Orders.AddEventHandler(obs); err != nil {
		return Summary{}, err
	}
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	ran := make(chan error, 1)
	go func() { ran <- r.Run(runCtx) }()
	var serveErr error
	if r.WaitReady(runCtx) && cfg.waitTurn(runCtx) {
		serveErr = plan.serve(runCtx, r, obs, cfg)
	}
	if serveErr == nil {
		select {
		case <-obs.done:
			_ = r.Clock.Sleep(runCtx, 3*time.Minute) // let the chef tidy up
		case <-ctx.Done():
		}
	}
	stop()
	runErr := <-ran
	s := obs.summary(r, cfg)
	if serveErr != nil {
		return s, serveErr
	}
	if runErr != nil {
		return s, runErr
	}
	return s, ctx.Err()
}
