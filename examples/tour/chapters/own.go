package chapters

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/reconcile"
)

// Your own controller, as the story's DishReconciler is written with
// controller-runtime: For(Dish) with WithEventFilter(
// ResourceVersionChangedPredicate). Here a menu inspector checks every
// dish. The informer resyncs every second, but a resync carries nothing
// new (same resourceVersion), so the predicate drops it: the inspector
// is woken by real changes only. A typo in the menu wakes nobody either:
// the front desk checks every dish against the menu's rules, as a CRD's
// schema does, and refuses it with 422 Invalid before anything is stored.
func YourOwnController(w io.Writer) {
	ctx, cancel := context.WithCancel(context.Background())
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	dishes := client.New[*kitchen.Dish](srv)
	inf := informer.NewSharedIndexInformer(srv.Resource(kitchen.DishResource),
		informer.Options[*kitchen.Dish]{ResyncPeriod: time.Second})

	inspected := make(chan string, 10)
	inspector := reconcile.ReconcilerFunc(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
		d, err := inf.Lister().Get(req.Name)
		if meta.IsNotFound(err) {
			return reconcile.Result{}, nil // gone: nothing to inspect
		}
		if err != nil {
			return reconcile.Result{}, err
		}
		inspected <- fmt.Sprintf("%s (rv %s): %.0f min at difficulty %d", d.Name, d.ResourceVersion, d.Spec.CookingTime.Minutes(), d.Spec.Difficulty)
		return reconcile.Result{}, nil
	})
	resyncs := make(chan struct{}, 10) // a second handler, to see the resyncs go by
	inf.AddEventHandler(informer.ResourceEventHandlerFuncs[*kitchen.Dish]{UpdateFunc: func(old, d *kitchen.Dish) {
		if old.ResourceVersion == d.ResourceVersion {
			resyncs <- struct{}{}
		}
	}})
	ctrl, _ := reconcile.NewController("menu-inspector", inspector, reconcile.Options{})
	reconcile.For(ctrl, inf, reconcile.ResourceVersionChangedPredicate[*kitchen.Dish]{})
	done := make(chan struct{}, 2)
	go func() { inf.Run(ctx); done <- struct{}{} }()
	go func() { ctrl.Start(ctx); done <- struct{}{} }()

	wellington := kitchen.DefaultMenu()[0]
	d, _ := dishes.Create(ctx, wellington, meta.CreateOptions{})
	fmt.Fprintln(w, <-inspected)
	d.Spec.Difficulty = 6 // a typo in the menu
	_, err := dishes.Update(ctx, d, meta.UpdateOptions{})
	fmt.Fprintln(w, "the typo:", err)
	d.Spec.Difficulty, d.Spec.CookingTime.Duration = 5, 45*time.Minute
	dishes.Update(ctx, d, meta.UpdateOptions{})
	fmt.Fprintln(w, <-inspected)
	<-resyncs
	<-resyncs
	fmt.Fprintln(w, "inspected after two resyncs:", len(inspected))
	cancel()
	<-done
	<-done
}

// When the front desk fails — too busy, 429 — the chef does not give up
// and does not hammer it either: a reconcile that returns an error puts
// its ticket back on the rail after a per-ticket backoff that doubles
// each time, and a success forgets it. (The cake shop's oven breaks
// down: wait longer each time, then carry on.)
func Backoff(w io.Writer) {
	r, ctx, closeKitchen := openKitchen()
	defer closeKitchen()
	busy := meta.NewTooManyRequests("the front desk is swamped", 1)
	r.Server.FailNext(apiserver.VerbUpdate, 3, busy) // the next three writes fail
	r.Waiter.Place(ctx, order("table-6", 6, "main", "caesar-salad"))
	r.WaitForOrder(ctx, "table-6", phaseIs(kitchen.OrderServed))

	chef, cooks := r.ChefMetrics(), r.BrigadeMetrics()
	fmt.Fprintln(w, "failed reconciles, each retried after a backoff:", chef.ReconcileErrors+cooks.ReconcileErrors)
	fmt.Fprintln(w, "table-6 served anyway; pantry:", r.Pantry.Check())
}
