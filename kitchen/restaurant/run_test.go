package restaurant_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
)

// A restaurant that fails to open, or whose Run ends before the runner has
// synced, leaves no goroutine behind: synctest fails the bubble if one is
// still blocked when it ends.
func TestRestaurantLeavesNothingRunning(t *testing.T) {
	t.Run("Open fails on a menu that lists a dish twice", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			menu := kitchen.DefaultMenu()
			menu = append(menu, menu[0])
			_, err := restaurant.Open(t.Context(), restaurant.Config{Menu: menu})
			if !meta.IsAlreadyExists(err) {
				t.Fatalf("Open = %v, want AlreadyExists for the repeated dish", err)
			}
		})
	})
	t.Run("Run with a context already done", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			r, err := restaurant.Open(t.Context(), restaurant.Config{})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(t.Context())
			cancel()
			if err := r.Run(ctx); err != nil {
				t.Errorf("Run = %v, want nil", err)
			}
		})
	})
}

func TestRestaurantRunsOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, err := restaurant.Open(t.Context(), restaurant.Config{})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- r.Run(ctx) }()
		if !r.WaitReady(ctx) {
			t.Fatal("not ready")
		}
		if err := r.Run(ctx); err == nil {
			t.Error("a second Run was accepted")
		}
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
}

// The chef's controller checks freshness (reconcile.Options.Freshness)
// over the runner's orders and cooks caches, which the chef's writes are
// recorded against: its metrics carry store_resource_version for both.
func TestChefReadsItsOwnWrites(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, err := restaurant.Open(t.Context(), restaurant.Config{})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- r.Run(ctx) }()
		r.WaitReady(ctx)
		o := &kitchen.Order{ObjectMeta: meta.ObjectMeta{Name: "t1"},
			Spec: kitchen.OrderSpec{Table: 1, Items: []kitchen.OrderItem{{Dish: "caesar-salad", Quantity: 1}}}}
		if _, err := r.Waiter.Place(ctx, o); err != nil {
			t.Fatal(err)
		}
		if err := r.WaitForOrder(ctx, "t1", func(o *kitchen.Order) bool { return o != nil && o.Status.Phase == kitchen.OrderServed }); err != nil {
			t.Fatal(err)
		}
		if r.Chef.Freshness == nil {
			t.Fatal("the chef records no writes")
		}
		var resources []string
		for _, v := range r.ChefMetrics().StoreResourceVersions {
			if v.Version > 0 {
				resources = append(resources, v.Resource.Resource)
			}
		}
		if diff := cmp.Diff([]string{"cooks", "orders"}, resources); diff != "" {
			t.Errorf("store_resource_version by resource (-want +got):\n%s", diff)
		}
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
}
