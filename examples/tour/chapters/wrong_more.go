package chapters

import (
	"context"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/examples/cakeshop/bakery"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/trace"
)

// 餐厅 §1 and §4 decide whether to cook with
//
//	if !reflect.DeepEqual(currentStatus, desiredDish.Spec) { ... cook ... }
//
// A status and a spec are different things — what was done and what is
// wanted — of different types: DeepEqual of the two is false, always, so
// this chef cooks on every reconcile, and since his status write wakes
// him again, he never stops. (Even of one type DeepEqual is a poor judge:
// a nil list and an empty one differ, and so do two timestamps of one
// instant in two time zones.) A reconciler compares the fields that
// matter, the desired ones with the actual ones, and records which
// generation of the spec it has acted on: observedGeneration ==
// generation says "done, for this spec". Here two chefs get one order,
// and each may act ten times at most.
func DeepEqualOfStatusAndSpec(w io.Writer) {
	fmt.Fprintln(w, "DeepEqual(an OrderStatus, an OrderSpec):", reflect.DeepEqual(kitchen.OrderStatus{}, kitchen.OrderSpec{}))
	fmt.Fprintln(w, "DeepEqual([]string(nil), []string{}):   ", reflect.DeepEqual([]string(nil), []string{}))
	story := func(o *kitchen.Order) bool { return reflect.DeepEqual(o.Status, o.Spec) }
	done := func(o *kitchen.Order) bool { return o.Status.ObservedGeneration == o.Generation }
	for _, c := range []struct {
		name string
		done func(*kitchen.Order) bool
	}{{"DeepEqual(status, spec)", story}, {"observedGeneration == generation", done}} {
		writes, reconciles := chefUntil(c.done, 10)
		fmt.Fprintf(w, "a chef done when %s: %s in %s\n", c.name, plural(writes, "status write"), plural(reconciles, "reconcile"))
	}
}

// chefUntil runs a chef over one order who "cooks" — writes the status,
// which wakes him again — until done says the order is done, or until he
// has reconciled max times (he is stopped: he would go on for ever). It
// returns how often he wrote and reconciled.
func chefUntil(done func(*kitchen.Order) bool, max int) (writes, reconciles int) {
	ctx, cancel := context.WithCancel(context.Background())
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	orders := client.New[*kitchen.Order](srv).Namespace("dinner")
	inf := informer.NewSharedIndexInformer(srv.Resource(kitchen.OrderResource), informer.Options[*kitchen.Order]{})
	var nWrites, nReconciles atomic.Int32
	stopped := make(chan struct{}) // closed when he writes nothing: nothing will wake him again
	var once sync.Once
	chef := reconcile.ReconcilerFunc(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
		n := nReconciles.Add(1)
		o, err := inf.Lister().Namespace(req.Namespace).Get(req.Name)
		if err != nil || done(o) || int(n) > max {
			once.Do(func() { close(stopped) })
			return reconcile.Result{}, err
		}
		o = meta.DeepCopy(o)
		o.Status.ObservedGeneration, o.Status.Phase = o.Generation, kitchen.OrderCooking
		o.Status.Items = append(o.Status.Items, kitchen.ItemStatus{Dish: o.Spec.Items[0].Dish}) // cooks once more
		nWrites.Add(1)
		_, err = orders.UpdateStatus(ctx, o, meta.UpdateOptions{})
		return reconcile.Result{}, err
	})
	ctrl, _ := reconcile.NewController("chef", chef, reconcile.Options{})
	reconcile.For(ctrl, inf)
	ran := make(chan struct{}, 2)
	go func() { inf.Run(ctx); ran <- struct{}{} }()
	go func() { ctrl.Start(ctx); ran <- struct{}{} }()
	orders.Create(ctx, order("table-1", 1, "main", "tomato-soup"), meta.CreateOptions{})
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		panic("the chef never stopped")
	}
	cancel()
	<-ran
	<-ran
	return int(nWrites.Load()), int(nReconciles.Load())
}

// plural says "1 thing" or "n things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// 餐厅 §5's tuning table: for a large cluster, "enable SharedInformer"
// (多个传菜员分区负责, several runners each covering a part). A shared
// informer does not partition anything: it is one list and one watch per
// resource in a process, and one cache, shared by every controller that
// asks the factory for that resource — each handler sees every object.
// It saves the API server's work and the process's memory, which is what
// a large cluster needs; splitting the work is something else, chosen
// on purpose: a field or label selector on the informer's list and watch
// (here one informer per section), or controllers sharded across
// processes by a label.
func ASharedInformerDoesNotPartition(w io.Writer) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	orders := client.New[*kitchen.Order](srv).Namespace("dinner")
	for i, section := range []string{"vip", "main", "vip", "main", "main", "vip"} {
		orders.Create(ctx, order(fmt.Sprintf("table-%d", i+1), i+1, section, "tomato-soup"), meta.CreateOptions{})
	}
	gr := kitchen.OrderResource.GroupResource()
	tr := trace.New()
	rec := trace.NewRecorder(tr)
	factory := informer.NewSharedInformerFactory(srv, 0, informer.WithTracer(tr))
	chefs, maitre := informer.InformerFor[*kitchen.Order](factory), informer.InformerFor[*kitchen.Order](factory)
	var heardByChef, heardByMaitre atomic.Int32
	chefReg, _ := chefs.AddEventHandler(informer.ResourceEventHandlerFuncs[*kitchen.Order]{AddFunc: func(*kitchen.Order, bool) { heardByChef.Add(1) }})
	maitreReg, _ := maitre.AddEventHandler(informer.ResourceEventHandlerFuncs[*kitchen.Order]{AddFunc: func(*kitchen.Order, bool) { heardByMaitre.Add(1) }})
	factory.Start(ctx)
	informer.WaitForCacheSync(ctx, chefReg, maitreReg)
	// Synced comes with the LIST; the WATCH follows it.
	until(tr, func() bool { return heard(rec, is(trace.Reflector, trace.WatchStarted)) })
	fmt.Fprintf(w, "the chef's and the maître d's informer are one: %v\n", chefs == maitre)
	fmt.Fprintf(w, "each heard of every order: chef %d, maître d' %d, of 6\n", heardByChef.Load(), heardByMaitre.Load())
	fmt.Fprintf(w, "the server served %d LIST and %d WATCH\n", srv.RequestCount(apiserver.VerbList, gr), srv.RequestCount(apiserver.VerbWatch, gr))
	for _, section := range []string{"vip", "main"} {
		part := informer.NewSharedIndexInformer(informer.NewFilteredListWatch(srv.Resource(kitchen.OrderResource),
			func(o *meta.ListOptions) { o.FieldSelector = "spec.section=" + section }), informer.Options[*kitchen.Order]{})
		go part.Run(ctx)
		<-part.Synced()
		cached, _ := part.Lister().List(nil)
		fmt.Fprintf(w, "an informer with the field selector spec.section=%s caches %v\n", section, names(cached))
	}
}

// 餐厅 §3's table says a customer's extra dish is an Update that
// "triggers a rolling update" (触发滚动更新). An Update is an event: the
// object changed. What follows is whatever its controller decides. A
// Deployment's controller, when the pod template changes, makes a new
// ReplicaSet and moves the pods over a few at a time (maxSurge,
// maxUnavailable): that is a rolling update, its own choice for its own
// kind. This chef chooses otherwise: extras go to the cook already at
// work, and only an item whose dish changes gets a new cook — the other
// items' cooks are not touched.
func AnUpdateIsNotARollingUpdate(w io.Writer) {
	r, ctx, closeKitchen := openKitchenAt(time.Hour) // nothing finishes while we look
	defer closeKitchen()
	table7 := order("table-7", 7, "vip", "seafood-pasta")
	table7.Spec.Items = append(table7.Spec.Items, kitchen.OrderItem{Dish: "beef-wellington", Quantity: 1})
	r.Waiter.Place(ctx, table7)
	seen := func(gen int64) func(*kitchen.Order) bool {
		return func(o *kitchen.Order) bool {
			return o != nil && o.Status.ObservedGeneration == gen && o.Status.Phase == kitchen.OrderCooking
		}
	}
	r.WaitForOrder(ctx, "table-7", seen(1))
	first := cooksOf(ctx, r.Server)
	fmt.Fprintln(w, "generation 1:", describeCooks(first))
	r.Waiter.AddExtra(ctx, "table-7", 0, "black-truffle")
	r.WaitForOrder(ctx, "table-7", seen(2))
	fmt.Fprintln(w, "generation 2, truffle on the pasta:", describeCooks(cooksOf(ctx, r.Server)))
	r.Waiter.Amend(ctx, "table-7", "the Wellington becomes a salmon", func(o *kitchen.Order) { o.Spec.Items[1].Dish = "grilled-salmon" })
	r.WaitForOrder(ctx, "table-7", seen(3))
	last := cooksOf(ctx, r.Server)
	fmt.Fprintln(w, "generation 3, salmon for the Wellington:", describeCooks(last))
	fmt.Fprintln(w, "the pasta's cook is the same throughout (same uid):", first[0].UID == last[0].UID)
}

// cooksOf returns the live cooks of table-7, by item.
func cooksOf(ctx context.Context, srv *apiserver.Server) []*kitchen.Cook {
	cooks, _, _ := client.New[*kitchen.Cook](srv).Namespace("dinner").List(ctx, meta.ListOptions{FieldSelector: "spec.order=table-7"})
	live := slices.DeleteFunc(cooks, func(c *kitchen.Cook) bool { return c.DeletionTimestamp != nil })
	slices.SortFunc(live, func(a, b *kitchen.Cook) int { return a.Spec.Item - b.Spec.Item })
	return live
}

// describeCooks says which cook does what.
func describeCooks(cooks []*kitchen.Cook) string {
	var parts []string
	for _, c := range cooks {
		parts = append(parts, fmt.Sprintf("%s %s%v", c.Name, c.Spec.Dish, c.Spec.Extras))
	}
	return strings.Join(parts, ", ")
}

// 餐厅 §3 calls ListAndWatch "double-buffered monitoring" (双缓冲监控).
// Nothing is buffered twice, and nothing is swapped: the list is one
// snapshot of everything at one resourceVersion, the watch a stream of
// every change after exactly that resourceVersion, and both go, through
// the informer's queue, into one cache. The resourceVersion is the seam:
// a change made between the list and the watch is neither lost nor told
// twice. Here the front desk takes a new order just after answering the
// runner's list, before his watch begins.
func ListAndWatchIsNotDoubleBuffered(w io.Writer) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	orders := client.New[*kitchen.Order](srv).Namespace("dinner")
	orders.Create(ctx, order("table-1", 1, "main", "tomato-soup"), meta.CreateOptions{})
	orders.Create(ctx, order("table-2", 2, "vip", "caesar-salad"), meta.CreateOptions{})
	lw := &betweenListAndWatch{ListerWatcher: srv.Resource(kitchen.OrderResource), w: w, meanwhile: func() {
		o, _ := orders.Create(ctx, order("table-3", 3, "main", "grilled-salmon"), meta.CreateOptions{})
		fmt.Fprintf(w, "meanwhile table-3 is created, at rv %s\n", o.ResourceVersion)
	}}
	runner := informer.NewSharedIndexInformer(lw, informer.Options[*kitchen.Order]{})
	arrived := make(chan string, 3)
	runner.AddEventHandler(informer.ResourceEventHandlerFuncs[*kitchen.Order]{AddFunc: func(o *kitchen.Order, initial bool) {
		if !initial {
			arrived <- o.Name
		}
	}})
	go runner.Run(ctx)
	fmt.Fprintf(w, "the watch brings %s; the one cache holds %v\n", <-arrived, slices.Sorted(slices.Values(runner.GetIndexer().ListKeys())))
}

// betweenListAndWatch is a ListerWatcher that says what the runner asks
// for, and runs meanwhile once, between his first list and his watch.
type betweenListAndWatch struct {
	informer.ListerWatcher
	w         io.Writer
	meanwhile func()
	once      sync.Once
}

func (l *betweenListAndWatch) List(ctx context.Context, opts meta.ListOptions) (*meta.List, error) {
	list, err := l.ListerWatcher.List(ctx, opts)
	if err == nil {
		fmt.Fprintf(l.w, "LIST: %d orders at rv %s\n", len(list.Items), list.ResourceVersion)
	}
	return list, err
}

func (l *betweenListAndWatch) Watch(ctx context.Context, opts meta.ListOptions) (meta.WatchInterface, error) {
	l.once.Do(l.meanwhile)
	fmt.Fprintf(l.w, "WATCH from rv %s\n", opts.ResourceVersion)
	return l.ListerWatcher.Watch(ctx, opts)
}

// 蛋糕店 §1.1's table maps the order form to fields: 蛋糕类型 to
// spec.kind, 取货时间 to spec.schedule, 特殊说明 to spec.annotations. The
// cake shop's Cake names them otherwise — flavor, pickupTime, notes —
// and here is why. kind is every object's own field, at the top: "Cake";
// a spec.kind beside it says "double chocolate" under the same word, for
// readers and for tools that look for kind. annotations are metadata:
// strings keyed by name for tools (kubectl, controllers) to read, never
// the order's own data, which belongs in the spec with a type and a
// rule. schedule, in Kubernetes, is a CronJob's repeating time
// ("0 14 * * *"); a pickup happens once. The shop's server, asked
// strictly as kubectl apply asks, refuses the story's fields by name.
func TheFormsFieldsHaveKubernetesNames(w io.Writer) {
	front := httpapi.NewHandler(bakery.NewServer())
	head := "apiVersion: bakery.example.com/v1\nkind: Cake\nmetadata: {name: %s}\n"
	story := fmt.Sprintf(head, "story") + "spec:\n  kind: double-chocolate\n  size: 8\n  schedule: 2023-08-20 14:00\n  annotations: nut allergy\n"
	fmt.Fprintln(w, "the story's fields:", apply(front, "shop", story))
	notAString := "apiVersion: bakery.example.com/v1\nkind: Cake\nmetadata: {name: noted, annotations: {allergies: [nuts]}}\n" +
		"spec: {flavor: double-chocolate, size: 8}\n"
	fmt.Fprintln(w, "data in an annotation:", apply(front, "shop", notAString))
	shop := fmt.Sprintf(head, "birthday") + "spec: {flavor: double-chocolate, size: 8, pickupTime: \"14:00\", notes: nut allergy, allergies: [nuts]}\n"
	fmt.Fprintln(w, "the shop's fields:", apply(front, "shop", shop))
}
