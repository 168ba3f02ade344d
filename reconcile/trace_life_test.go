package reconcile_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/trace"
)

// painter marks each widget it sees "Painted" through the status
// subresource, then takes a second (of virtual time) to tidy up, so that
// the informer has handled its write before the reconcile ends and the
// trace has one order.
type painter struct {
	lister  *informer.Lister[widgetT]
	widgets *client.Client[widgetT]
}

func (p painter) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	w, err := p.lister.Namespace(req.Namespace).Get(req.Name)
	if meta.IsNotFound(err) {
		return reconcile.Result{}, nil // deleted: nothing to do
	}
	if err != nil || w.Status.Phase == "Painted" {
		return reconcile.Result{}, err
	}
	w = meta.DeepCopy(w)
	w.Status.Phase = "Painted"
	if _, err := p.widgets.Namespace(req.Namespace).UpdateStatus(ctx, w, meta.UpdateOptions{}); err != nil {
		return reconcile.Result{}, err
	}
	time.Sleep(time.Second)
	return reconcile.Result{}, nil
}

// TestTraceOneObjectsLife follows one widget from its creation to its
// deletion through every hand-off: server, reflector's watch, DeltaFIFO,
// cache, handler, queue, reconcile, its status write coming back and being
// dropped by a predicate, and the deletion. One Tracer, set in three
// places: the server, the informer factory and the controller.
func TestTraceOneObjectsLife(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := trace.New()
		srv := apiservertest.NewServerWithOptions(t, apiserver.Options{Tracer: tr})
		f := informer.NewSharedInformerFactory(srv, 0, informer.WithTracer(tr))
		inf := informer.InformerFor[widgetT](f)
		widgets := client.New[widgetT](srv)
		c := newController(t, painter{inf.Lister(), widgets}, reconcile.Options{Tracer: tr})
		if err := reconcile.For(c, inf, reconcile.GenerationChangedPredicate[widgetT]{}); err != nil {
			t.Fatal(err)
		}
		f.Start(t.Context())
		defer f.Shutdown()
		stop := start(t, c)
		synctest.Wait() // synced: the life starts now
		rec := trace.NewRecorder(tr)

		if _, err := widgets.Namespace("ns").Create(t.Context(), apiservertest.NewWidget("ns", "a"), meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		// The reconcile and its second are over, and so is the server's
		// first bookmark (a minute in): the delete does not race it.
		time.Sleep(90 * time.Second)
		if err := widgets.Namespace("ns").Delete(t.Context(), "a", meta.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if err := stop(); err != nil {
			t.Fatal(err)
		}

		want := lifeOfA()
		ignore := cmpopts.IgnoreFields(trace.Record{}, "Seq", "Time", "Duration")
		// A watch bookmark goes through the FIFO in its turn, as in
		// client-go v0.37 (atomic FIFO): it moves the cache's
		// resourceVersion and reaches no handler. Its records are left
		// out: the object's life is the subject.
		noBookmarks := cmpopts.IgnoreSliceElements(func(r trace.Record) bool { return r.DeltaType == "Bookmark" })
		if diff := cmp.Diff(want, rec.Records(), ignore, noBookmarks, cmpopts.EquateErrors()); diff != "" {
			t.Errorf("trace (-want +got):\n%s", diff)
		}
	})
}

// lifeOfA is the trace of widget ns/a's life in TestTraceOneObjectsLife.
func lifeOfA() []trace.Record {
	const w = "Widget"
	fifo := func(a trace.Action, rv, delta string, depth, count int) trace.Record {
		return trace.Record{Component: trace.RealFIFO, Name: "widgets", Action: a, Kind: w, Key: "ns/a",
			ResourceVersion: rv, DeltaType: delta, Depth: depth, Count: count}
	}
	cache := func(a trace.Action, rv, delta, detail string) trace.Record {
		r := trace.Record{Component: trace.Informer, Name: "widgets", Action: a, Kind: w, Key: "ns/a",
			ResourceVersion: rv, DeltaType: delta, Detail: detail}
		if a == trace.HandlerCalled {
			r.Worker = 1
		}
		return r
	}
	queue := func(a trace.Action, depth int) trace.Record {
		return trace.Record{Component: trace.Workqueue, Name: "test", Action: a, Key: "ns/a", Depth: depth}
	}
	ctrl := func(a trace.Action) trace.Record {
		r := trace.Record{Component: trace.Controller, Name: "test", Action: a, Key: "ns/a", Worker: 1}
		if a == trace.ReconcileFinished {
			r.Result = trace.ResultSuccess
		}
		return r
	}
	want := []trace.Record{
		// The waiter's order reaches the front desk, the runner, the rail and the chef.
		{Component: trace.APIServer, Action: trace.Created, Kind: w, Key: "ns/a", ResourceVersion: "2"},
		fifo(trace.DeltaRecorded, "2", "Added", 1, 0),
		fifo(trace.DeltaPopped, "2", "Added", 0, 1),
		cache(trace.CacheUpdated, "2", "Added", ""),
		cache(trace.HandlerCalled, "2", "", "OnAdd"),
		queue(trace.Added, 1),
		queue(trace.Got, 0),
		ctrl(trace.ReconcileStarted),
		// The chef's status write comes back, and a predicate drops it.
		{Component: trace.APIServer, Action: trace.Updated, Kind: w, Key: "ns/a", ResourceVersion: "3", Detail: "status"},
		fifo(trace.DeltaRecorded, "3", "Updated", 1, 0),
		fifo(trace.DeltaPopped, "3", "Updated", 0, 1),
		cache(trace.CacheUpdated, "3", "Updated", ""),
		cache(trace.HandlerCalled, "3", "", "OnUpdate"),
		{Component: trace.Controller, Name: "test", Action: trace.Dropped, Kind: w, Key: "ns/a", ResourceVersion: "3",
			DeltaType: "Update", Detail: "reconcile.GenerationChangedPredicate"},
		ctrl(trace.ReconcileFinished),
		queue(trace.Done, 0),
		// The deletion: one more reconcile, which finds nothing to do.
		{Component: trace.APIServer, Action: trace.Deleted, Kind: w, Key: "ns/a", ResourceVersion: "4"},
		fifo(trace.DeltaRecorded, "4", "Deleted", 1, 0),
		fifo(trace.DeltaPopped, "4", "Deleted", 0, 1),
		cache(trace.CacheUpdated, "4", "Deleted", ""),
		cache(trace.HandlerCalled, "4", "", "OnDelete"),
		queue(trace.Added, 1),
		queue(trace.Got, 0),
		ctrl(trace.ReconcileStarted),
		ctrl(trace.ReconcileFinished),
		queue(trace.Done, 0),
	}
	return want
}
