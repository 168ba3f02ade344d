package restaurant_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/envtest/explore"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
)

// TestExploreTheChef runs the whole kitchen — the runner's informers, the
// chef and the brigade, wired by Open with Config.Remote on the
// explorer's view — under the explorer's plans: crashed between two
// writes, restarted on an older view, its informers lagging, coalesced,
// cut off or expired, a write refused with 409, down for a whole step. A
// crash restarts the whole kitchen process, stations and pantry included
// (as examples/chef does after a failover). Whatever happens, no order
// item ever has two cooks at once, and the dining room ends as in the
// unperturbed run.
func TestExploreTheChef(t *testing.T) {
	// Every plan there is (468) takes 6 s, 25 s under -race: the first
	// 120, in which the kinds, the steps and the informers take turns,
	// take 2 s (8 s under -race) and still try each kind at every step.
	rep := explore.Check(t, chefScenario(), explore.Options{MaxPlans: 120})
	t.Logf("%d plans (%d writes, %d events perturbed), %d runs in %v", rep.Plans, rep.Writes, rep.Events, rep.Runs, rep.Elapsed)
}

// startKitchen opens a restaurant on conn's view of the server and runs
// it. There are no lemons until a delivery long after closing: an order
// with a grilled salmon stays open, waiting for one.
func startKitchen(ctx context.Context, conn explore.Conn) error {
	stock := kitchen.DefaultPantry()
	stock["lemon"] = "0"
	lemons := []kitchen.Delivery{{At: 100000 * time.Hour, Ingredient: "lemon", Amount: "40"}}
	r, err := restaurant.Open(ctx, restaurant.Config{Minute: time.Millisecond, Stock: stock, Deliveries: lemons,
		Remote: conn.API, Tracer: conn.Tracer})
	if err != nil {
		return err
	}
	return r.Run(ctx)
}

// chefScenario is the kitchen under a dinner service of ten steps, with
// the invariant one cook per order item.
func chefScenario() explore.Scenario {
	return explore.Scenario{
		Kinds: kitchenKinds(),
		Setup: []explore.Step{{Name: "write the menu", Do: func(ctx context.Context, api client.Interface) error {
			for _, d := range kitchen.DefaultMenu() {
				if _, err := client.New[*kitchen.Dish](api).Create(ctx, d, meta.CreateOptions{}); err != nil {
					return err
				}
			}
			return nil
		}}},
		Controllers: []explore.Controller{{Name: "kitchen", Start: startKitchen}},
		// A kitchen minute lasts a millisecond of fake time, and the
		// explorer lets everything settle after each step: each order is
		// served, cancelled or waiting for lemons before the next step.
		// (A step that found a dish still cooking would make the end
		// state hang on timing: a restarted kitchen cooks it again from
		// the start.) So a change made while the chef works is made in
		// the same step, before the runner has brought him the first
		// version.
		Workload: []explore.Step{
			together(placeOrder("table-1", dish("beef-wellington", 1), dish("seafood-pasta", 2)),
				amend("table-1", "adds black truffle to the wellington", func(o *kitchen.Order) {
					o.Spec.Items[0].Extras = []string{"black-truffle"}
				})),
			together(placeOrder("table-2", dish("caesar-salad", 1)),
				amend("table-2", "swaps the salad for a soup", func(o *kitchen.Order) { o.Spec.Items[0].Dish = "tomato-soup" })),
			together(placeOrder("table-3", dish("grilled-salmon", 1), dish("chocolate-cake", 1)),
				amend("table-3", "drops the cake", func(o *kitchen.Order) { o.Spec.Items = o.Spec.Items[:1] })),
			together(placeOrder("table-4", dish("caesar-salad", 2)), leave("table-4")),
			placeOrder("table-5", dish("tomato-soup", 1), dish("seafood-pasta", 1)),
			amend("table-1", "adds a salad once served", func(o *kitchen.Order) {
				o.Spec.Items = append(o.Spec.Items, dish("caesar-salad", 1))
			}),
			leave("table-5"),
			// No lemon (see startKitchen): the salmon waits, so table-6's
			// order is still open when it changes, then leaves.
			placeOrder("table-6", dish("grilled-salmon", 1), dish("seafood-pasta", 1)),
			amend("table-6", "swaps the pasta for a soup", func(o *kitchen.Order) { o.Spec.Items[1].Dish = "tomato-soup" }),
			leave("table-6"),
		},
		Invariants: []explore.Invariant{oneCookPerItem()},
		// When a condition last changed depends on the plan: a kitchen
		// that was down serves later.
		Compare: []cmp.Option{cmpopts.IgnoreFields(meta.Condition{}, "LastTransitionTime")},
	}
}

// kitchenKinds returns the kinds of kitchen.NewScheme.
func kitchenKinds() []meta.KindInfo { return kitchen.NewScheme().Kinds() }

// The workload's steps: a table orders, amends its order or leaves.

func dish(name string, quantity int) kitchen.OrderItem {
	return kitchen.OrderItem{Dish: name, Quantity: quantity}
}

// together is one step that makes the writes of several, one after the
// other.
func together(steps ...explore.Step) explore.Step {
	var names []string
	for _, st := range steps {
		names = append(names, st.Name)
	}
	return explore.Step{Name: strings.Join(names, ", then "), Do: func(ctx context.Context, api client.Interface) error {
		for _, st := range steps {
			if err := st.Do(ctx, api); err != nil {
				return err
			}
		}
		return nil
	}}
}

func placeOrder(table string, items ...kitchen.OrderItem) explore.Step {
	return explore.Step{Name: table + " orders", Do: func(ctx context.Context, api client.Interface) error {
		o := &kitchen.Order{ObjectMeta: meta.ObjectMeta{Namespace: "dinner", Name: table},
			Spec: kitchen.OrderSpec{Table: 1, Section: "main", Items: items}}
		_, err := client.New[*kitchen.Order](api).Create(ctx, o, meta.CreateOptions{})
		return err
	}}
}

func amend(table, what string, edit func(*kitchen.Order)) explore.Step {
	return explore.Step{Name: table + " " + what, Do: func(ctx context.Context, api client.Interface) error {
		orders := client.New[*kitchen.Order](api).Namespace("dinner")
		return client.RetryOnConflict(client.DefaultRetry, func() error {
			o, err := orders.Get(ctx, table, meta.GetOptions{})
			if err != nil {
				return err
			}
			edit(o)
			_, err = orders.Update(ctx, o, meta.UpdateOptions{})
			return err
		})
	}}
}

func leave(table string) explore.Step {
	return explore.Step{Name: table + " leaves", Do: func(ctx context.Context, api client.Interface) error {
		return client.New[*kitchen.Order](api).Namespace("dinner").Delete(ctx, table, meta.DeleteOptions{})
	}}
}

// oneCookPerItem: no item of an order ever has two cooks (not being
// deleted) at once — the chef replaces a cook by deleting it first.
func oneCookPerItem() explore.Invariant {
	return explore.Invariant{Name: "one cook per order item", Check: func(ctx context.Context, api client.Interface) error {
		cooks, _, err := client.New[*kitchen.Cook](api).List(ctx, meta.ListOptions{})
		if err != nil {
			return err
		}
		byItem := map[string][]string{}
		for _, c := range cooks {
			if c.DeletionTimestamp == nil {
				item := fmt.Sprintf("%s/%s item %d", c.Namespace, c.Spec.Order, c.Spec.Item)
				byItem[item] = append(byItem[item], c.Name)
			}
		}
		for _, item := range slices.Sorted(maps.Keys(byItem)) {
			if names := byItem[item]; len(names) > 1 {
				return fmt.Errorf("%s has %d cooks: %v", item, len(names), names)
			}
		}
		return nil
	}}
}
