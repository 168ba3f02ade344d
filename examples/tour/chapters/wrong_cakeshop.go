package chapters

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/examples/cakeshop/bakery"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/reconcile/prommetrics"
	"github.com/kitchensync/kitchensync/trace"
	"github.com/kitchensync/kitchensync/workqueue"
	"github.com/prometheus/client_golang/prometheus"
)

// 蛋糕店 §1.2 has the front desk "check the order board every 30 seconds
// for new orders (the List)", then ring a bell for changes (the Watch).
// An informer never polls. It lists once, at the start (and again only
// when its watch falls too far behind, 410 Expired), then watches: the
// server pushes every change the moment it is written. What comes on a
// timer is resync, and a resync asks the server nothing: it hands the
// cached orders to the handlers again, so that a controller re-checks the
// world it acts on.
//
// Here the front desk's resync comes every 10 ms instead of 30 s; after
// three of them the server has still seen one list and one watch.
func TheFrontDeskDoesNotPoll(w io.Writer) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	orders := client.New[*kitchen.Order](srv).Namespace("dinner")
	orders.Create(ctx, order("table-1", 1, "main", "chocolate-cake"), meta.CreateOptions{})
	tr := trace.New()
	rec := trace.NewRecorder(tr)
	desk := informer.NewSharedIndexInformer(srv.Resource(kitchen.OrderResource),
		informer.Options[*kitchen.Order]{ResyncPeriod: 10 * time.Millisecond, Tracer: tr})
	resyncs := make(chan struct{}, 100)
	desk.AddEventHandler(informer.ResourceEventHandlerFuncs[*kitchen.Order]{UpdateFunc: func(old, o *kitchen.Order) {
		if old.ResourceVersion == o.ResourceVersion { // nothing changed: a resync
			resyncs <- struct{}{}
		}
	}})
	go desk.Run(ctx)
	for range 3 {
		<-resyncs
	}
	// Resyncs come from the cache, whether the watch has started or not.
	until(tr, func() bool { return heard(rec, is(trace.Reflector, trace.WatchStarted)) })
	gr := kitchen.OrderResource.GroupResource()
	fmt.Fprintln(w, "after 3 resyncs: lists", srv.RequestCount(apiserver.VerbList, gr),
		"watches", srv.RequestCount(apiserver.VerbWatch, gr), "gets", srv.RequestCount(apiserver.VerbGet, gr))
}

// 蛋糕店 §4.2 (and §7.1 again) answers a failed bake with
//
//	return ctrl.Result{RequeueAfter: 5 * time.Minute}, err
//
// When the error is not nil, the Result is ignored: the controller
// requeues the request with its rate limiter's backoff — 5 ms, 10 ms,
// 20 ms, ... per key — not after five minutes (controller-runtime logs a
// warning saying so). Pick one: return the error to retry with backoff
// (and be counted in controller_runtime_reconcile_errors_total), or
// return RequeueAfter with a nil error to come back at a chosen time
// (after writing why into the status, where people can see it).
//
// Here the oven fails once and the reconciler asks for five minutes: the
// retry comes a few milliseconds later, counted as an error.
func AnErrorOverridesRequeueAfter(w io.Writer) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := make(chan time.Duration, 2)
	start, tries := time.Now(), 0 // one worker: tries needs no lock
	baker := reconcile.ReconcilerFunc(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
		calls <- time.Since(start)
		if tries++; tries == 1 {
			return reconcile.Result{RequeueAfter: 5 * time.Minute}, errors.New("the oven broke down")
		}
		return reconcile.Result{}, nil
	})
	ctrl, _ := reconcile.NewController("cakes", baker, reconcile.Options{})
	done := make(chan struct{})
	go func() { ctrl.Start(ctx); close(done) }()
	ctrl.Queue().Add(reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "shop", Name: "wedding-cake"}})
	first, second := <-calls, <-calls
	fmt.Fprintln(w, "asked to come back in 5m0s; came back within a second:", second-first < time.Second)
	cancel()
	<-done
	m := ctrl.Metrics()
	fmt.Fprintf(w, "reconcile_total: success %d, error %d, requeue_after %d\n",
		m.ReconcileTotal.Success, m.ReconcileTotal.Error, m.ReconcileTotal.RequeueAfter)
}

// 蛋糕店 §1.2 does not say it, but the rail's limit is a choice. 餐厅 §3
// builds its "10 orders per minute" with a RateLimitingQueue and a token
// bucket, and says new orders pile up when the chef cannot keep up. In
// client-go and controller-runtime a queue's rate limiter only decides
// how long AddRateLimited waits (the retry of a failed reconcile); an
// informer's handler calls Add, which never waits. So a bucket of 10 a
// minute does not slow down new orders at all: it slows down retries,
// all keys together (which is why the default limiter combines it with a
// per-key backoff).
//
// kitchensync's workqueue does the same. This kitchen's [kitchen.TicketRail]
// chooses otherwise, to play the story's rush hour: a ticket seen for the
// first time waits for a token. That is the rail's own rule, written on
// top of the queue, not what a RateLimitingQueue does.
func TheRailLimitsNewTicketsByChoice(w io.Writer) {
	ticket := func(name string) reconcile.Request {
		return reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "dinner", Name: name}}
	}
	tenAMinute := func() *rate.Limiter { return rate.NewLimiter(rate.Every(time.Minute/10), 1) }
	queue := workqueue.NewRateLimiting(workqueue.NewBucketRateLimiter[reconcile.Request](tenAMinute()), workqueue.QueueConfig{})
	defer queue.ShutDown()
	for i := range 5 {
		queue.Add(ticket(fmt.Sprintf("new-%d", i)))
	}
	fmt.Fprintln(w, "RateLimitingQueue, 5 × Add:           ready at once", queue.Len())
	for i := range 5 {
		queue.AddRateLimited(ticket(fmt.Sprintf("retry-%d", i)))
	}
	fmt.Fprintln(w, "then 5 × AddRateLimited:              ready at once", queue.Len()-5, "(the others wait 6s, 12s, ...)")

	rail := kitchen.NewTicketRail(kitchen.NewClock(time.Second), nil, kitchen.RailOptions{TicketsPerMinute: 10, Burst: 1})
	defer rail.ShutDown()
	for i := range 5 {
		rail.Add(ticket(fmt.Sprintf("new-%d", i)))
	}
	fmt.Fprintln(w, "kitchen.TicketRail, 10 a minute, 5 × Add: ready at once", rail.Len())
}

// 蛋糕店 §5.2's alert fires on
//
//	histogram_quantile(0.9, sum(rate(controller_runtime_reconcile_duration_seconds_bucket[5m])) by (le)) > 10
//
// and its description says "the average latency is above 10 seconds".
// Two mistakes. The expression is the 90th percentile, not the average:
// 10% of reconciles slower than 10 s fire it while the average is far
// lower (and one very slow reconcile can lift the average while the p90
// stays low); the average is rate(..._sum[5m]) / rate(..._count[5m]).
// And controller-runtime has no reconcile_duration metric: the histogram
// is controller_runtime_reconcile_time_seconds, so the story's alert
// would never fire. A reconcile that takes seconds is a smell in itself:
// a long bake belongs in an object of its own, watched, not inside one
// Reconcile that holds a worker.
//
// Here are ten reconciles — eight of 1 s and two of 30 s — in the
// buckets of controller_runtime_reconcile_time_seconds, read back as
// Prometheus would.
func TheAlertIsP90NotTheAverage(w io.Writer) {
	seconds := []float64{1, 1, 1, 1, 1, 1, 1, 1, 30, 30}
	h := histogram(reconcile.ReconcileTimeBuckets(), seconds)
	fmt.Fprintf(w, "average %.1fs, p90 %.1fs (histogram_quantile), threshold 10s\n",
		h.Sum/float64(h.Count), bakery.HistogramQuantile(0.9, h))
	ctrl, _ := reconcile.NewController("cakes", reconcile.ReconcilerFunc(
		func(context.Context, reconcile.Request) (reconcile.Result, error) { return reconcile.Result{}, nil }), reconcile.Options{})
	for _, name := range metricNames(ctrl) {
		fmt.Fprintln(w, "exported:", name)
	}
}

// 蛋糕店 §3.1 places orders across branches "like Cluster API, a central
// dispatcher". Cluster API does something else: its controllers create
// and upgrade Kubernetes clusters themselves (Cluster, Machine,
// MachineDeployment objects), much as a chain opens new branches. Placing
// work across existing clusters is a controller that holds one client
// (and one set of informers) per cluster, as Karmada or
// multicluster-runtime do, and as the cake shop's Dispatcher does: each
// branch is its own API server, with its own objects and its own
// resourceVersions, and an informer sees only the server it watches.
func ClusterAPIMakesClusters(w io.Writer) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	branches := map[string]*apiserver.Server{"north": bakery.NewServer(), "south": bakery.NewServer()}
	for i, branch := range []string{"north", "south", "north"} {
		cake := &bakery.Cake{ObjectMeta: meta.ObjectMeta{Name: fmt.Sprintf("cake-%d", i+1)},
			Spec: bakery.CakeSpec{Flavor: "double-chocolate", Size: 8}}
		if _, err := client.New[*bakery.Cake](branches[branch]).Namespace("shop").Create(ctx, cake, meta.CreateOptions{}); err != nil {
			panic(err)
		}
	}
	for _, branch := range []string{"north", "south"} {
		desk := informer.NewSharedIndexInformer(branches[branch].Resource(bakery.CakeResource), informer.Options[*bakery.Cake]{})
		go desk.Run(ctx)
		<-desk.Synced()
		cakes, _ := desk.Lister().List(nil)
		fmt.Fprintf(w, "the %s front desk sees:", branch)
		for _, c := range cakes {
			fmt.Fprintf(w, " %s (rv %s)", c.Name, c.ResourceVersion)
		}
		fmt.Fprintln(w)
	}
}

// histogram files observations (in seconds) in buckets with these upper
// bounds, as controller_runtime_reconcile_time_seconds does.
func histogram(bounds, observations []float64) reconcile.Histogram {
	h := reconcile.Histogram{Count: uint64(len(observations))}
	for _, b := range bounds {
		var n uint64
		for _, o := range observations {
			if o <= b {
				n++
			}
		}
		h.Buckets = append(h.Buckets, reconcile.Bucket{UpperBound: b, Count: n})
	}
	for _, o := range observations {
		h.Sum += o
	}
	return h
}

// metricNames returns the names of the controller_runtime_reconcile_*
// metrics that the Prometheus adapter exports for ctrl.
func metricNames(ctrl *reconcile.Controller) []string {
	reg := prometheus.NewRegistry()
	reg.MustRegister(prommetrics.NewCollector(ctrl))
	families, err := reg.Gather()
	if err != nil {
		panic(err)
	}
	var names []string
	for _, f := range families {
		if strings.HasPrefix(f.GetName(), "controller_runtime_reconcile_") {
			names = append(names, f.GetName())
		}
	}
	return names
}
