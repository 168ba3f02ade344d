package kitchentest_test

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/kitchentest"
	"github.com/kitchensync/kitchensync/kitchen/narration"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
)

// TestConductorGrantsInKeyOrder: steps that wait at one quiet point go
// smallest key first, one per quiet point; a nil conductor and a stopped
// one grant at once.
func TestConductorGrantsInKeyOrder(t *testing.T) {
	if !(*kitchentest.Conductor)(nil).Turn(nil, "any") {
		t.Fatal("a nil conductor refused a turn")
	}
	synctest.Test(t, func(t *testing.T) {
		c := kitchentest.NewConductor()
		got := make(chan string, 3)
		for _, key := range []string{"b", "c", "a"} {
			go func() {
				c.Turn(nil, key)
				got <- key
			}()
		}
		synctest.Wait() // all three wait
		ctx, cancel := context.WithCancel(t.Context())
		driven := make(chan struct{})
		go func() { c.Drive(ctx, synctest.Wait); close(driven) }()
		order := []string{<-got, <-got, <-got}
		if want := []string{"a", "b", "c"}; !slices.Equal(order, want) {
			t.Errorf("granted %v, want %v", order, want)
		}
		cancel()
		<-driven
		if !c.Turn(nil, "late") {
			t.Error("a stopped conductor refused a turn")
		}
		done := make(chan struct{})
		close(done)
		if c2 := kitchentest.NewConductor(); c2.Turn(done, "x") {
			t.Error("a turn whose done is closed was granted without a Drive")
		}
	})
}

// TestConductedRestaurantTellsTheSameEveryRun: under a conductor, the
// story of two orders' lives at HandOffs — every hop of each order, with
// its resourceVersion, the chef's writes, the cooks — is the same from
// run to run. (The trace itself is not quite: the informer calls the
// chef's and the brigade's handlers for one cook event on a goroutine
// each, and their records interleave as they may.)
func TestConductedRestaurantTellsTheSameEveryRun(t *testing.T) {
	var runs [3]string
	for i := range runs {
		synctest.Test(t, func(t *testing.T) {
			c := kitchentest.NewConductor()
			ctx, cancel := context.WithCancel(t.Context())
			driven := make(chan struct{})
			go func() { c.Drive(ctx, synctest.Wait); close(driven) }()
			defer func() { cancel(); <-driven }()
			var out bytes.Buffer
			cfg := restaurant.Config{Out: &out, Verbosity: narration.HandOffs}
			c.Pace(&cfg)
			play(t, c, cfg)
			runs[i] = out.String()
		})
	}
	if n := strings.Count(runs[0], "\n"); n < 50 {
		t.Fatalf("only %d lines:\n%s", n, runs[0])
	}
	for i := 1; i < len(runs); i++ {
		if diff := cmp.Diff(runs[0], runs[i]); diff != "" {
			t.Fatalf("run %d told it differently (-first +this):\n%s", i+1, diff)
		}
	}
}

// play places two orders, cancels one and waits for both outcomes, the
// waiter acting in its turns.
func play(t *testing.T, c *kitchentest.Conductor, cfg restaurant.Config) {
	ctx, cancel := context.WithCancel(t.Context())
	r, err := restaurant.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ran := make(chan error, 1)
	go func() { ran <- r.Run(ctx) }()
	if !r.WaitReady(ctx) || !c.WaitTurn(ctx) {
		t.Fatal("the restaurant did not open")
	}
	for i, dish := range []string{"beef-wellington", "caesar-salad"} {
		o := &kitchen.Order{Spec: kitchen.OrderSpec{Table: i + 1, Items: []kitchen.OrderItem{{Dish: dish, Quantity: 1}}}}
		o.Name = fmt.Sprintf("table-%d", i+1)
		if _, err := r.Waiter.Place(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, c, r, "table-1", func(o *kitchen.Order) bool { return o != nil && o.Status.Phase == kitchen.OrderCooking })
	if err := r.Waiter.Cancel(ctx, "table-1"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, c, r, "table-1", func(o *kitchen.Order) bool { return o == nil })
	waitFor(t, c, r, "table-2", func(o *kitchen.Order) bool { return o != nil && o.Status.Phase == kitchen.OrderServed })
	cancel()
	if err := <-ran; err != nil {
		t.Fatal(err)
	}
}

// waitFor waits until cond holds for the order name, then for the
// waiter's turn.
func waitFor(t *testing.T, c *kitchentest.Conductor, r *restaurant.Restaurant, name string, cond func(*kitchen.Order) bool) {
	t.Helper()
	if err := r.WaitForOrder(t.Context(), name, cond); err != nil {
		t.Fatal(err)
	}
	if !c.WaitTurn(t.Context()) {
		t.Fatal(t.Context().Err())
	}
}
