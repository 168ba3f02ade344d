package reconcile_test

import (
	"context"
	"fmt"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/reconcile"
)

// ReadyReconciler marks every Widget Ready once it has looked at its
// current spec, recording which generation it saw — the smallest useful
// reconciler: read the object from the cache, compare, write the status.
type ReadyReconciler struct {
	Widgets *reconcile.Client[*apiservertest.Widget]
}

// Reconcile is level-triggered and idempotent: it looks only at the
// current object, and does nothing if the status already matches.
func (r *ReadyReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	w, err := r.Widgets.Get(ctx, req.NamespacedName)
	if meta.IsNotFound(err) {
		return reconcile.Result{}, nil // deleted: nothing to do
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	if w.Status.Phase == "Ready" && w.Status.ObservedGeneration == w.Generation {
		return reconcile.Result{}, nil // already done
	}
	w.Status.Phase = "Ready"
	w.Status.ObservedGeneration = w.Generation
	_, err = r.Widgets.UpdateStatus(ctx, w) // a Conflict is retried with backoff
	return reconcile.Result{}, err
}

// waitForStatus watches the widget until its status reports generation gen.
func waitForStatus(ctx context.Context, widgets *client.Client[*apiservertest.Widget], name string, gen int64) *apiservertest.Widget {
	watch, err := widgets.Watch(ctx, meta.ListOptions{})
	if err != nil {
		panic(err)
	}
	defer watch.Stop()
	for e := range watch.ResultChan() {
		if w, ok := e.Object.(*apiservertest.Widget); ok && w.Name == name && w.Status.ObservedGeneration == gen {
			return w
		}
	}
	panic("watch ended")
}

func Example() {
	ctx, cancel := context.WithCancel(context.Background())
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{})
	widgets := client.New[*apiservertest.Widget](srv).Namespace("kitchen")

	// The runner: an informer keeps a cache of every Widget.
	inf := informer.NewSharedIndexInformer(srv.Resource(apiservertest.WidgetsResource),
		informer.Options[*apiservertest.Widget]{})
	informerDone := make(chan struct{})
	go func() { defer close(informerDone); inf.Run(ctx) }()

	// The chef: a controller that reconciles Widgets, ignoring the status
	// writes it makes itself.
	client, err := reconcile.NewClient(srv, inf.GetIndexer())
	if err != nil {
		panic(err)
	}
	ctrl, err := reconcile.NewController("widget-ready", &ReadyReconciler{Widgets: client}, reconcile.Options{})
	if err != nil {
		panic(err)
	}
	if err := reconcile.For(ctrl, inf, reconcile.GenerationChangedPredicate[*apiservertest.Widget]{}); err != nil {
		panic(err)
	}
	ctrlDone := make(chan error, 1)
	go func() { ctrlDone <- ctrl.Start(ctx) }()

	// A customer orders a widget, then changes the order.
	if _, err := widgets.Create(ctx, apiservertest.NewWidget("kitchen", "soup"), meta.CreateOptions{}); err != nil {
		panic(err)
	}
	w := waitForStatus(ctx, widgets, "soup", 1)
	fmt.Printf("generation %d: %s, observed %d\n", w.Generation, w.Status.Phase, w.Status.ObservedGeneration)

	patch := []byte(`{"spec":{"size":4}}`)
	if _, err := widgets.Patch(ctx, "soup", meta.MergePatchType, patch, meta.PatchOptions{}); err != nil {
		panic(err)
	}
	w = waitForStatus(ctx, widgets, "soup", 2)
	fmt.Printf("generation %d: %s, observed %d\n", w.Generation, w.Status.Phase, w.Status.ObservedGeneration)

	cancel()
	if err := <-ctrlDone; err != nil {
		panic(err)
	}
	<-informerDone
	m := ctrl.Metrics()
	fmt.Printf("reconciles: %d successful, %d failed\n", m.ReconcileTotal.Success, m.ReconcileTotal.Error)
	// Output:
	// generation 1: Ready, observed 1
	// generation 2: Ready, observed 2
	// reconciles: 2 successful, 0 failed
}
