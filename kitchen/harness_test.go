package kitchen_test

import (
	"bytes"
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/narration"
	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/store"
)

// bench is a kitchen without informers or controllers: the test plays the
// runner by copying the server's state into the caches (sync), and plays
// the controllers by calling the reconcilers until nothing changes
// (settle). That makes every step of the chef visible and exact.
type bench struct {
	t        testing.TB
	ctx      context.Context
	srv      *apiserver.Server
	clock    *kitchen.Clock
	pantry   *kitchen.Pantry
	stations *kitchen.Stations
	orders   *store.Indexer[*kitchen.Order]
	cooks    *store.Indexer[*kitchen.Cook]
	dishes   *store.Indexer[*kitchen.Dish]
	chef     *kitchen.Chef
	brigade  *kitchen.Brigade
	waiter   *kitchen.Waiter
	log      bytes.Buffer
	results  map[string]reconcile.Result // last chef result per order
}

const ns = "dinner"

func newBench(t testing.TB, stock map[string]kitchen.Quantity) *bench {
	t.Helper()
	b := &bench{t: t, ctx: t.Context(), results: map[string]reconcile.Result{}}
	b.srv = apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	b.clock = kitchen.NewClock(time.Millisecond)
	var err error
	if b.pantry, err = kitchen.NewPantry(stock); err != nil {
		t.Fatal(err)
	}
	b.stations = kitchen.NewStations(b.clock, b.pantry, kitchen.DefaultStations())
	t.Cleanup(b.stations.Close)
	log := narration.New(&b.log, b.clock, narration.Everything)
	for _, d := range kitchen.DefaultMenu() {
		if _, err := client.New[*kitchen.Dish](b.srv).Create(b.ctx, d, meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	b.orders = store.NewIndexer(store.MetaNamespaceKeyFunc, kitchen.OrderIndexers())
	b.cooks = store.NewIndexer(store.MetaNamespaceKeyFunc, kitchen.CookIndexers())
	b.dishes = store.NewIndexer[*kitchen.Dish](store.MetaNamespaceKeyFunc, nil)
	b.chef = &kitchen.Chef{Orders: b.orders, Cooks: b.cooks, Dishes: b.dishes,
		OrderAPI: client.New[*kitchen.Order](b.srv),
		CookAPI:  client.New[*kitchen.Cook](b.srv),
		Stations: b.stations, Pantry: b.pantry, Clock: b.clock, Log: log}
	b.brigade = &kitchen.Brigade{Cooks: b.cooks, CookAPI: b.chef.CookAPI, Stations: b.stations, Log: log}
	b.waiter = kitchen.NewWaiter(b.srv, ns, log)
	return b
}

// sync copies the server's state into the caches, like a runner that has
// caught up.
func (b *bench) sync() {
	b.t.Helper()
	replace(b.t, b.srv, kitchen.OrderResource, b.orders)
	replace(b.t, b.srv, kitchen.CookResource, b.cooks)
	replace(b.t, b.srv, kitchen.DishResource, b.dishes)
}

func replace[T meta.Object](t testing.TB, srv *apiserver.Server, gvr meta.GroupVersionResource, x *store.Indexer[T]) {
	t.Helper()
	list, err := srv.Resource(gvr).List(t.Context(), meta.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	items := make([]T, len(list.Items))
	for i, obj := range list.Items {
		items[i] = obj.(T)
	}
	if err := x.Replace(items, list.ResourceVersion); err != nil {
		t.Fatal(err)
	}
}

// settle runs the brigade and the chef over everything until the server's
// resourceVersion stops moving, then checks the pantry.
func (b *bench) settle() {
	b.t.Helper()
	for range 20 {
		before := b.srv.ResourceVersion()
		b.sync()
		for _, key := range b.cooks.ListKeys() {
			b.reconcile(b.brigade, key)
		}
		b.sync()
		for _, key := range b.orders.ListKeys() {
			b.results[key] = b.reconcile(b.chef, key)
		}
		if b.srv.ResourceVersion() == before {
			checkPantry(b.t, b.pantry)
			return
		}
	}
	b.t.Fatalf("the kitchen did not settle:\n%s", b.log.String())
}

func (b *bench) reconcile(r reconcile.Reconciler, key string) reconcile.Result {
	b.t.Helper()
	ns, name, _ := store.SplitMetaNamespaceKey(key)
	res, err := r.Reconcile(b.ctx, reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: ns, Name: name}})
	if err != nil {
		b.t.Fatalf("reconcile %s: %v\n%s", key, err, b.log.String())
	}
	return res
}

// wait lets kitchen time pass (virtual time: the test runs in a bubble),
// then settles.
func (b *bench) wait(d time.Duration) {
	b.t.Helper()
	if err := b.clock.Sleep(b.ctx, d); err != nil {
		b.t.Fatal(err)
	}
	synctest.Wait() // let the stations' timers that fired at this instant finish
	b.settle()
}

// order reads an order from the server (nil if gone).
func (b *bench) order(name string) *kitchen.Order {
	b.t.Helper()
	o, err := client.New[*kitchen.Order](b.srv).Namespace(ns).Get(b.ctx, name, meta.GetOptions{})
	if meta.IsNotFound(err) {
		return nil
	}
	if err != nil {
		b.t.Fatal(err)
	}
	return o
}

// cookNames lists the cooks on the server.
func (b *bench) cookNames() []string {
	b.t.Helper()
	cooks, _, err := client.New[*kitchen.Cook](b.srv).List(b.ctx, meta.ListOptions{})
	if err != nil {
		b.t.Fatal(err)
	}
	var names []string
	for _, c := range cooks {
		names = append(names, c.Name+"="+string(c.Status.Phase))
	}
	return names
}

func newOrder(name string, table int, items ...kitchen.OrderItem) *kitchen.Order {
	return &kitchen.Order{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: ns},
		Spec: kitchen.OrderSpec{Table: table, Section: "main", Items: items}}
}

func item(dish string, extras ...string) kitchen.OrderItem {
	return kitchen.OrderItem{Dish: dish, Quantity: 1, Extras: extras}
}
