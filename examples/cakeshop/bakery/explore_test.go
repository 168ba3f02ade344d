package bakery_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/envtest/explore"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/examples/cakeshop/bakery"
)

// world is what outlives a crash of the shop's controllers: the kitchen
// (trays, ovens), the till, the clock and the journal. Each run makes its
// own (the setup step); every incarnation of the shop in that run shares
// it.
type world struct {
	kitchen *bakery.Kitchen
	till    *bakery.Till
	clock   *bakery.Clock
	journal *bakery.Journal
}

// TestExploreTheShop runs the cake shop — the front desk, the baker and
// the oven, wired by NewShop on the explorer's view — under every plan of
// the explorer: crashed between two writes, restarted on an older view,
// its informers lagging, coalesced, cut off or expired, a write refused
// with 409, down for a whole step. Whatever happens, no cake ever has two
// sponges in the oven at once, no deposit is refunded for an order that
// is not cancelled, and the shop ends as in the unperturbed run, the
// till's refunds included.
func TestExploreTheShop(t *testing.T) {
	w := &world{}
	rep := explore.Check(t, shopScenario(w), explore.Options{})
	t.Logf("%d plans (%d writes, %d events perturbed), %d runs in %v", rep.Plans, rep.Writes, rep.Events, rep.Runs, rep.Elapsed)
}

// shopScenario is the shop under seven steps of customers, reaching the
// run's world through w.
func shopScenario(w *world) explore.Scenario {
	return explore.Scenario{
		Kinds: bakery.Kinds(),
		Setup: []explore.Step{{Name: "open the kitchen", Do: func(context.Context, client.Interface) error {
			*w = world{kitchen: bakery.NewKitchen(), till: &bakery.Till{}, clock: bakery.NewClock(0), journal: bakery.NewJournal(nil)}
			return nil
		}}},
		Controllers: []explore.Controller{{Name: "shop", Start: func(ctx context.Context, conn explore.Conn) error {
			shop, err := bakery.NewShop(bakery.ShopOptions{Server: conn.API, Clock: w.clock, Journal: w.journal,
				Kitchen: w.kitchen, Till: w.till, Brief: true})
			if err != nil {
				return err
			}
			return shop.Run(ctx)
		}}},
		Workload: []explore.Step{
			placeCake(w, "birthday", bakery.CakeSpec{Flavor: "vanilla", Size: 6, Decoration: "Happy Birthday"}),
			placeCake(w, "wedding", bakery.CakeSpec{Flavor: "double-chocolate", Size: 10, Layers: 3, Decoration: "Forever"}),
			changeCake("birthday", "a new plaque", func(s *bakery.CakeSpec) { s.Decoration = "Happy 40th" }),
			changeCake("wedding", "red velvet instead", func(s *bakery.CakeSpec) { s.Flavor = "red-velvet" }),
			cancelCake("birthday"),
			placeCake(w, "vip", bakery.CakeSpec{Flavor: "matcha", Size: 8, Priority: 1000}),
			cancelCake("wedding"),
		},
		Invariants: []explore.Invariant{oneSpongeInTheOven(), refundsOnlyCancelled(w)},
		EndState: func(ctx context.Context, api client.Interface) (any, error) {
			objs, err := explore.Objects(ctx, api)
			return map[string]any{"objects": objs, "refunded": w.till.Refunded()}, err
		},
		// When a condition changed and when a sponge is due depend on
		// the plan: a shop that was down bakes later.
		Compare: []cmp.Option{cmpopts.IgnoreFields(meta.Condition{}, "LastTransitionTime"),
			cmpopts.IgnoreFields(bakery.BakeStatus{}, "ReadyAt")},
	}
}

// The workload's steps: a customer orders, changes or cancels a cake.

func placeCake(w *world, name string, spec bakery.CakeSpec) explore.Step {
	return explore.Step{Name: "order " + name, Do: func(ctx context.Context, api client.Interface) error {
		desk := bakery.OrderDesk{Client: client.New[*bakery.Cake](api), Till: w.till}
		_, err := desk.Place(ctx, &bakery.Cake{ObjectMeta: meta.ObjectMeta{Namespace: "haidian", Name: name}, Spec: spec})
		return err
	}}
}

func changeCake(name, what string, edit func(*bakery.CakeSpec)) explore.Step {
	return explore.Step{Name: name + ": " + what, Do: func(ctx context.Context, api client.Interface) error {
		cakes := client.New[*bakery.Cake](api).Namespace("haidian")
		return client.RetryOnConflict(client.DefaultRetry, func() error {
			c, err := cakes.Get(ctx, name, meta.GetOptions{})
			if err != nil {
				return err
			}
			edit(&c.Spec)
			_, err = cakes.Update(ctx, c, meta.UpdateOptions{})
			return err
		})
	}}
}

func cancelCake(name string) explore.Step {
	return explore.Step{Name: "cancel " + name, Do: func(ctx context.Context, api client.Interface) error {
		return client.New[*bakery.Cake](api).Namespace("haidian").Delete(ctx, name, meta.DeleteOptions{})
	}}
}

// oneSpongeInTheOven: no cake ever has two Bakes in the oven (not yet
// Done or Collapsed) at once.
func oneSpongeInTheOven() explore.Invariant {
	return explore.Invariant{Name: "one sponge in the oven per cake", Check: func(ctx context.Context, api client.Interface) error {
		bakes, _, err := client.New[*bakery.Bake](api).List(ctx, meta.ListOptions{})
		if err != nil {
			return err
		}
		inOven := map[string][]string{}
		for _, b := range bakes {
			if b.DeletionTimestamp == nil && b.Status.Phase != bakery.BakeDone && b.Status.Phase != bakery.BakeCollapsed {
				cake := b.Namespace + "/" + b.Spec.Cake
				inOven[cake] = append(inOven[cake], b.Name)
			}
		}
		for _, cake := range slices.Sorted(maps.Keys(inOven)) {
			if names := inOven[cake]; len(names) > 1 {
				return fmt.Errorf("cake %s has %d sponges in the oven: %v", cake, len(names), names)
			}
		}
		return nil
	}}
}

// refundsOnlyCancelled: the till refunds only orders that are cancelled
// (being deleted) or gone.
func refundsOnlyCancelled(w *world) explore.Invariant {
	return explore.Invariant{Name: "refunds only for cancelled orders", Check: func(ctx context.Context, api client.Interface) error {
		cakes := client.New[*bakery.Cake](api)
		for _, key := range w.till.Refunded() {
			ns, name, _ := strings.Cut(key, "/")
			c, err := cakes.Namespace(ns).Get(ctx, name, meta.GetOptions{})
			if err == nil && c.DeletionTimestamp == nil {
				return fmt.Errorf("%s was refunded, but it is not cancelled", key)
			}
			if err != nil && !meta.IsNotFound(err) {
				return err
			}
		}
		return nil
	}}
}
