package kitchen_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
)

// The API server holds the restaurant's rules itself, as a CRD's schema
// does: a write that goes straight to it, without the waiter's check
// before, is refused whole with 422 Invalid naming the field, and nothing
// is stored (no object, no new resourceVersion, no event).
func TestServerRefusesInvalidObjects(t *testing.T) {
	ctx := t.Context()
	good := func() *kitchen.Order {
		return &kitchen.Order{ObjectMeta: meta.ObjectMeta{Name: "table-1", Namespace: "dinner"},
			Spec: kitchen.OrderSpec{Table: 1, Items: []kitchen.OrderItem{{Dish: "soup", Quantity: 1}}}}
	}
	cook := func() *kitchen.Cook {
		return &kitchen.Cook{ObjectMeta: meta.ObjectMeta{Name: "table-1-0-g1", Namespace: "dinner"},
			Spec: kitchen.CookSpec{Order: "table-1", Dish: "soup", Quantity: 1, Station: "stove",
				CookingTime: kitchen.Duration{Duration: 10 * time.Minute}}}
	}
	tests := []struct {
		name   string
		reason string
		create func(srv *apiserver.Server) error
		fields []string
	}{{
		name:   "order with no table and a zero quantity",
		reason: "the waiter would have refused it; a client that skips the waiter meets the same rules",
		create: func(srv *apiserver.Server) error {
			o := good()
			o.Spec.Table, o.Spec.Items[0].Quantity = 0, 0
			_, err := client.New[*kitchen.Order](srv).Namespace("dinner").Create(ctx, o, meta.CreateOptions{})
			return err
		},
		fields: []string{"spec.table", "spec.items[0].quantity"},
	}, {
		name:   "dish with difficulty 9",
		reason: "difficulty runs from 1 to 5",
		create: func(srv *apiserver.Server) error {
			d := &kitchen.Dish{ObjectMeta: meta.ObjectMeta{Name: "soup"}, Spec: kitchen.DishSpec{
				Ingredients: map[string]kitchen.Quantity{"tomato": "300g"},
				CookingTime: kitchen.Duration{Duration: 10 * time.Minute}, Difficulty: 9}}
			_, err := client.New[*kitchen.Dish](srv).Create(ctx, d, meta.CreateOptions{})
			return err
		},
		fields: []string{"spec.difficulty"},
	}, {
		name:   "cook without a station",
		reason: "a cook is pod-like: it must say where it works",
		create: func(srv *apiserver.Server) error {
			c := cook()
			c.Spec.Station = ""
			_, err := client.New[*kitchen.Cook](srv).Namespace("dinner").Create(ctx, c, meta.CreateOptions{})
			return err
		},
		fields: []string{"spec.station"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
			rv := srv.ResourceVersion()
			err := tt.create(srv)
			if diff := cmp.Diff(tt.fields, causeFields(t, err)); diff != "" {
				t.Errorf("%s\nfields named (-want +got):\n%s", tt.reason, diff)
			}
			if got := srv.ResourceVersion(); got != rv {
				t.Errorf("resourceVersion moved %s → %s: something was stored", rv, got)
			}
			for _, gvr := range []meta.GroupVersionResource{kitchen.OrderResource, kitchen.DishResource, kitchen.CookResource} {
				l, err := srv.Resource(gvr).List(ctx, meta.ListOptions{})
				if err != nil || len(l.Items) != 0 {
					t.Errorf("%s after the refused create: %d items, %v", gvr.Resource, len(l.Items), err)
				}
			}
		})
	}
}

// An update that breaks a rule is refused too, and the stored order stays
// as it was; a valid one goes through.
func TestServerRefusesInvalidUpdate(t *testing.T) {
	ctx := t.Context()
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	orders := client.New[*kitchen.Order](srv).Namespace("dinner")
	o, err := orders.Create(ctx, &kitchen.Order{ObjectMeta: meta.ObjectMeta{Name: "table-2"},
		Spec: kitchen.OrderSpec{Table: 2, Items: []kitchen.OrderItem{{Dish: "soup", Quantity: 1}}}}, meta.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	bad := meta.DeepCopy(o)
	bad.Spec.Items[0].Extras = []string{"Black Truffle"}
	_, err = orders.Update(ctx, bad, meta.UpdateOptions{})
	if diff := cmp.Diff([]string{"spec.items[0].extras[0]"}, causeFields(t, err)); diff != "" {
		t.Errorf("fields named (-want +got):\n%s", diff)
	}
	stored, err := orders.Get(ctx, "table-2", meta.GetOptions{})
	if err != nil || stored.ResourceVersion != o.ResourceVersion || len(stored.Spec.Items[0].Extras) != 0 {
		t.Errorf("after the refused update: %+v, %v; want rv %s unchanged", stored, err, o.ResourceVersion)
	}
	bad.Spec.Items[0].Extras = []string{"black-truffle"}
	if _, err := orders.Update(ctx, bad, meta.UpdateOptions{}); err != nil {
		t.Errorf("a valid update: %v", err)
	}
}
