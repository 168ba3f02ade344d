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
	"github.com/kitchensync/kitchensync/trace"
)

// One Tracer, given to the server, the informer factory and the
// controller, records every hand-off of an object's life: the write, the
// delta in the FIFO, the cache, the handler, the queue and the reconcile.
func Example_trace() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tr := trace.New()
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{Tracer: tr})
	factory := informer.NewSharedInformerFactory(srv, 0, informer.WithTracer(tr))
	inf := informer.InformerFor[*apiservertest.Widget](factory)
	look := reconcile.ReconcilerFunc(func(context.Context, reconcile.Request) (reconcile.Result, error) {
		return reconcile.Result{}, nil // a reconciler that only looks
	})
	c, _ := reconcile.NewController("widgets", look, reconcile.Options{Tracer: tr})
	_ = reconcile.For(c, inf)
	factory.Start(ctx)
	go func() { _ = c.Start(ctx) }()

	// Keep the records; hear when a queue entry is done. A subscriber
	// must be quick and never call back into the machinery.
	rec := trace.NewRecorder(tr)
	done := make(chan struct{}, 3)
	defer tr.Subscribe(func(r trace.Record) {
		if r.Component == trace.Workqueue && r.Action == trace.Done {
			done <- struct{}{}
		}
	})()
	// A request queued by hand is reconciled once the controller's
	// workers run, which they do only after its handlers are registered
	// and have seen the informer's first list.
	c.Queue().Add(reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "kitchen", Name: "warm-up"}})
	<-done

	widgets := client.New[*apiservertest.Widget](srv).Namespace("kitchen")
	_, _ = widgets.Create(ctx, apiservertest.NewWidget("kitchen", "soup"), meta.CreateOptions{})
	<-done
	_ = widgets.Delete(ctx, "soup", meta.DeleteOptions{})
	<-done

	for _, r := range rec.Records() {
		if r.Key == "kitchen/soup" {
			fmt.Println(r)
		}
	}
	// Output:
	// apiserver created Widget kitchen/soup rv=2
	// realfifo[widgets] delta-recorded Widget kitchen/soup rv=2 delta=Added depth=1
	// realfifo[widgets] delta-popped Widget kitchen/soup rv=2 delta=Added count=1
	// informer[widgets] cache-updated Widget kitchen/soup rv=2 delta=Added
	// informer[widgets] handler-called Widget kitchen/soup rv=2 worker=1 detail=OnAdd
	// workqueue[widgets] added kitchen/soup depth=1
	// workqueue[widgets] got kitchen/soup
	// controller[widgets] reconcile-started kitchen/soup worker=1
	// controller[widgets] reconcile-finished kitchen/soup worker=1 result=success
	// workqueue[widgets] done kitchen/soup
	// apiserver deleted Widget kitchen/soup rv=3
	// realfifo[widgets] delta-recorded Widget kitchen/soup rv=3 delta=Deleted depth=1
	// realfifo[widgets] delta-popped Widget kitchen/soup rv=3 delta=Deleted count=1
	// informer[widgets] cache-updated Widget kitchen/soup rv=3 delta=Deleted
	// informer[widgets] handler-called Widget kitchen/soup rv=3 worker=1 detail=OnDelete
	// workqueue[widgets] added kitchen/soup depth=1
	// workqueue[widgets] got kitchen/soup
	// controller[widgets] reconcile-started kitchen/soup worker=1
	// controller[widgets] reconcile-finished kitchen/soup worker=1 result=success
	// workqueue[widgets] done kitchen/soup
}
