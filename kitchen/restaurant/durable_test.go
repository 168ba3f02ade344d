package restaurant_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
)

// A restaurant opened again on its DataDir finds its orders as they were,
// and goes on cooking new ones.
func TestRestaurantReopensOnItsDataDir(t *testing.T) {
	dir := t.TempDir()
	served := func(o *kitchen.Order) bool { return o != nil && o.Status.Phase == kitchen.OrderServed }
	service := func(t *testing.T, name string) (rv string) {
		synctest.Test(t, func(t *testing.T) {
			r, err := restaurant.Open(t.Context(), restaurant.Config{DataDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan error, 1)
			go func() { done <- r.Run(ctx) }()
			if !r.WaitReady(ctx) {
				t.Fatal("not ready")
			}
			if _, err := r.Waiter.Place(ctx, newOrder(name, 7, item("caesar-salad"))); err != nil {
				t.Fatal(err)
			}
			if err := r.WaitForOrder(ctx, name, served); err != nil {
				t.Fatal(err)
			}
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Run: %v", err)
			}
			// Read once everything has stopped: a watcher may hear of the
			// served order before the write that served it has returned,
			// and the chef may still be writing (its notes, say).
			rv = r.Server.ResourceVersion()
		})
		return rv
	}
	before := service(t, "first")
	synctest.Test(t, func(t *testing.T) {
		r, err := restaurant.Open(t.Context(), restaurant.Config{DataDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Server.ResourceVersion(); got != before {
			t.Errorf("reopened at resourceVersion %s, want %s", got, before)
		}
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- r.Run(ctx) }()
		if !r.WaitReady(ctx) {
			t.Fatal("not ready")
		}
		if err := r.WaitForOrder(ctx, "first", served); err != nil {
			t.Errorf("the first order after reopening: %v", err)
		}
		cancel()
		<-done
	})
	service(t, "second")
}

func newOrder(name string, table int, items ...kitchen.OrderItem) *kitchen.Order {
	return &kitchen.Order{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "dinner"},
		Spec: kitchen.OrderSpec{Table: table, Section: "main", Items: items}}
}

func item(dish string) kitchen.OrderItem {
	return kitchen.OrderItem{Dish: dish, Quantity: 1}
}
