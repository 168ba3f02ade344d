package kitchen_test

import (
	"fmt"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
)

// Recipes write quantities as people do; the pantry counts base units.
func ExampleParseQuantity() {
	for _, q := range []kitchen.Quantity{"500g", "1.5kg", "200ml", "1l", "4", "a pinch"} {
		a, err := kitchen.ParseQuantity(q)
		fmt.Printf("%-8s → %v %v\n", q, a, err)
	}
	// Output:
	// 500g     → 500g <nil>
	// 1.5kg    → 1500g <nil>
	// 200ml    → 200ml <nil>
	// 1l       → 1000ml <nil>
	// 4        → 4pcs <nil>
	// a pinch  → 0 quantity "a pinch": unknown unit "a pinch" (use g, kg, ml, l, pcs or none)
}

// A reservation is declarative, like a reconciler: Reserve says what a
// cook should hold, and taking it twice takes nothing more. What was
// reserved ends used, released or wasted, and the ledger always
// balances.
func ExamplePantry() {
	p, _ := kitchen.NewPantry(map[string]kitchen.Quantity{"black-truffle": "30g", "spaghetti": "1kg"})
	pasta := map[string]kitchen.Amount{"spaghetti": {Value: 200, Unit: kitchen.Grams}}
	p.Reserve(0, "dinner/table-7-0", pasta)
	p.Reserve(0, "dinner/table-7-0", pasta) // again: nothing changes
	pasta["black-truffle"] = kitchen.Amount{Value: 10, Unit: kitchen.Grams}
	p.Reserve(5*time.Minute, "dinner/table-7-0", pasta) // the table adds truffle
	p.Use("dinner/table-7-0")

	err := p.Reserve(6*time.Minute, "dinner/table-9-0", map[string]kitchen.Amount{"black-truffle": {Value: 40, Unit: kitchen.Grams}})
	fmt.Println(err)
	for _, name := range []string{"black-truffle", "spaghetti"} {
		l := p.Ledgers(10 * time.Minute)[name]
		fmt.Printf("%s: opening %d, used %d, on the shelf %d\n", name, l.Opening, l.Used, l.Shelf)
	}
	fmt.Println("balanced:", p.Check() == nil)
	// Output:
	// out of black-truffle: need 40g, have 20g
	// black-truffle: opening 30, used 10, on the shelf 20
	// spaghetti: opening 1000, used 200, on the shelf 800
	// balanced: true
}

// An order is checked before it reaches the kitchen, as kubectl checks a
// manifest against the schema; each problem names its field.
func ExampleValidateOrder() {
	o := &kitchen.Order{
		ObjectMeta: meta.ObjectMeta{Name: "table-7"},
		Spec: kitchen.OrderSpec{Table: 7, Items: []kitchen.OrderItem{
			{Dish: "beef-wellington", Quantity: 0},
			{Dish: "seafood-pasta", Quantity: 1, Extras: []string{"Black Truffle"}},
		}},
	}
	err := kitchen.ValidateOrder(o)
	fmt.Println(meta.IsInvalid(err))
	fmt.Println(err)
	// Output:
	// true
	// Order.menu.example.com "table-7" is invalid: [spec.items[0].quantity: Invalid value: 0: must be at least 1, spec.items[1].extras[0]: Invalid value: "Black Truffle": an extra is an ingredient name such as black-truffle]
}

// One kitchen minute lasts a few real milliseconds.
func ExampleClock() {
	c := kitchen.NewClock(5 * time.Millisecond)
	fmt.Println("a 40-minute Beef Wellington takes", c.Real(40*time.Minute))
	// Output:
	// a 40-minute Beef Wellington takes 200ms
}
