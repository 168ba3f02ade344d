package chapters

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
)

// openKitchen opens and runs the default restaurant; close stops it and
// waits.
func openKitchen() (r *restaurant.Restaurant, ctx context.Context, close func()) {
	return openKitchenAt(0)
}

// openKitchenAt opens and runs a restaurant whose kitchen minute lasts
// minute of real time (0: [kitchen.DefaultMinute]).
func openKitchenAt(minute time.Duration) (r *restaurant.Restaurant, ctx context.Context, close func()) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	r, err := restaurant.Open(ctx, restaurant.Config{Minute: minute, Server: apiserver.Options{CompactionDropsHistory: true}})
	if err != nil {
		panic(err)
	}
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	r.WaitReady(ctx)
	return r, ctx, func() { cancel(); <-done }
}

// phaseIs waits for an order's phase.
func phaseIs(p kitchen.OrderPhase) func(*kitchen.Order) bool {
	return func(o *kitchen.Order) bool { return o != nil && o.Status.Phase == p }
}

// The chef (主厨) is a reconciler: for each ticket it compares the order
// with the kitchen and closes the gap — sends a cook, waits for the dish,
// serves it — writing what it did into the order's status.
func Chef(w io.Writer) {
	r, ctx, closeKitchen := openKitchen()
	defer closeKitchen()
	r.Waiter.Place(ctx, order("table-4", 4, "main", "caesar-salad"))
	r.Waiter.Place(ctx, order("table-5", 5, "main", "lobster-thermidor"))
	r.WaitForOrder(ctx, "table-4", phaseIs(kitchen.OrderServed))
	r.WaitForOrder(ctx, "table-5", phaseIs(kitchen.OrderRejected))

	for _, name := range []string{"table-4", "table-5"} {
		o, _ := client.New[*kitchen.Order](r.Server).Namespace("dinner").Get(ctx, name, meta.GetOptions{})
		fmt.Fprintf(w, "%s: %s (observedGeneration %d)\n", name, o.Status.Phase, o.Status.ObservedGeneration)
		for _, c := range o.Status.Conditions {
			fmt.Fprintf(w, "  %-8s %-5s %s\n", c.Type, c.Status, c.Reason)
		}
	}
	fmt.Fprintln(w, "pantry:", r.Pantry.Check())
}

// The table adds black truffle while the pasta is on the stove. The chef
// compares again, sees that only the extras changed, takes the truffle
// from the pantry and tells the same cook: nothing restarts. The chapter
// waits for what the chef wrote, not for time: the order's status says
// which generation the chef has seen (observedGeneration), and once it
// is 2 the cook already carries the truffle. (A kitchen minute of an
// hour: the pasta's 15 minutes cannot end before then, however busy the
// machine running the lesson; the chapter ends with it still cooking.)
func Truffle(w io.Writer) {
	r, ctx, closeKitchen := openKitchenAt(time.Hour)
	defer closeKitchen()
	r.Waiter.Place(ctx, order("table-7", 7, "vip", "seafood-pasta"))
	r.WaitForOrder(ctx, "table-7", phaseIs(kitchen.OrderCooking))
	r.Waiter.AddExtra(ctx, "table-7", 0, "black-truffle")
	r.WaitForOrder(ctx, "table-7", func(o *kitchen.Order) bool { return o != nil && o.Status.ObservedGeneration == 2 })

	o, _ := client.New[*kitchen.Order](r.Server).Namespace("dinner").Get(ctx, "table-7", meta.GetOptions{})
	cook, _ := client.New[*kitchen.Cook](r.Server).Namespace("dinner").Get(ctx, o.Status.Items[0].Cook, meta.GetOptions{})
	fmt.Fprintf(w, "generation %d seen by the chef; cook %s still %s, now with %v\n",
		o.Status.ObservedGeneration, cook.Name, cook.Status.Phase, cook.Spec.Extras)
	l := r.Pantry.Ledgers(r.Clock.Now())
	fmt.Fprintf(w, "held for the pasta: black-truffle %d%s, spaghetti %d%s; wasted %d\n",
		l["black-truffle"].Reserved, l["black-truffle"].Unit, l["spaghetti"].Reserved, l["spaghetti"].Unit, l["spaghetti"].Wasted)
}

// The table leaves. The order carries the chef's finalizer, so the delete
// only marks it; the chef stops the cook, puts the unused ingredients
// back, says Cancelled and removes the finalizer; then the order is gone,
// and the front desk's garbage collector deletes the cook it owned.
func Cancel(w io.Writer) {
	// A kitchen minute of an hour: table-1's cake is surely still at the
	// pastry station when we look, however busy the machine running the lesson.
	r, ctx, closeKitchen := openKitchenAt(time.Hour)
	defer closeKitchen()
	// One pastry place: the second cake waits its turn.
	r.Waiter.Place(ctx, order("table-1", 1, "main", "chocolate-cake"))
	r.WaitForOrder(ctx, "table-1", phaseIs(kitchen.OrderCooking))
	r.Waiter.Place(ctx, order("table-2", 2, "main", "chocolate-cake"))
	r.WaitForOrder(ctx, "table-2", func(o *kitchen.Order) bool { return o != nil && len(o.Finalizers) > 0 })
	cooks, _ := r.Server.Resource(kitchen.CookResource).Namespace("dinner").Watch(ctx,
		meta.ListOptions{FieldSelector: "spec.order=table-2"})
	r.Waiter.Cancel(ctx, "table-2")
	r.WaitForOrder(ctx, "table-2", func(o *kitchen.Order) bool { return o == nil })
	for e := range cooks.ResultChan() {
		if e.Type == meta.EventDeleted { // the chef only stopped it: the garbage collector deletes it
			fmt.Fprintf(w, "cook %s DELETED by the garbage collector\n", e.Object.GetObjectMeta().Name)
			break
		}
	}
	cooks.Stop()

	l := r.Pantry.Ledgers(r.Clock.Now())["chocolate"]
	fmt.Fprintf(w, "chocolate: reserved %d (table-1's cake), wasted %d, on the shelf %d of %d\n", l.Reserved, l.Wasted, l.Shelf, l.Opening)
	fmt.Fprintln(w, "pantry:", r.Pantry.Check())
}

// A chef that survives a disconnect. The runner loses the front desk: its
// watches end and cannot restart, and the desk compacts its history.
// Meanwhile a table cancels. Nothing is lost: once back, the runner lists
// again, the chef is handed the cancelled order, cleans up and lets it
// go — because the chef reads the state, not the events it missed.
func Disconnect(w io.Writer) {
	r, ctx, closeKitchen := openKitchen()
	defer closeKitchen()
	r.Waiter.Place(ctx, order("table-1", 1, "main", "beef-wellington"))
	r.Waiter.Place(ctx, order("table-2", 2, "main", "caesar-salad"))
	r.WaitForOrder(ctx, "table-1", phaseIs(kitchen.OrderCooking))

	srv := r.Server
	srv.FailNext(apiserver.VerbWatch, 3, meta.NewInternalError(fmt.Errorf("the runner is stuck in the lift")))
	srv.CloseWatches()
	r.Waiter.Cancel(ctx, "table-1")
	srv.CompactHistory()

	r.WaitForOrder(ctx, "table-1", func(o *kitchen.Order) bool { return o == nil })
	r.WaitForOrder(ctx, "table-2", phaseIs(kitchen.OrderServed))
	// While the runner was away the Wellington may have finished (used)
	// or not (wasted when stopped); either way nothing is left reserved.
	l := r.Pantry.Ledgers(r.Clock.Now())["filet-mignon"]
	fmt.Fprintf(w, "table-1 cancelled and cleaned up: filet-mignon used or wasted %d, still reserved %d\n", l.Used+l.Wasted, l.Reserved)
	fmt.Fprintln(w, "table-2 served; pantry:", r.Pantry.Check())
}
