package restaurant_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
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

// Behind every queue kind of the runner an order is served. Only behind
// the atomic queue, whose caches report how far they have caught up, does
// the chef read his own writes through Freshness; behind the others the
// caches cannot tell (their resourceVersion is ""), so he has no
// Freshness, skips nothing, and asks the API server before he sends a
// cook. (With Freshness over such caches, before the fix, he skipped
// every ticket and never served.)
func TestEveryQueueKindServes(t *testing.T) {
	for _, k := range []informer.QueueKind{informer.QueueAtomic, informer.QueueInOrder, informer.QueueDeltaFIFO} {
		t.Run(k.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r, err := restaurant.Open(t.Context(), restaurant.Config{InformerOptions: []informer.FactoryOption{informer.WithQueue(k)}})
				if err != nil {
					t.Fatal(err)
				}
				// Served in well under a second of the bubble's time; a
				// chef who skips every ticket fails at the deadline.
				ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
				done := make(chan error, 1)
				go func() { done <- r.Run(ctx) }()
				r.WaitReady(ctx)
				o := &kitchen.Order{ObjectMeta: meta.ObjectMeta{Name: "t1"},
					Spec: kitchen.OrderSpec{Table: 1, Items: []kitchen.OrderItem{{Dish: "caesar-salad", Quantity: 1}, {Dish: "seafood-pasta", Quantity: 2}}}}
				if _, err := r.Waiter.Place(ctx, o); err != nil {
					t.Fatal(err)
				}
				if err := r.WaitForOrder(ctx, "t1", func(o *kitchen.Order) bool { return o != nil && o.Status.Phase == kitchen.OrderServed }); err != nil {
					t.Fatal(err)
				}
				if got, want := r.Chef.Freshness != nil, k == informer.QueueAtomic; got != want {
					t.Errorf("the chef reads his own writes: %v, want %v", got, want)
				}
				if k != informer.QueueAtomic {
					if got := r.ChefMetrics().StaleSyncSkips; got != 0 {
						t.Errorf("StaleSyncSkips = %d, want 0", got)
					}
				}
				cancel()
				if err := <-done; err != nil {
					t.Errorf("Run: %v", err)
				}
			})
		})
	}
}
