package restaurant_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/rest"
	"github.com/kitchensync/kitchensync/apiserver/rest/resttest"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
)

// A chef in another process: the front desk serves the API over HTTP and
// cooks nothing (DeskOnly); a second restaurant, with Config.Remote, lists
// and watches the desk through a rest.Client and writes its finalizers,
// cooks, statuses and events back over the wire. The order is served,
// with one cook per item, as in process, and the chef's notes are on the
// desk as Events about the order.
func TestKitchenOverHTTP(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		desk, err := restaurant.Open(ctx, restaurant.Config{Minute: time.Second, DeskOnly: true, Events: true})
		if err != nil {
			t.Fatal(err)
		}
		ts := resttest.NewServer(t, httpapi.NewHandler(desk.Server))
		scheme := kitchen.NewScheme()
		if err := builtin.Register(scheme); err != nil {
			t.Fatal(err)
		}
		c, err := rest.New(&ts.Config, scheme)
		if err != nil {
			t.Fatal(err)
		}
		defer c.CloseIdleConnections()
		chef, err := restaurant.Open(ctx, restaurant.Config{Minute: time.Second, Remote: c, Events: true, Instance: "chef-1"})
		if err != nil {
			t.Fatal(err)
		}
		if chef.Server != nil {
			t.Errorf("a remote kitchen has a server of its own")
		}
		var wg sync.WaitGroup
		defer wg.Wait()
		defer cancel()
		for _, r := range []*restaurant.Restaurant{desk, chef} {
			wg.Go(func() {
				if err := r.Run(ctx); err != nil {
					t.Errorf("Run = %v", err)
				}
			})
			if !r.WaitReady(ctx) {
				t.Fatal("not ready")
			}
		}
		order := &kitchen.Order{ObjectMeta: meta.ObjectMeta{Name: "table-7"},
			Spec: kitchen.OrderSpec{Table: 7, Items: []kitchen.OrderItem{{Dish: "tomato-soup", Quantity: 2}, {Dish: "seafood-pasta", Quantity: 1}}}}
		if _, err := desk.Waiter.Place(ctx, order); err != nil {
			t.Fatal(err)
		}
		served := func(o *kitchen.Order) bool { return o != nil && o.Status.Phase == kitchen.OrderServed }
		if err := desk.WaitForOrder(ctx, "table-7", served); err != nil {
			t.Fatal(err)
		}
		synctest.Wait() // the chef clears the served order's cooks away, and the recorder writes after the status
		if n := desk.Server.RequestCount(apiserver.VerbCreate, kitchen.CookResource.GroupResource()); n != 2 {
			t.Errorf("%d cooks created on the desk, want one per item (2)", n)
		}
		cooks, _, err := client.New[*kitchen.Cook](desk.Server).Namespace("dinner").List(ctx, meta.ListOptions{})
		if err != nil || len(cooks) != 0 {
			t.Errorf("cooks left once the order is served: %d (%v), want none", len(cooks), err)
		}
		events, err := desk.Server.Resource(builtin.EventsResource).Namespace("dinner").List(ctx, meta.ListOptions{
			FieldSelector: "involvedObject.kind=Order,involvedObject.name=table-7"})
		if err != nil {
			t.Fatal(err)
		}
		var notes []string
		for _, o := range events.Items {
			e := o.(*builtin.Event)
			notes = append(notes, fmt.Sprintf("%s %s %s/%s: %s", e.Type, e.Reason, e.Source.Component, e.ReportingInstance, e.Message))
		}
		want := []string{
			"Normal Pending chef/chef-1: (new) → Pending: 2× tomato-soup, 1× seafood-pasta",
			"Normal Cooking chef/chef-1: Pending → Cooking: 2× tomato-soup, 1× seafood-pasta",
			"Normal Ready chef/chef-1: Cooking → Ready: 2× tomato-soup, 1× seafood-pasta",
			"Normal Served chef/chef-1: Ready → Served: 2× tomato-soup, 1× seafood-pasta",
		}
		if diff := cmp.Diff(want, notes); diff != "" {
			t.Errorf("the order's events (-want +got):\n%s", diff)
		}
	})
}

// A remote client whose scheme does not know the kitchen's kinds is
// refused by Open, with the reason.
func TestKitchenRemoteNeedsTheKitchenScheme(t *testing.T) {
	c, err := rest.New(&rest.Config{Host: "http://localhost"}, meta.NewScheme())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := restaurant.Open(t.Context(), restaurant.Config{Remote: c}); err == nil {
		t.Fatal("Open with a scheme without Order: no error")
	}
}
