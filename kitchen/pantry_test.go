package kitchen_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/kitchen"
)

const minute = time.Minute

func grams(n int64) kitchen.Amount { return kitchen.Amount{Value: n, Unit: kitchen.Grams} }

func newPantry(t *testing.T, stock map[string]kitchen.Quantity) *kitchen.Pantry {
	t.Helper()
	p, err := kitchen.NewPantry(stock)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// checkPantry is the invariant checker run after every step.
func checkPantry(t testing.TB, p *kitchen.Pantry) {
	t.Helper()
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
}

func TestPantryReserveIsDeclarative(t *testing.T) {
	p := newPantry(t, map[string]kitchen.Quantity{"filet-mignon": "1kg", "black-truffle": "30g"})
	need := map[string]kitchen.Amount{"filet-mignon": grams(500)}
	for range 2 { // the second call must change nothing
		if err := p.Reserve(0, "t1-0", need); err != nil {
			t.Fatal(err)
		}
		checkPantry(t, p)
		if got := p.Level(0, "filet-mignon"); got != grams(500) {
			t.Fatalf("shelf after reserve: %v, want 500g", got)
		}
	}
	// The customer adds black truffle: only the truffle is taken.
	need["black-truffle"] = grams(10)
	if err := p.Reserve(minute, "t1-0", need); err != nil {
		t.Fatal(err)
	}
	checkPantry(t, p)
	if diff := cmp.Diff(need, p.Held("t1-0")); diff != "" {
		t.Errorf("held (-want +got):\n%s", diff)
	}
	// Then changes their mind: the truffle goes back to the shelf.
	delete(need, "black-truffle")
	if err := p.Reserve(2*minute, "t1-0", need); err != nil {
		t.Fatal(err)
	}
	checkPantry(t, p)
	if got := p.Level(0, "black-truffle"); got != grams(30) {
		t.Errorf("truffle on the shelf: %v, want 30g", got)
	}
}

func TestPantryShortageIsAllOrNothing(t *testing.T) {
	p := newPantry(t, map[string]kitchen.Quantity{"filet-mignon": "1kg", "puff-pastry": "100g"})
	err := p.Reserve(0, "t1-0", map[string]kitchen.Amount{"filet-mignon": grams(500), "puff-pastry": grams(200)})
	s, ok := kitchen.AsShortage(err)
	if !ok {
		t.Fatalf("want a shortage, got %v", err)
	}
	want := &kitchen.ShortageError{Ingredient: "puff-pastry", Need: grams(200), Have: grams(100)}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("shortage (-want +got):\n%s", diff)
	}
	if got := p.Level(0, "filet-mignon"); got != grams(1000) {
		t.Errorf("a failed reserve took filet: shelf %v", got)
	}
	checkPantry(t, p)
}

func TestPantryDeliveriesAndExpiry(t *testing.T) {
	p := newPantry(t, map[string]kitchen.Quantity{"cream": "500ml"})
	if err := p.Schedule(kitchen.Delivery{At: 30 * minute, Ingredient: "cream", Amount: "1l"}); err != nil {
		t.Fatal(err)
	}
	if err := p.Schedule(kitchen.Delivery{At: 30 * minute, Ingredient: "cream", Amount: "1kg"}); err == nil {
		t.Error("a delivery in grams of an ingredient counted in ml was accepted")
	}
	p.ExpireAt("cream", 10*minute)
	need := map[string]kitchen.Amount{"cream": {Value: 200, Unit: kitchen.Millilitres}}

	// Minute 12: the cream went off at 10; the chef should wait (the
	// story's RequeueAfter) for the delivery at 30.
	err := p.Reserve(12*minute, "t2-0", need)
	s, ok := kitchen.AsShortage(err)
	if !ok || !s.Expired || !s.DeliveryDue || s.NextDelivery != 30*minute {
		t.Fatalf("minute 12: %v", err)
	}
	checkPantry(t, p)
	if err := p.Reserve(30*minute, "t2-0", need); err != nil {
		t.Fatalf("minute 30, after the delivery: %v", err)
	}
	checkPantry(t, p)
	p.Use("t2-0")
	want := kitchen.Ledger{Unit: kitchen.Millilitres, Opening: 500, Delivered: 1000, Shelf: 800, Used: 200, Expired: 500}
	if diff := cmp.Diff(want, p.Ledgers(30 * minute)["cream"]); diff != "" {
		t.Errorf("cream ledger (-want +got):\n%s", diff)
	}
	checkPantry(t, p)
}

func TestPantryReleaseUseWaste(t *testing.T) {
	p := newPantry(t, map[string]kitchen.Quantity{"egg": "12"})
	pcs := func(n int64) map[string]kitchen.Amount {
		return map[string]kitchen.Amount{"egg": {Value: n, Unit: kitchen.Pieces}}
	}
	for i, h := range []string{"a", "b", "c"} {
		if err := p.Reserve(0, h, pcs(int64(i+2))); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([]string{"a", "b", "c"}, p.Holders()); diff != "" {
		t.Errorf("holders:\n%s", diff)
	}
	if diff := cmp.Diff(pcs(2), p.Release("a")); diff != "" {
		t.Errorf("release returned (-want +got):\n%s", diff)
	}
	if got := p.Release("a"); len(got) != 0 {
		t.Errorf("second release returned %v", got)
	}
	p.Use("b")
	p.Waste("c")
	checkPantry(t, p)
	want := kitchen.Ledger{Unit: kitchen.Pieces, Opening: 12, Shelf: 5, Used: 3, Wasted: 4}
	if diff := cmp.Diff(want, p.Ledgers(0)["egg"]); diff != "" {
		t.Errorf("egg ledger (-want +got):\n%s", diff)
	}
	if len(p.Holders()) != 0 {
		t.Errorf("holders left: %v", p.Holders())
	}
}

func TestPantryRefusesWrongUnitsAndBadStock(t *testing.T) {
	p := newPantry(t, map[string]kitchen.Quantity{"egg": "12"})
	if err := p.Reserve(0, "x", map[string]kitchen.Amount{"egg": grams(50)}); err == nil {
		t.Error("reserving eggs in grams was accepted")
	}
	if _, err := kitchen.NewPantry(map[string]kitchen.Quantity{"egg": "a dozen"}); err == nil {
		t.Error("unparsable stock accepted")
	}
	checkPantry(t, p)
}

func TestZeroPantryIsEmpty(t *testing.T) {
	var p kitchen.Pantry
	err := p.Reserve(0, "x", map[string]kitchen.Amount{"egg": {Value: 1, Unit: kitchen.Pieces}})
	if _, ok := kitchen.AsShortage(err); !ok {
		t.Errorf("reserving from an empty pantry: %v", err)
	}
	if err := p.Schedule(kitchen.Delivery{At: time.Minute, Ingredient: "egg", Amount: "6"}); err != nil {
		t.Fatal(err)
	}
	if err := p.Reserve(time.Minute, "x", map[string]kitchen.Amount{"egg": {Value: 1, Unit: kitchen.Pieces}}); err != nil {
		t.Errorf("after the delivery: %v", err)
	}
	checkPantry(t, &p)
}
