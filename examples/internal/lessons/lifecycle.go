package lessons

import (
	"context"
	"fmt"
	"io"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/narration"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
)

// OrderLifecycle follows one order through its life: the waiter creates
// it, the chef cooks it, the table adds black truffle while the pasta is
// on the stove (the chef adapts without restarting it), and finally the
// table leaves: the order is deleted, the chef's finalizer holds it until
// the cooks are stopped and unused ingredients are back in the pantry.
func OrderLifecycle(ctx context.Context, w io.Writer) error {
	w = serialised(w)
	r, stop, err := open(ctx, restaurant.Config{Out: w, Verbosity: narration.HandOffs})
	if err != nil {
		return err
	}
	defer stop()
	itemsAre := func(phases ...kitchen.CookPhase) func(*kitchen.Order) bool {
		return func(o *kitchen.Order) bool {
			if o == nil || len(o.Status.Items) != len(phases) {
				return false
			}
			for i, p := range phases {
				if o.Status.Items[i].Phase != p {
					return false
				}
			}
			return true
		}
	}

	heading(w, "1. The waiter places an order (kubectl create)")
	order := &kitchen.Order{ObjectMeta: meta.ObjectMeta{Name: "table-7"},
		Spec: kitchen.OrderSpec{Table: 7, Section: "vip", Items: []kitchen.OrderItem{
			{Dish: "seafood-pasta", Quantity: 1}, {Dish: "beef-wellington", Quantity: 1}}}}
	if _, err := r.Waiter.Place(ctx, order); err != nil {
		return err
	}
	if err := waitFor(ctx, r, "table-7", itemsAre(kitchen.CookCooking, kitchen.CookCooking)); err != nil {
		return err
	}

	heading(w, "2. The table adds black truffle to the pasta (kubectl edit)")
	if _, err := r.Waiter.AddExtra(ctx, "table-7", 0, "black-truffle"); err != nil {
		return err
	}
	if err := waitFor(ctx, r, "table-7", func(o *kitchen.Order) bool {
		return o != nil && o.Status.ObservedGeneration == 2
	}); err != nil {
		return err
	}

	heading(w, "3. The pasta is ready; the Wellington is still in the oven")
	if err := waitFor(ctx, r, "table-7", itemsAre(kitchen.CookDone, kitchen.CookCooking)); err != nil {
		return err
	}

	heading(w, "4. The table has to leave: the order is cancelled (kubectl delete)")
	if err := r.Waiter.Cancel(ctx, "table-7"); err != nil {
		return err
	}
	if err := waitFor(ctx, r, "table-7", func(o *kitchen.Order) bool { return o == nil }); err != nil {
		return err
	}

	pause(ctx, r)
	heading(w, "5. The pantry's account")
	printLedger(w, r, "black-truffle", "spaghetti", "filet-mignon")
	fmt.Fprintln(w, "  (the pasta and its truffle were eaten; the Wellington was in the oven and is wasted)")
	return r.Pantry.Check()
}
