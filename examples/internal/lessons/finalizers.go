package lessons

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/narration"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
	"github.com/kitchensync/kitchensync/reconcile"
)

// Finalizers shows what "don't clear the table until the kitchen has
// cleaned up" (确认顾客真要走才撤台) means. First the API server's rules,
// on a bare front desk: a delete of an object with a finalizer only marks
// it (deletionTimestamp), no finalizer may be added once it is deleting,
// and removing the last finalizer deletes it; without a finalizer a
// delete is immediate, and whoever held resources for it never hears
// "clean up" again if it was away. Then the chef at work: a cancelled
// order waits, Terminating, until its cooks are stopped and the unused
// ingredients are back in the pantry; once the chef lets it go, the API
// server's garbage collector deletes the Cook objects the order owned
// (the chef does not delete them itself).
func Finalizers(ctx context.Context, w io.Writer) error {
	w = serialised(w)
	if err := finalizerRules(ctx, w); err != nil {
		return err
	}
	r, stop, err := open(ctx, restaurant.Config{Out: w, Verbosity: narration.HandOffs})
	if err != nil {
		return err
	}
	defer stop()

	heading(w, "4. The chef's finalizer at work: three cakes, one pastry station")
	for i, name := range []string{"table-1", "table-2", "table-3"} {
		o := &kitchen.Order{ObjectMeta: meta.ObjectMeta{Name: name},
			Spec: kitchen.OrderSpec{Table: i + 1, Items: []kitchen.OrderItem{{Dish: "chocolate-cake", Quantity: 1}}}}
		if _, err := r.Waiter.Place(ctx, o); err != nil {
			return err
		}
	}
	if err := waitFor(ctx, r, "table-3", func(o *kitchen.Order) bool {
		return o != nil && o.Status.Phase == kitchen.OrderPending && len(o.Finalizers) > 0
	}); err != nil {
		return err
	}
	if err := sleep(ctx, r, 10*time.Minute); err != nil {
		return err
	}
	heading(w, "5. Tables 1 (cake in the oven) and 2 (cake not started) cancel")
	for _, name := range []string{"table-2", "table-1"} {
		if err := r.Waiter.Cancel(ctx, name); err != nil {
			return err
		}
		if err := waitFor(ctx, r, name, func(o *kitchen.Order) bool { return o == nil }); err != nil {
			return err
		}
	}
	pause(ctx, r)
	cooks, _, err := client.New[*kitchen.Cook](r.Server).Namespace("dinner").List(ctx, meta.ListOptions{})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "  cooks left: %v (the garbage collector took tables 1 and 2's with their orders)\n", names(cooks))
	heading(w, "6. The pantry's account")
	printLedger(w, r, "chocolate", "flour")
	fmt.Fprintln(w, "  (table 1's cake was in the oven: wasted; table 2's ingredients went back; table 3's cake is baking)")
	return r.Pantry.Check()
}

// finalizerRules shows the API server's finalizer rules on a bare server.
func finalizerRules(ctx context.Context, w io.Writer) error {
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	orders := client.New[*kitchen.Order](srv).Namespace("dinner")
	get := func(name string) string {
		o, err := orders.Get(ctx, name, meta.GetOptions{})
		if err != nil {
			return fmt.Sprintf("%v (NotFound: %v)", err, meta.IsNotFound(err))
		}
		return fmt.Sprintf("still there, deletionTimestamp set: %v, finalizers %v", o.DeletionTimestamp != nil, o.Finalizers)
	}

	heading(w, "1. Without a finalizer, a delete is immediate")
	if _, err := orders.Create(ctx, soup("plain", 1), meta.CreateOptions{}); err != nil {
		return err
	}
	if err := orders.Delete(ctx, "plain", meta.DeleteOptions{}); err != nil {
		return err
	}
	fmt.Fprintf(w, "  GET plain after DELETE: %s\n", get("plain"))
	fmt.Fprintln(w, "  a chef that was away when this happened never gets to clean up after it")

	heading(w, "2. With a finalizer, a delete only marks the order")
	held := soup("held", 2)
	reconcile.AddFinalizer(held, kitchen.OrderFinalizer)
	if _, err := orders.Create(ctx, held, meta.CreateOptions{}); err != nil {
		return err
	}
	if err := orders.Delete(ctx, "held", meta.DeleteOptions{}); err != nil {
		return err
	}
	fmt.Fprintf(w, "  GET held after DELETE: %s\n", get("held"))
	o, err := orders.Get(ctx, "held", meta.GetOptions{})
	if err != nil {
		return err
	}
	reconcile.AddFinalizer(o, "menu.example.com/sommelier")
	_, err = orders.Update(ctx, o, meta.UpdateOptions{})
	fmt.Fprintf(w, "  adding another finalizer now: %v\n", err)

	heading(w, "3. Removing the last finalizer lets it go")
	if o, err = orders.Get(ctx, "held", meta.GetOptions{}); err != nil {
		return err
	}
	reconcile.RemoveFinalizer(o, kitchen.OrderFinalizer)
	if _, err := orders.Update(ctx, o, meta.UpdateOptions{}); err != nil {
		return err
	}
	fmt.Fprintf(w, "  GET held after the update: %s\n", get("held"))
	return nil
}
