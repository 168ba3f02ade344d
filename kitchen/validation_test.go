package kitchen_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/narration"
)

// causeFields returns the fields an Invalid error names.
func causeFields(t *testing.T, err error) []string {
	t.Helper()
	if !meta.IsInvalid(err) {
		t.Fatalf("want an Invalid error, got %v", err)
	}
	var se *meta.StatusError
	if !errors.As(err, &se) || se.ErrStatus.Details == nil {
		t.Fatalf("no details in %v", err)
	}
	var fields []string
	for _, c := range se.ErrStatus.Details.Causes {
		fields = append(fields, c.Field)
	}
	return fields
}

func TestValidateOrder(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		order  kitchen.Order
		fields []string // nil: valid
	}{{
		name:  "valid",
		order: kitchen.Order{Spec: kitchen.OrderSpec{Table: 1, Items: []kitchen.OrderItem{{Dish: "soup", Quantity: 2}}}},
	}, {
		name:   "zero quantity",
		reason: "a portion count below one means nothing to cook",
		order:  kitchen.Order{Spec: kitchen.OrderSpec{Table: 1, Items: []kitchen.OrderItem{{Dish: "soup"}}}},
		fields: []string{"spec.items[0].quantity"},
	}, {
		name:   "everything wrong",
		reason: "every problem is reported at once, each naming its field",
		order: kitchen.Order{ObjectMeta: meta.ObjectMeta{Name: "T1"},
			Spec: kitchen.OrderSpec{Section: "V I P", Items: []kitchen.OrderItem{{Quantity: -1, Extras: []string{"Black Truffle"}}}}},
		fields: []string{"metadata.name", "spec.table", "spec.section", "spec.items[0].dish",
			"spec.items[0].quantity", "spec.items[0].extras[0]"},
	}, {
		name:   "no items",
		reason: "an empty order is a mistake",
		order:  kitchen.Order{Spec: kitchen.OrderSpec{Table: 3}},
		fields: []string{"spec.items"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.order.Name == "" {
				tt.order.GenerateName = "table-"
			}
			err := kitchen.ValidateOrder(&tt.order)
			if tt.fields == nil {
				if err != nil {
					t.Fatalf("valid order refused: %v", err)
				}
				return
			}
			if diff := cmp.Diff(tt.fields, causeFields(t, err)); diff != "" {
				t.Errorf("%s: fields (-want +got):\n%s", tt.reason, diff)
			}
		})
	}
}

func TestValidateDish(t *testing.T) {
	d := &kitchen.Dish{ObjectMeta: meta.ObjectMeta{Name: "toast"},
		Spec: kitchen.DishSpec{Ingredients: map[string]kitchen.Quantity{"bread": "lots", "butter": "0g"}, Difficulty: 6}}
	want := []string{"spec.ingredients[bread]", "spec.ingredients[butter]", "spec.cookingTime", "spec.difficulty"}
	if diff := cmp.Diff(want, causeFields(t, kitchen.ValidateDish(d))); diff != "" {
		t.Errorf("fields (-want +got):\n%s", diff)
	}
	d.Spec = kitchen.DishSpec{Ingredients: map[string]kitchen.Quantity{"bread": "2"}, Difficulty: 1,
		CookingTime: kitchen.Duration{Duration: 3 * time.Minute}}
	if err := kitchen.ValidateDish(d); err != nil {
		t.Errorf("valid dish refused: %v", err)
	}
}

func TestParseQuantity(t *testing.T) {
	tests := []struct {
		in   kitchen.Quantity
		want kitchen.Amount
		bad  bool
	}{
		{in: "500g", want: kitchen.Amount{Value: 500, Unit: kitchen.Grams}},
		{in: "1.5kg", want: kitchen.Amount{Value: 1500, Unit: kitchen.Grams}},
		{in: "200ml", want: kitchen.Amount{Value: 200, Unit: kitchen.Millilitres}},
		{in: "1l", want: kitchen.Amount{Value: 1000, Unit: kitchen.Millilitres}},
		{in: "3", want: kitchen.Amount{Value: 3, Unit: kitchen.Pieces}},
		{in: "3pcs", want: kitchen.Amount{Value: 3, Unit: kitchen.Pieces}},
		{in: "0.5g", bad: true},
		{in: "-2g", bad: true},
		{in: "g", bad: true},
		{in: "5 tons", bad: true},
		{in: "", bad: true},
	}
	for _, tt := range tests {
		got, err := kitchen.ParseQuantity(tt.in)
		if tt.bad != (err != nil) || got != tt.want {
			t.Errorf("ParseQuantity(%q) = %v, %v; want %v (bad=%v)", tt.in, got, err, tt.want, tt.bad)
		}
	}
}

func TestNilInputsDoNotPanic(t *testing.T) {
	if !meta.IsBadRequest(kitchen.ValidateOrder(nil)) || !meta.IsBadRequest(kitchen.ValidateDish(nil)) {
		t.Error("nil order or dish: want a BadRequest")
	}
	if kitchen.TicketPriority(nil) != 0 {
		t.Error("nil order has a priority")
	}
	var c kitchen.Clock
	if c.Real(time.Minute) != kitchen.DefaultMinute || c.Kitchen(kitchen.DefaultMinute) != time.Minute {
		t.Error("the zero Clock does not run at the default minute")
	}
	narration.New(nil, nil, narration.Everything).Say("test", "no writer, no clock: %d", 1)
	s := kitchen.NewStations(nil, nil, map[string]int{"stove": 1})
	defer s.Close()
	if s.Stop("nobody") != "" {
		t.Error("stopping an unknown cook")
	}
}
