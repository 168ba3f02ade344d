package lessons

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/narration"
	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/reconcile/prommetrics"
	"github.com/kitchensync/kitchensync/trace"
	"github.com/kitchensync/kitchensync/workqueue"
)

// StaleChef shows why a controller must read its own writes. The runner
// (the informer) is slow to come back from the front desk: its watches
// end, and the desk serves the new ones six minutes late (the server's
// fault controls CloseWatches and SetLatency), while it answers the
// chef's writes at once. A chef who counts his cooks in the runner's
// memory — as a ReplicaSet controller counts its pods in its cache —
// sends a cook for table 7's salad, is handed table 7 again before the
// runner has heard of that cook, finds none, and sends a second: two
// cooks on one salad, one of whom he sends home once the runner is back.
//
// Then the same chef with [reconcile.Freshness], kube-controller-manager's
// staleness mitigation (Kubernetes 1.36): he records the resourceVersion
// of each cook he creates, and his controller skips (and requeues) a
// ticket whose cache has not reached it yet. Table 8 gets one cook, and
// the skips are in the metrics under kube-controller-manager's names,
// stale_sync_skips_total and store_resource_version. The kitchen's own
// chef works this way ([kitchen.Chef].Freshness).
func StaleChef(ctx context.Context, w io.Writer) error {
	w = serialised(w)
	narration.WhoIsWho(w, "waiter", "apiserver", "runner", "chef")
	k, err := openStaleKitchen(ctx, w)
	if err != nil {
		return err
	}
	defer k.close()
	// A watch that ends within a second of its start without an event
	// looks broken to a reflector (client-go's "very short watch"), which
	// then lists at once instead of waiting for the slow desk: let the
	// runner's first watches run a while.
	if err := k.clock.Sleep(ctx, 6*time.Minute); err != nil || !turn(ctx) {
		return ctx.Err()
	}
	heading(w, "1. A chef who trusts his memory; the runner is slow to come back")
	sentHome := k.expect(func(r trace.Record) bool { return isCook(r, trace.Deleted) })
	naive, err := k.serve(ctx, "table-7", nil)
	if err != nil {
		return err
	}
	heading(w, "2. The runner comes back: two cooks on one salad")
	if err := sentHome(ctx); err != nil {
		return err
	}
	naive.stop()

	heading(w, "3. The same chef, reading his own writes (reconcile.Freshness)")
	fresh, err := k.serve(ctx, "table-8", reconcile.NewFreshness())
	if err != nil {
		return err
	}
	defer fresh.stop()
	done := k.expect(func(r trace.Record) bool {
		return r.Component == trace.Controller && r.Action == trace.ReconcileFinished && r.Key == "dinner/table-8"
	})
	if err := done(ctx); err != nil { // once his memory has caught up
		return err
	}
	heading(w, "4. What the front desk and the metrics say")
	fmt.Fprintf(w, "  cooks created for table 7's one salad: %d (one sent home, his work wasted)\n", k.cooksCreated("table-7"))
	fmt.Fprintf(w, "  cooks created for table 8's one salad: %d\n", k.cooksCreated("table-8"))
	return printStaleMetrics(w, fresh.ctrl)
}

// staleKitchen is the lesson's front desk and runner, wired as any
// controller's: informers over orders and cooks from one factory, the
// story told from the trace.
type staleKitchen struct {
	srv    *apiserver.Server
	clock  *kitchen.Clock
	log    *narration.Narrator
	tracer *trace.Tracer
	f      *informer.SharedInformerFactory
	orders *informer.SharedIndexInformer[*kitchen.Order]
	cooks  *informer.SharedIndexInformer[*kitchen.Cook]
	untell func()

	mu      sync.Mutex     // guards created
	created map[string]int // cooks created, by order
}

// staleMinute is the lesson's kitchen minute: long enough that the
// reflector's one-second rule (see StaleChef) costs six minutes.
const staleMinute = 200 * time.Millisecond

func openStaleKitchen(ctx context.Context, w io.Writer) (*staleKitchen, error) {
	k := &staleKitchen{clock: kitchen.NewClock(staleMinute), tracer: trace.New(), created: map[string]int{}}
	k.log = narration.New(w, k.clock, narration.HandOffs)
	untell := k.tracer.Subscribe(narration.NewStory(k.log).Tell)
	uncount := k.tracer.Subscribe(k.cooksTold)
	k.untell = func() { untell(); uncount() }
	k.srv = apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{Tracer: k.tracer})
	c := conductorFrom(ctx)
	k.f = informer.NewSharedInformerFactory(k.srv, 0, informer.WithTracer(k.tracer),
		informer.WithListerWatcher(func(gvr meta.GroupVersionResource, lw informer.ListerWatcher) informer.ListerWatcher {
			return c.ListerWatcher(lw, gvr.Resource)
		}),
		informer.WithWatchErrorHandler(func(gvr meta.GroupVersionResource, err error) {
			k.log.Say("runner", "watch %s: %v", gvr.Resource, err)
		}))
	k.orders = informer.InformerFor[*kitchen.Order](k.f)
	k.cooks = informer.InformerFor[*kitchen.Cook](k.f)
	if err := k.cooks.GetIndexer().AddIndexers(kitchen.CookIndexers()); err != nil {
		return nil, err
	}
	k.f.Start(ctx)
	if !informer.WaitForCacheSync(ctx, k.orders, k.cooks) || !turn(ctx) {
		k.close()
		return nil, ctx.Err()
	}
	return k, nil
}

func (k *staleKitchen) close() {
	k.f.Shutdown()
	k.untell()
}

// serve places table's order, makes the runner slow to come back, starts
// a chef (with fresh, if not nil) and hands him the table a second time
// after his first cook, as a resync or any other event for the order
// would.
func (k *staleKitchen) serve(ctx context.Context, table string, fresh *reconcile.Freshness) (*staleChef, error) {
	if err := k.place(ctx, table); err != nil {
		return nil, err
	}
	if err := k.slowRunner(ctx); err != nil {
		return nil, err
	}
	created := k.expect(func(r trace.Record) bool { return isCook(r, trace.Created) })
	chef, err := k.startChef(ctx, table, fresh)
	if err != nil {
		return nil, err
	}
	if err := created(ctx); err != nil {
		return nil, err
	}
	again := k.expect(func(r trace.Record) bool {
		return r.Component == trace.Controller && r.Key == "dinner/"+table &&
			(r.Action == trace.ReconcileFinished || r.Action == trace.StaleSkipped)
	})
	k.log.Say("waiter", "table %s asks how the salad is going: the chef gets the ticket again", table[len("table-"):])
	chef.ctrl.Queue().Add(reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "dinner", Name: table}})
	return chef, again(ctx)
}

// slowRunner ends the runner's watches and has the front desk serve the
// new ones six minutes late, then answers every other request at once
// again.
func (k *staleKitchen) slowRunner(ctx context.Context) error {
	watches := k.watches()
	k.srv.SetLatency(k.clock.Real(6 * time.Minute))
	k.srv.CloseWatches()
	k.log.Say("apiserver", "will serve the runner's new watches 6 minutes late (SetLatency); the chef's writes go through at once")
	// Wait until both informers have asked to watch again (those
	// requests now wait), before the desk is quick again.
	for k.watches() < watches+2 {
		if err := k.clock.Sleep(ctx, time.Second); err != nil {
			return err
		}
	}
	k.srv.SetLatency(0)
	if !turn(ctx) {
		return ctx.Err()
	}
	return nil
}

func (k *staleKitchen) watches() int64 {
	return k.srv.RequestCount(apiserver.VerbWatch, kitchen.OrderResource.GroupResource()) +
		k.srv.RequestCount(apiserver.VerbWatch, kitchen.CookResource.GroupResource())
}

// cooksTold counts the cooks created for each order, and tells when a
// cook reaches the runner's memory (which the story tells for orders
// only).
func (k *staleKitchen) cooksTold(r trace.Record) {
	if r.Kind != "Cook" {
		return
	}
	switch {
	case r.Component == trace.APIServer && r.Action == trace.Created:
		order := r.Key[len("dinner/"):strings.LastIndexByte(r.Key, '-')]
		k.mu.Lock()
		k.created[order]++
		k.mu.Unlock()
	case r.Component == trace.Informer && r.Action == trace.CacheUpdated && r.DeltaType == "Added":
		k.log.Say("runner", "cache: cook %s now at rv %s (Added)", r.Key, r.ResourceVersion)
	}
}

func (k *staleKitchen) cooksCreated(order string) int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.created[order]
}

// place has the waiter write table's order for one caesar salad, and
// waits until the runner has it.
func (k *staleKitchen) place(ctx context.Context, table string) error {
	n, err := strconv.Atoi(table[len("table-"):])
	if err != nil {
		return err
	}
	o := &kitchen.Order{ObjectMeta: meta.ObjectMeta{Name: table},
		Spec: kitchen.OrderSpec{Table: n, Items: []kitchen.OrderItem{{Dish: "caesar-salad", Quantity: 1}}}}
	inCache := k.expect(func(r trace.Record) bool {
		return r.Component == trace.Informer && r.Action == trace.CacheUpdated && r.Key == "dinner/"+table
	})
	k.log.Say("waiter", "table %d orders 1× caesar-salad: create %s", n, table)
	if _, err := client.New[*kitchen.Order](k.srv).Namespace("dinner").Create(ctx, o, meta.CreateOptions{}); err != nil {
		return err
	}
	return inCache(ctx)
}

// expect starts listening for a record that match accepts; the function
// it returns waits for one (seen since expect was called), then for the
// waiter's turn.
func (k *staleKitchen) expect(match func(trace.Record) bool) func(context.Context) error {
	hit := make(chan struct{})
	var once sync.Once
	unsubscribe := k.tracer.Subscribe(func(r trace.Record) {
		if match(r) {
			once.Do(func() { close(hit) })
		}
	})
	return func(ctx context.Context) error {
		defer unsubscribe()
		select {
		case <-hit:
		case <-ctx.Done():
			return ctx.Err()
		}
		if !turn(ctx) {
			return ctx.Err()
		}
		return nil
	}
}

func isCook(r trace.Record, a trace.Action) bool {
	return r.Component == trace.APIServer && r.Action == a && r.Kind == "Cook"
}

// staleChef is the lesson's chef: each item of an order needs one cook,
// and he counts the cooks in the runner's memory, never at the front
// desk.
type staleChef struct {
	k     *staleKitchen
	fresh *reconcile.Freshness // nil: he trusts his memory
	ctrl  *reconcile.Controller
	stop  func()
}

// startChef starts a chef for table's order alone (with fresh, if not
// nil, tracking the cooks' cache).
func (k *staleKitchen) startChef(ctx context.Context, table string, fresh *reconcile.Freshness) (*staleChef, error) {
	ch := &staleChef{k: k, fresh: fresh}
	if fresh != nil {
		fresh.Track(kitchen.CookResource.GroupResource(), k.cooks.GetIndexer())
	}
	c := conductorFrom(ctx)
	ctrl, err := reconcile.NewController("chef", ch, reconcile.Options{Tracer: k.tracer, Freshness: fresh,
		NewQueue: func(name string, _ workqueue.RateLimiter[reconcile.Request]) reconcile.WorkQueue {
			// A retry after a kitchen minute, then two, four...
			rl := workqueue.NewItemExponentialFailureRateLimiter[reconcile.Request](k.clock.Real(time.Minute), k.clock.Real(time.Hour))
			return c.Queue(name, workqueue.NewRateLimiting(rl, workqueue.QueueConfig{Name: name, Tracer: k.tracer}))
		}})
	if err != nil {
		return nil, err
	}
	ch.ctrl = ctrl
	kind, err := k.srv.Scheme().KindFor(&kitchen.Order{})
	if err != nil {
		return nil, err
	}
	// Introduce the predicate before it acts: a chef started after an
	// earlier table's order hears of it (the informer replays its cache
	// to a new handler), and his filter drops it.
	k.log.Say("chef", "a chef starts for table %s alone: his predicate, tableFilter, passes only that table's order and its cooks", table[len("table-"):])
	if err := reconcile.For(ctrl, k.orders, tableFilter[*kitchen.Order](table)); err != nil {
		return nil, err
	}
	if err := reconcile.Owns(ctrl, k.cooks, kind, tableFilter[*kitchen.Cook](table)); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { _ = ctrl.Start(ctx); close(done) }()
	ch.stop = func() { cancel(); <-done }
	return ch, nil
}

// Reconcile gives each item of the order one cook, counting the cooks the
// runner remembers.
func (ch *staleChef) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	o, ok, err := ch.k.orders.GetIndexer().GetByKey(req.String())
	if err != nil || !ok {
		return reconcile.Result{}, err
	}
	cooks, err := ch.k.cooks.GetIndexer().ByIndex(kitchen.CookOrderIndex, req.String())
	if err != nil {
		return reconcile.Result{}, err
	}
	api := client.New[*kitchen.Cook](ch.k.srv).Namespace(req.Namespace)
	log, salad := ch.k.log, o.Spec.Items[0].Dish
	switch {
	case len(cooks) > 1:
		slices.SortFunc(cooks, func(a, b *kitchen.Cook) int { return rvOf(a) - rvOf(b) })
		extra := cooks[len(cooks)-1]
		log.Say("chef", "%s: my memory shows %d cooks on one %s: one too many; %s goes home, his work wasted",
			req, len(cooks), salad, extra.Name)
		if err := api.Delete(ctx, extra.Name, meta.DeleteOptions{}); !meta.IsNotFound(err) {
			return reconcile.Result{}, err
		}
		return reconcile.Result{}, nil
	case len(cooks) == 1:
		log.Say("chef", "%s: my memory shows cook %s on the %s: nothing to do", req, cooks[0].Name, salad)
		return reconcile.Result{}, nil
	}
	log.Say("chef", "%s: my memory shows no cook on the %s: sends one", req, salad)
	cook := &kitchen.Cook{
		ObjectMeta: meta.ObjectMeta{GenerateName: o.Name + "-", OwnerReferences: []meta.OwnerReference{meta.NewControllerRef(o)}},
		Spec: kitchen.CookSpec{Order: o.Name, Dish: salad, Quantity: 1, Station: "cold",
			CookingTime: kitchen.Duration{Duration: 5 * time.Minute}},
	}
	created, err := api.Create(ctx, cook, meta.CreateOptions{})
	if err != nil || ch.fresh == nil {
		return reconcile.Result{}, err
	}
	log.Say("chef", "%s: notes that he wrote cooks at rv %s (Freshness.WroteAt)", req, created.ResourceVersion)
	return reconcile.Result{}, ch.fresh.WroteAt(req.NamespacedName, kitchen.CookResource.GroupResource(), created.ResourceVersion)
}

// tableFilter passes the events of one table's order and its cooks: each
// chef of the lesson serves one table.
type tableFilter[T meta.Object] string

func (f tableFilter[T]) pass(obj T) bool {
	switch o := any(obj).(type) {
	case *kitchen.Order:
		return o.Name == string(f)
	case *kitchen.Cook:
		return o.Spec.Order == string(f)
	}
	return false
}

func (f tableFilter[T]) Create(e reconcile.CreateEvent[T]) bool   { return f.pass(e.Object) }
func (f tableFilter[T]) Update(e reconcile.UpdateEvent[T]) bool   { return f.pass(e.ObjectNew) }
func (f tableFilter[T]) Delete(e reconcile.DeleteEvent[T]) bool   { return f.pass(e.Object) }
func (f tableFilter[T]) Generic(e reconcile.GenericEvent[T]) bool { return f.pass(e.Object) }

func rvOf(c *kitchen.Cook) int {
	n, _ := strconv.Atoi(c.ResourceVersion)
	return n
}

// printStaleMetrics prints the staleness metrics of ctrl as Prometheus
// scrapes them.
func printStaleMetrics(w io.Writer, ctrl *reconcile.Controller) error {
	reg := prometheus.NewRegistry()
	if err := reg.Register(prommetrics.NewCollector(ctrl)); err != nil {
		return err
	}
	families, err := reg.Gather()
	if err != nil {
		return err
	}
	for _, f := range families {
		if name := f.GetName(); name == "stale_sync_skips_total" || name == "store_resource_version" {
			for _, m := range f.GetMetric() {
				var labels []string
				for _, l := range m.GetLabel() {
					labels = append(labels, fmt.Sprintf("%s=%q", l.GetName(), l.GetValue()))
				}
				v := m.GetCounter().GetValue() + m.GetGauge().GetValue()
				fmt.Fprintf(w, "  %s{%s} %g\n", name, strings.Join(labels, ","), v)
			}
		}
	}
	return nil
}
