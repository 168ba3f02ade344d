package reconcile_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/workqueue"
)

// world is a server, a running Widget informer and a client, in a
// synctest bubble.
type world struct {
	srv     *apiserver.Server
	inf     *informer.SharedIndexInformer[widgetT]
	widgets *client.Client[widgetT]
}

// newWorld starts an informer for Widgets; run=false leaves it stopped.
func newWorld(t *testing.T, run bool) *world {
	t.Helper()
	srv := apiservertest.NewServer(t)
	w := &world{
		srv:     srv,
		inf:     informer.NewSharedIndexInformer(srv.Resource(apiservertest.WidgetsResource), informer.Options[widgetT]{}),
		widgets: client.New[widgetT](srv),
	}
	if run {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); w.inf.Run(ctx) }()
		t.Cleanup(func() { cancel(); <-done })
	}
	return w
}

func (w *world) create(t *testing.T, obj widgetT) widgetT {
	t.Helper()
	out, err := w.widgets.Namespace(obj.Namespace).Create(context.Background(), obj, meta.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// createGadget stores a cluster-scoped Gadget, for a child to name as its
// owner: the server's garbage collector deletes a child whose owners do
// not exist, and refuses an owner reference without a uid.
func (w *world) createGadget(t *testing.T, name string) *apiservertest.Gadget {
	t.Helper()
	g, err := client.New[*apiservertest.Gadget](w.srv).Create(context.Background(),
		apiservertest.NewGadget(name), meta.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// change re-reads the widget, applies fn and writes it with Update (or
// UpdateStatus if status is true).
func (w *world) change(t *testing.T, key reconcile.NamespacedName, status bool, fn func(widgetT)) {
	t.Helper()
	c := w.widgets.Namespace(key.Namespace)
	obj, err := c.Get(context.Background(), key.Name, meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fn(obj)
	if status {
		_, err = c.UpdateStatus(context.Background(), obj, meta.UpdateOptions{})
	} else {
		_, err = c.Update(context.Background(), obj, meta.UpdateOptions{})
	}
	if err != nil {
		t.Fatal(err)
	}
}

// requests records the requests a controller reconciles, in order.
type requests struct {
	mu   sync.Mutex
	seen []string
}

func (r *requests) Reconcile(_ context.Context, req reconcile.Request) (reconcile.Result, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen = append(r.seen, req.String())
	return reconcile.Result{}, nil
}

// check compares the requests seen since the last check with want.
func (r *requests) check(t *testing.T, step string, want ...string) {
	t.Helper()
	synctest.Wait()
	r.mu.Lock()
	got := r.seen
	r.seen = nil
	r.mu.Unlock()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: reconciled (-want +got):\n%s", step, diff)
	}
}

func TestGenerationChangedDropsStatusUpdates(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t, true)
		r := &requests{}
		c := newController(t, r, reconcile.Options{})
		if err := reconcile.For(c, w.inf, reconcile.GenerationChangedPredicate[widgetT]{}); err != nil {
			t.Fatal(err)
		}
		stop := start(t, c)
		soup := reconcile.NamespacedNameOf(w.create(t, apiservertest.NewWidget("kitchen", "soup")))
		r.check(t, "create", "kitchen/soup")
		w.change(t, soup, true, func(o widgetT) { o.Status.Phase = "Simmering" })
		r.check(t, "status update")
		w.change(t, soup, false, func(o widgetT) { o.Labels = map[string]string{"station": "stove"} })
		r.check(t, "label update")
		w.change(t, soup, false, func(o widgetT) { o.Spec.Size = 4 })
		r.check(t, "spec update", "kitchen/soup")
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		checkMetrics(t, c, reconcile.Metrics{ReconcileTotal: reconcile.ReconcileTotals{Success: 2},
			MaxConcurrentReconciles: 1})
	})
}

// Events that arrive while a key is being reconciled collapse into exactly
// one more reconcile, after the first one ends.
func TestUpdateDuringReconcileCausesOneMore(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t, true)
		g := newGate()
		soup := reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "kitchen", Name: "soup"}}
		g.release[soup] = make(chan struct{})
		c := newController(t, g, reconcile.Options{MaxConcurrentReconciles: 2})
		if err := reconcile.For(c, w.inf); err != nil {
			t.Fatal(err)
		}
		stop := start(t, c)
		w.create(t, apiservertest.NewWidget("kitchen", "soup"))
		<-g.entered
		for size := range 3 {
			w.change(t, soup.NamespacedName, false, func(o widgetT) { o.Spec.Size = size + 1 })
		}
		g.noneEntered(t)
		close(g.release[soup])
		if r := <-g.entered; r != soup {
			t.Errorf("reconciled %v, want %v", r, soup)
		}
		g.noneEntered(t)
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(map[reconcile.Request]int{soup: 2}, g.counts); diff != "" {
			t.Errorf("reconciles (-want +got):\n%s", diff)
		}
		checkMetrics(t, c, reconcile.Metrics{ReconcileTotal: reconcile.ReconcileTotals{Success: 2},
			MaxConcurrentReconciles: 2})
	})
}

func TestOwnsEnqueuesTheControllingOwner(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t, true)
		r := &requests{}
		c := newController(t, r, reconcile.Options{})
		if err := reconcile.Owns(c, w.inf, apiservertest.WidgetKind()); err != nil {
			t.Fatal(err)
		}
		stop := start(t, c)

		soup := w.create(t, apiservertest.NewWidget("kitchen", "soup"))
		r.check(t, "owner created: it has no owner itself")
		stew := w.create(t, apiservertest.NewWidget("kitchen", "stew"))

		pot := apiservertest.NewWidget("kitchen", "pot")
		pot.OwnerReferences = []meta.OwnerReference{meta.NewControllerRef(soup)}
		pot = w.create(t, pot)
		r.check(t, "child created", "kitchen/soup")

		w.change(t, reconcile.NamespacedNameOf(pot), false, func(o widgetT) { o.Spec.Size = 2 })
		r.check(t, "child updated", "kitchen/soup")

		w.change(t, reconcile.NamespacedNameOf(pot), false, func(o widgetT) {
			o.OwnerReferences = []meta.OwnerReference{meta.NewControllerRef(stew)}
		})
		r.check(t, "child moved to another owner: both hear of it", "kitchen/stew", "kitchen/soup")

		lid := apiservertest.NewWidget("kitchen", "lid")
		ref := meta.NewControllerRef(soup)
		ref.Controller = nil
		lid.OwnerReferences = []meta.OwnerReference{ref}
		w.create(t, lid)
		r.check(t, "child with a non-controller owner reference")

		drawer := w.createGadget(t, "drawer")
		spoon := apiservertest.NewWidget("kitchen", "spoon")
		spoon.OwnerReferences = []meta.OwnerReference{meta.NewControllerRef(drawer)}
		w.create(t, spoon)
		r.check(t, "child controlled by another kind")

		if err := w.widgets.Namespace("kitchen").Delete(context.Background(), "pot", meta.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		r.check(t, "child deleted", "kitchen/stew")
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		checkMetrics(t, c, reconcile.Metrics{ReconcileTotal: reconcile.ReconcileTotals{Success: 5},
			MaxConcurrentReconciles: 1})
	})
}

// A cluster-scoped owner is enqueued without a namespace.
func TestOwnsClusterScopedOwner(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t, true)
		r := &requests{}
		c := newController(t, r, reconcile.Options{})
		if err := reconcile.Owns(c, w.inf, apiservertest.GadgetKind()); err != nil {
			t.Fatal(err)
		}
		stop := start(t, c)
		// The owner must exist: the server's garbage collector deletes a
		// child whose owners are all gone, as a cluster's does.
		drawer := w.createGadget(t, "drawer")
		spoon := apiservertest.NewWidget("kitchen", "spoon")
		spoon.OwnerReferences = []meta.OwnerReference{meta.NewControllerRef(drawer)}
		w.create(t, spoon)
		r.check(t, "child of a gadget created", "drawer")
		if err := stop(); err != nil {
			t.Fatal(err)
		}
	})
}

// Watches maps events with a function; WithEventFilter drops events for
// every watch of the controller.
func TestWatchesAndEventFilter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t, true)
		r := &requests{}
		c := newController(t, r, reconcile.Options{})
		// Every widget wakes up the widget named "menu" in its namespace.
		menu := func(_ context.Context, o widgetT) []reconcile.Request {
			return []reconcile.Request{{NamespacedName: reconcile.NamespacedName{Namespace: o.Namespace, Name: "menu"}}}
		}
		if err := reconcile.Watches(c, w.inf, menu); err != nil {
			t.Fatal(err)
		}
		c.WithEventFilter(reconcile.NewPredicateFuncs(func(o meta.Object) bool {
			return o.GetObjectMeta().Labels["skip"] != "true"
		}))
		stop := start(t, c)
		w.create(t, apiservertest.NewWidget("kitchen", "soup"))
		r.check(t, "create", "kitchen/menu")
		skipped := apiservertest.NewWidget("bar", "ice")
		skipped.Labels = map[string]string{"skip": "true"}
		w.create(t, skipped)
		r.check(t, "filtered create")
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		if err := reconcile.For(c, w.inf); err == nil {
			t.Errorf("For after Start succeeded, want an error")
		}
	})
}

// Objects of the initial list are added at LowPriority; later events at
// the default priority.
func TestInitialListIsLowPriority(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t, false)
		w.create(t, apiservertest.NewWidget("kitchen", "old"))
		q := &queueRecorder{}
		c := newController(t, &requests{}, reconcile.Options{
			NewQueue: func(name string, rl workqueue.RateLimiter[reconcile.Request]) reconcile.WorkQueue {
				q.PriorityQueue = workqueue.NewPriorityQueue(rl, workqueue.QueueConfig{Name: name})
				return q
			},
		})
		if err := reconcile.For(c, w.inf); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); w.inf.Run(ctx) }()
		stop := start(t, c)
		synctest.Wait()
		w.create(t, apiservertest.NewWidget("kitchen", "new"))
		synctest.Wait()
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		cancel()
		<-done
		want := []string{"kitchen/old@-100", "kitchen/new@0"}
		if diff := cmp.Diff(want, q.adds); diff != "" {
			t.Errorf("adds (-want +got):\n%s", diff)
		}
	})
}

// A controller whose informer never syncs gives up after CacheSyncTimeout
// with an error naming the watch, and never reconciles.
func TestCacheSyncTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t, false)
		r := &requests{}
		c := newController(t, r, reconcile.Options{})
		if err := reconcile.For(c, w.inf); err != nil {
			t.Fatal(err)
		}
		c.Queue().Add(soup)
		begin := time.Now()
		err := c.Start(t.Context())
		var syncErr *reconcile.CacheSyncError
		if !errors.As(err, &syncErr) {
			t.Fatalf("Start = %v, want a *CacheSyncError", err)
		}
		if got := time.Since(begin); got != reconcile.DefaultCacheSyncTimeout {
			t.Errorf("gave up after %v, want %v", got, reconcile.DefaultCacheSyncTimeout)
		}
		want := &reconcile.CacheSyncError{Controller: "test", Timeout: 2 * time.Minute,
			Unsynced: []string{"For(*apiservertest.Widget)"}}
		if diff := cmp.Diff(want, syncErr); diff != "" {
			t.Errorf("error (-want +got):\n%s", diff)
		}
		if got, want := err.Error(), `reconcile: controller "test": timed out after 2m0s waiting for caches to sync: For(*apiservertest.Widget)`; got != want {
			t.Errorf("Error() = %q, want %q", got, want)
		}
		r.check(t, "no reconcile without synced caches")
		checkMetrics(t, c, reconcile.Metrics{})
	})
}
