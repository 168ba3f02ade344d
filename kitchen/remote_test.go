package kitchen_test

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/rest"
	"github.com/kitchensync/kitchensync/apiserver/rest/resttest"
	"github.com/kitchensync/kitchensync/kitchen"
)

// A chef in another process: the front desk serves the API over HTTP and
// cooks nothing (DeskOnly); a second restaurant, with Config.Remote, lists
// and watches the desk through a rest.Client and writes its finalizers,
// cooks and statuses back over the wire. The order is served, with one
// cook per item, as in process.
func TestKitchenOverHTTP(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		desk, err := kitchen.Open(ctx, kitchen.Config{Minute: time.Second, DeskOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		ts := resttest.NewServer(t, httpapi.NewHandler(desk.Server))
		c, err := rest.New(&ts.Config, kitchen.NewScheme())
		if err != nil {
			t.Fatal(err)
		}
		defer c.CloseIdleConnections()
		chef, err := kitchen.Open(ctx, kitchen.Config{Minute: time.Second, Remote: c})
		if err != nil {
			t.Fatal(err)
		}
		if chef.Server != nil {
			t.Errorf("a remote kitchen has a server of its own")
		}
		var wg sync.WaitGroup
		defer wg.Wait()
		defer cancel()
		for _, r := range []*kitchen.Restaurant{desk, chef} {
			wg.Go(func() {
				if err := r.Run(ctx); err != nil {
					t.Errorf("Run = %v", err)
				}
			})
			if !r.WaitReady(ctx) {
				t.Fatal("not ready")
			}
		}
		order := &kitchen.Order{ObjectMeta: apiserver.ObjectMeta{Name: "table-7"},
			Spec: kitchen.OrderSpec{Table: 7, Items: []kitchen.OrderItem{{Dish: "tomato-soup", Quantity: 2}, {Dish: "seafood-pasta", Quantity: 1}}}}
		if _, err := desk.Waiter.Place(ctx, order); err != nil {
			t.Fatal(err)
		}
		served := func(o *kitchen.Order) bool { return o != nil && o.Status.Phase == kitchen.OrderServed }
		if err := desk.WaitForOrder(ctx, "table-7", served); err != nil {
			t.Fatal(err)
		}
		cooks, _, err := apiserver.NewClient[*kitchen.Cook](desk.Server).Namespace("dinner").List(ctx, apiserver.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(cooks) != 2 {
			t.Errorf("%d cooks on the desk, want one per item (2)", len(cooks))
		}
		for _, ck := range cooks {
			if ck.Status.Phase != kitchen.CookDone {
				t.Errorf("cook %s is %s, want Done", ck.Name, ck.Status.Phase)
			}
		}
	})
}

// A remote client whose scheme does not know the kitchen's kinds is
// refused by Open, with the reason.
func TestKitchenRemoteNeedsTheKitchenScheme(t *testing.T) {
	c, err := rest.New(&rest.Config{Host: "http://localhost"}, apiserver.NewScheme())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kitchen.Open(t.Context(), kitchen.Config{Remote: c}); err == nil {
		t.Fatal("Open with a scheme without Order: no error")
	}
}
