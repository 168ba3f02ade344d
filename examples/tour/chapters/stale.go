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
	"github.com/kitchensync/kitchensync/trace"
)

// A cache lags: the runner hears of a write some time after it was made.
// A chef who counts his cooks in the runner's memory, as a ReplicaSet
// controller counts its pods in its informer's cache, can act on a
// memory that does not yet show what he did himself.
//
// Here the front desk is too busy to keep the runner posted: after his
// first list it answers every watch 429 Too Many Requests (the server's
// FailNext). The chef sends a cook for table 7's salad; the table asks
// again before the runner has heard of that cook; the chef finds none
// and sends a second. Kubernetes 1.36's kube-controller-manager cures
// this for its ReplicaSet, DaemonSet, StatefulSet and Job controllers
// by reading its own writes: the controller records the resourceVersion
// of each of its writes, and skips (and requeues) a sync while its cache
// has not reached it. kitchensync's [reconcile.Freshness] does the same,
// with the same metrics (stale_sync_skips_total, store_resource_version);
// the kitchen's chef uses it. The stale-chef lesson tells it hand-off by
// hand-off: go run ./examples/stale-chef.
func StaleChef(w io.Writer) {
	trusting := serveTableSevenTwice(nil)
	fmt.Fprintf(w, "a chef who trusts his memory: %d cooks sent for one caesar-salad\n", trusting.sent)
	careful := serveTableSevenTwice(reconcile.NewFreshness())
	fmt.Fprintf(w, "a chef who reads his own writes: %d cook sent; the second ticket waited for his memory: %v\n",
		careful.sent, careful.metrics.StaleSyncSkips >= 1)
	for _, v := range careful.metrics.StoreResourceVersions {
		fmt.Fprintf(w, "  store_resource_version{resource=%q} is the cook's resourceVersion: %v\n",
			v.Resource.String(), fmt.Sprint(v.Version) == careful.cookRV)
	}
}

// served is what became of table 7 in [serveTableSevenTwice].
type served struct {
	sent    int    // cooks the chef sent
	cookRV  string // the resourceVersion of the last one
	metrics reconcile.Metrics
}

// serveTableSevenTwice plays table 7's order to a chef (reading his own
// writes if fresh is not nil) whose runner lists once and then gets 429
// on every watch; the table asks again after the first cook. Then the
// desk has time for the runner again, and once the runner's memory shows
// every cook sent, it returns what happened.
func serveTableSevenTwice(fresh *reconcile.Freshness) served {
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	client.New[*kitchen.Order](srv).Namespace("dinner").Create(ctx, order("table-7", 7, "main", "caesar-salad"), meta.CreateOptions{})
	srv.FailNext(apiserver.VerbWatch, 1_000_000, meta.NewTooManyRequests("the front desk is swamped", 1))
	orders, cooks := lateRunner(ctx, srv)
	if fresh != nil {
		fresh.Track(kitchen.CookResource.GroupResource(), cooks.GetIndexer())
	}
	tr := trace.New()
	skipped := make(chan struct{}, 100)
	tr.Subscribe(func(r trace.Record) {
		if r.Action == trace.StaleSkipped {
			skipped <- struct{}{}
		}
	})
	chef := &lineChef{orders: orders, cooks: cooks, api: client.New[*kitchen.Cook](srv), fresh: fresh, sent: make(chan *kitchen.Cook, 10)}
	ctrl, _ := reconcile.NewController("chef", chef, reconcile.Options{Freshness: fresh, Tracer: tr})
	reconcile.For(ctrl, orders)
	done := make(chan struct{})
	go func() { ctrl.Start(ctx); close(done) }()
	defer func() { cancel(); <-done }()

	last := <-chef.sent
	out := served{sent: 1}
	ctrl.Queue().Add(reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "dinner", Name: "table-7"}})
	if fresh == nil {
		last = <-chef.sent
		out.sent++
	} else {
		<-skipped
	}
	srv.FailNext(apiserver.VerbWatch, 0, nil) // the desk has time for the runner again
	for len(cookList(cooks)) < out.sent {
		<-cooks.changed
	}
	out.cookRV, out.metrics = last.ResourceVersion, ctrl.Metrics()
	return out
}

// lateRunner lists orders and cooks once and then watches (or tries to),
// retrying every 10ms; it says nothing of the 429s it gets.
func lateRunner(ctx context.Context, srv *apiserver.Server) (*informer.SharedIndexInformer[*kitchen.Order], *cookMemory) {
	opts := func() *informer.BackoffManager { return &informer.BackoffManager{Initial: 10 * time.Millisecond} }
	orders := informer.NewSharedIndexInformer(srv.Resource(kitchen.OrderResource),
		informer.Options[*kitchen.Order]{Backoff: opts(), WatchErrorHandler: func(error) {}})
	cooks := &cookMemory{SharedIndexInformer: informer.NewSharedIndexInformer(srv.Resource(kitchen.CookResource),
		informer.Options[*kitchen.Cook]{Indexers: kitchen.CookIndexers(), Backoff: opts(), WatchErrorHandler: func(error) {}}),
		changed: make(chan struct{}, 1)}
	cooks.AddEventHandler(informer.ResourceEventHandlerFuncs[*kitchen.Cook]{AddFunc: func(*kitchen.Cook, bool) {
		select {
		case cooks.changed <- struct{}{}:
		default:
		}
	}})
	go orders.Run(ctx)
	go cooks.Run(ctx)
	informer.WaitForCacheSync(ctx, orders, cooks)
	return orders, cooks
}

// cookMemory is the runner's memory of cooks, with a bell that rings
// when a cook arrives in it.
type cookMemory struct {
	*informer.SharedIndexInformer[*kitchen.Cook]
	changed chan struct{}
}

// cookList returns the cooks of table-7 the runner remembers.
func cookList(cooks *cookMemory) []*kitchen.Cook {
	list, _ := cooks.GetIndexer().ByIndex(kitchen.CookOrderIndex, "dinner/table-7")
	return list
}

// lineChef gives each order one cook, counting the cooks in the runner's
// memory; with fresh, he records each cook he creates.
type lineChef struct {
	orders *informer.SharedIndexInformer[*kitchen.Order]
	cooks  *cookMemory
	api    *client.Client[*kitchen.Cook]
	fresh  *reconcile.Freshness
	sent   chan *kitchen.Cook // the cooks he sent
}

func (c *lineChef) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	o, ok, err := c.orders.GetIndexer().GetByKey(req.String())
	if err != nil || !ok || len(cookList(c.cooks)) > 0 {
		return reconcile.Result{}, err
	}
	cook := &kitchen.Cook{
		ObjectMeta: meta.ObjectMeta{GenerateName: o.Name + "-", OwnerReferences: []meta.OwnerReference{meta.NewControllerRef(o)}},
		Spec: kitchen.CookSpec{Order: o.Name, Dish: o.Spec.Items[0].Dish, Quantity: 1, Station: "cold",
			CookingTime: kitchen.Duration{Duration: 5 * time.Minute}},
	}
	created, err := c.api.Namespace(req.Namespace).Create(ctx, cook, meta.CreateOptions{})
	if err != nil {
		return reconcile.Result{}, err
	}
	c.sent <- created
	if c.fresh == nil {
		return reconcile.Result{}, nil
	}
	return reconcile.Result{}, c.fresh.WroteAt(req.NamespacedName, kitchen.CookResource.GroupResource(), created.ResourceVersion)
}
