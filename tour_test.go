// The guided tour: each Example is a chapter, in order. Run them with
//
//	go test -run Example_step -v .
package kitchensync_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/reconcile"
)

// order returns a one-item order for a table.
func order(name string, table int, section, dish string) *kitchen.Order {
	return &kitchen.Order{
		ObjectMeta: apiserver.ObjectMeta{Name: name},
		Spec: kitchen.OrderSpec{Table: table, Section: section,
			Items: []kitchen.OrderItem{{Dish: dish, Quantity: 1}}},
	}
}

// An order is an object, like a Pod: metadata, a spec (what the table
// wants) and a status (what the kitchen has done). The front desk stamps
// every write with a new resourceVersion; only changes to the spec bump
// the generation.
func Example_step01_anOrderIsAnObject() {
	ctx := context.Background()
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	orders := apiserver.NewClient[*kitchen.Order](srv).Namespace("dinner")

	o, err := orders.Create(ctx, order("table-7", 7, "vip", "seafood-pasta"), apiserver.CreateOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("created %s %s/%s: resourceVersion %s, generation %d\n", o.Kind, o.Namespace, o.Name, o.ResourceVersion, o.Generation)

	o.Spec.Items[0].Extras = []string{"black-truffle"}
	o, _ = orders.Update(ctx, o, apiserver.UpdateOptions{})
	fmt.Printf("spec changed:    resourceVersion %s, generation %d\n", o.ResourceVersion, o.Generation)

	o.Status.Phase = kitchen.OrderCooking
	o, _ = orders.UpdateStatus(ctx, o, apiserver.UpdateOptions{})
	fmt.Printf("status changed:  resourceVersion %s, generation %d\n", o.ResourceVersion, o.Generation)

	o, _ = orders.Update(ctx, o, apiserver.UpdateOptions{})
	fmt.Printf("nothing changed: resourceVersion %s, generation %d\n", o.ResourceVersion, o.Generation)

	bad := order("table-0", 0, "vip", "seafood-pasta")
	bad.Spec.Items[0].Quantity = 0
	fmt.Println(kitchen.ValidateOrder(bad))
	// Output:
	// created Order dinner/table-7: resourceVersion 2, generation 1
	// spec changed:    resourceVersion 3, generation 2
	// status changed:  resourceVersion 4, generation 2
	// nothing changed: resourceVersion 4, generation 2
	// Order.menu.example.com "table-0" is invalid: [spec.table: Invalid value: 0: tables are numbered from 1, spec.items[0].quantity: Invalid value: 0: must be at least 1]
}

// Two waiters edit the same order. The second one wrote from a stale
// copy: the front desk refuses with 409 Conflict instead of losing the
// first waiter's change. RetryOnConflict reads again and re-applies.
func Example_step02_conflict() {
	ctx := context.Background()
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	orders := apiserver.NewClient[*kitchen.Order](srv).Namespace("dinner")
	if _, err := orders.Create(ctx, order("table-3", 3, "main", "tomato-soup"), apiserver.CreateOptions{}); err != nil {
		panic(err)
	}
	alice, _ := orders.Get(ctx, "table-3", apiserver.GetOptions{})
	bob, _ := orders.Get(ctx, "table-3", apiserver.GetOptions{})

	alice.Spec.Items[0].Quantity = 2
	if _, err := orders.Update(ctx, alice, apiserver.UpdateOptions{}); err != nil {
		panic(err)
	}
	bob.Spec.Items[0].Extras = []string{"chili"}
	_, err := orders.Update(ctx, bob, apiserver.UpdateOptions{})
	fmt.Println("bob:", err)
	fmt.Println("conflict?", apiserver.IsConflict(err))

	err = reconcile.RetryOnConflict(reconcile.DefaultRetry, func() error {
		latest, err := orders.Get(ctx, "table-3", apiserver.GetOptions{})
		if err != nil {
			return err
		}
		latest.Spec.Items[0].Extras = []string{"chili"}
		_, err = orders.Update(ctx, latest, apiserver.UpdateOptions{})
		return err
	})
	o, _ := orders.Get(ctx, "table-3", apiserver.GetOptions{})
	fmt.Printf("after the retry: %d× %s with %v (err %v)\n", o.Spec.Items[0].Quantity, o.Spec.Items[0].Dish, o.Spec.Items[0].Extras, err)
	// Output:
	// bob: Operation cannot be fulfilled on orders.menu.example.com "table-3": the object has been modified; please apply your changes to the latest version and try again
	// conflict? true
	// after the retry: 2× tomato-soup with [chili] (err <nil>)
}

// The front desk keeps a log of changes. A watch from resourceVersion N
// streams every change after N, in order: the runner never has to ask
// "anything new?" again.
func Example_step03_watch() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	orders := apiserver.NewClient[*kitchen.Order](srv).Namespace("dinner")
	first, _ := orders.Create(ctx, order("table-1", 1, "main", "tomato-soup"), apiserver.CreateOptions{})

	w, err := orders.Watch(ctx, apiserver.ListOptions{ResourceVersion: first.ResourceVersion})
	if err != nil {
		panic(err)
	}
	defer w.Stop()
	orders.Create(ctx, order("table-2", 2, "vip", "beef-wellington"), apiserver.CreateOptions{})
	o, _ := orders.Get(ctx, "table-1", apiserver.GetOptions{})
	o.Spec.Items[0].Quantity = 3
	orders.Update(ctx, o, apiserver.UpdateOptions{})
	orders.Delete(ctx, "table-2", apiserver.DeleteOptions{})

	for range 3 {
		e := <-w.ResultChan()
		m := e.Object.GetObjectMeta()
		fmt.Printf("%-8s %s (resourceVersion %s)\n", e.Type, m.Name, m.ResourceVersion)
	}
	// Output:
	// ADDED    table-2 (resourceVersion 3)
	// MODIFIED table-1 (resourceVersion 4)
	// DELETED  table-2 (resourceVersion 5)
}

// The same watch over HTTP, as the story's curl does:
//
//	GET /apis/menu.example.com/v1/namespaces/dinner/orders?watch=true&resourceVersion=N
//
// httpapi puts the Kubernetes REST protocol in front of the server, so
// kubectl and curl can call the front desk; a watch is a stream of JSON
// lines, one event each.
func Example_step04_watchOverHTTP() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	front := httptest.NewServer(httpapi.NewHandler(srv))
	defer front.Close()
	orders := apiserver.NewClient[*kitchen.Order](srv).Namespace("dinner")
	first, _ := orders.Create(ctx, order("table-1", 1, "main", "tomato-soup"), apiserver.CreateOptions{})

	url := front.URL + "/apis/menu.example.com/v1/namespaces/dinner/orders?watch=true&resourceVersion=" + first.ResourceVersion
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	fmt.Println(resp.Status, resp.Header.Get("Content-Type"))

	orders.Create(ctx, order("table-2", 2, "vip", "beef-wellington"), apiserver.CreateOptions{})
	orders.Delete(ctx, "table-1", apiserver.DeleteOptions{})
	dec := json.NewDecoder(resp.Body)
	for range 2 {
		var e struct {
			Type   string
			Object kitchen.Order
		}
		if err := dec.Decode(&e); err != nil {
			panic(err)
		}
		fmt.Printf(`{"type":%q,"object":{"kind":%q,"metadata":{"name":%q,"resourceVersion":%q,...}}}`+"\n",
			e.Type, e.Object.Kind, e.Object.Name, e.Object.ResourceVersion)
	}
	// Output:
	// 200 OK application/json
	// {"type":"ADDED","object":{"kind":"Order","metadata":{"name":"table-2","resourceVersion":"3",...}}}
	// {"type":"DELETED","object":{"kind":"Order","metadata":{"name":"table-1","resourceVersion":"4",...}}}
}

// The runner (传菜员) is a shared informer: it lists once, then watches,
// and keeps what it learns in an indexed cache, so that "what is open in
// the VIP room?" never goes to the front desk.
func Example_step05_runnerRemembers() {
	ctx, cancel := context.WithCancel(context.Background())
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	orders := apiserver.NewClient[*kitchen.Order](srv).Namespace("dinner")
	for i, section := range []string{"vip", "main", "vip", "terrace"} {
		orders.Create(ctx, order(fmt.Sprintf("table-%d", i+1), i+1, section, "tomato-soup"), apiserver.CreateOptions{})
	}
	runner := informer.NewSharedIndexInformer(srv.Resource(kitchen.OrderResource),
		informer.Options[*kitchen.Order]{Indexers: kitchen.OrderIndexers()})
	done := make(chan struct{})
	go func() { runner.Run(ctx); close(done) }()
	<-runner.Synced()

	vip, _ := runner.GetIndexer().ByIndex(kitchen.OrderSectionIndex, "vip")
	var names []string
	for _, o := range vip {
		names = append(names, o.Name)
	}
	slices.Sort(names)
	fmt.Println("VIP room:", names)
	t3, _ := runner.Lister().Namespace("dinner").Get("table-3")
	fmt.Println("table-3 wants", t3.Spec.Items[0].Dish)
	_, err := runner.Lister().Namespace("dinner").Get("table-9")
	fmt.Println("table-9:", apiserver.IsNotFound(err))
	fmt.Println("lists made:", srv.RequestCount(apiserver.VerbList, kitchen.OrderResource.GroupResource()))
	cancel()
	<-done
	// Output:
	// VIP room: [table-1 table-3]
	// table-3 wants tomato-soup
	// table-9: true
	// lists made: 1
}

// The ticket rail (订单看板) is a work queue of keys, never of objects: a
// ticket pinned three times is one ticket (the chef will read the latest
// order anyway), and VIP tickets go first.
func Example_step06_ticketRail() {
	clock := kitchen.NewClock(kitchen.DefaultMinute)
	sections := map[string]string{"table-1": "main", "table-2": "terrace", "table-3": "vip"}
	rail := kitchen.NewTicketRail(clock, nil, kitchen.RailOptions{
		Priority: func(req reconcile.Request) int {
			return kitchen.TicketPriority(&kitchen.Order{Spec: kitchen.OrderSpec{Section: sections[req.Name]}})
		},
	})
	defer rail.ShutDown()
	ticket := func(name string) reconcile.Request {
		return reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "dinner", Name: name}}
	}
	for _, name := range []string{"table-1", "table-1", "table-2", "table-3", "table-1"} {
		rail.Add(ticket(name))
	}
	fmt.Println("tickets on the rail:", rail.Len())
	for rail.Len() > 0 {
		req, p, _ := rail.GetWithPriority()
		fmt.Printf("the chef takes %s (priority %d)\n", req, p)
		rail.Done(req)
	}
	// Output:
	// tickets on the rail: 3
	// the chef takes dinner/table-3 (priority 100)
	// the chef takes dinner/table-1 (priority 0)
	// the chef takes dinner/table-2 (priority 0)
}

// openKitchen opens and runs a restaurant; close stops it and waits.
func openKitchen() (r *kitchen.Restaurant, ctx context.Context, close func()) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	r, err := kitchen.Open(ctx, kitchen.Config{})
	if err != nil {
		panic(err)
	}
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	r.WaitReady(ctx)
	return r, ctx, func() { cancel(); <-done }
}

// phaseIs waits for an order's phase.
func phaseIs(p kitchen.OrderPhase) func(*kitchen.Order) bool {
	return func(o *kitchen.Order) bool { return o != nil && o.Status.Phase == p }
}

// The chef (主厨) is a reconciler: for each ticket it compares the order
// with the kitchen and closes the gap — sends a cook, waits for the dish,
// serves it — writing what it did into the order's status.
func Example_step07_chef() {
	r, ctx, closeKitchen := openKitchen()
	defer closeKitchen()
	r.Waiter.Place(ctx, order("table-4", 4, "main", "caesar-salad"))
	r.Waiter.Place(ctx, order("table-5", 5, "main", "lobster-thermidor"))
	r.WaitForOrder(ctx, "table-4", phaseIs(kitchen.OrderServed))
	r.WaitForOrder(ctx, "table-5", phaseIs(kitchen.OrderRejected))

	for _, name := range []string{"table-4", "table-5"} {
		o, _ := apiserver.NewClient[*kitchen.Order](r.Server).Namespace("dinner").Get(ctx, name, apiserver.GetOptions{})
		fmt.Printf("%s: %s (observedGeneration %d)\n", name, o.Status.Phase, o.Status.ObservedGeneration)
		for _, c := range o.Status.Conditions {
			fmt.Printf("  %-8s %-5s %s\n", c.Type, c.Status, c.Reason)
		}
	}
	fmt.Println("pantry:", r.Pantry.Check())
	// Output:
	// table-4: Served (observedGeneration 1)
	//   Accepted True  OnTheMenu
	//   Stocked  True  InStock
	//   Ready    True  AllCooked
	// table-5: Rejected (observedGeneration 1)
	//   Accepted False DishNotOnMenu
	// pantry: <nil>
}

// The table adds black truffle while the pasta is on the stove. The chef
// compares again, sees that only the extras changed, takes the truffle
// from the pantry and tells the same cook: nothing restarts.
func Example_step08_truffle() {
	r, ctx, closeKitchen := openKitchen()
	defer closeKitchen()
	r.Waiter.Place(ctx, order("table-7", 7, "vip", "seafood-pasta"))
	r.WaitForOrder(ctx, "table-7", phaseIs(kitchen.OrderCooking))
	r.Waiter.AddExtra(ctx, "table-7", 0, "black-truffle")
	r.WaitForOrder(ctx, "table-7", phaseIs(kitchen.OrderServed))

	o, _ := apiserver.NewClient[*kitchen.Order](r.Server).Namespace("dinner").Get(ctx, "table-7", apiserver.GetOptions{})
	fmt.Printf("generation %d, served by cook %s\n", o.Generation, o.Status.Items[0].Cook)
	l := r.Pantry.Ledgers(r.Clock.Now())
	fmt.Printf("black-truffle used %d%s, spaghetti used %d%s, wasted %d\n",
		l["black-truffle"].Used, l["black-truffle"].Unit, l["spaghetti"].Used, l["spaghetti"].Unit, l["spaghetti"].Wasted)
	// Output:
	// generation 2, served by cook table-7-0-g1
	// black-truffle used 10g, spaghetti used 200g, wasted 0
}

// The table leaves. The order carries the chef's finalizer, so the delete
// only marks it; the chef stops the cook, puts the unused ingredients
// back, says Cancelled and removes the finalizer; then the order is gone,
// and the front desk's garbage collector deletes the cook it owned.
func Example_step09_cancel() {
	r, ctx, closeKitchen := openKitchen()
	defer closeKitchen()
	// One pastry place: the second cake waits its turn.
	r.Waiter.Place(ctx, order("table-1", 1, "main", "chocolate-cake"))
	r.WaitForOrder(ctx, "table-1", phaseIs(kitchen.OrderCooking))
	r.Waiter.Place(ctx, order("table-2", 2, "main", "chocolate-cake"))
	r.WaitForOrder(ctx, "table-2", func(o *kitchen.Order) bool { return o != nil && len(o.Finalizers) > 0 })
	cooks, _ := r.Server.Resource(kitchen.CookResource).Namespace("dinner").Watch(ctx,
		apiserver.ListOptions{FieldSelector: "spec.order=table-2"})
	r.Waiter.Cancel(ctx, "table-2")
	r.WaitForOrder(ctx, "table-2", func(o *kitchen.Order) bool { return o == nil })
	for e := range cooks.ResultChan() {
		if e.Type == apiserver.EventDeleted { // the chef only stopped it: the garbage collector deletes it
			fmt.Printf("cook %s DELETED by the garbage collector\n", e.Object.GetObjectMeta().Name)
			break
		}
	}
	cooks.Stop()

	l := r.Pantry.Ledgers(r.Clock.Now())["chocolate"]
	fmt.Printf("chocolate: reserved %d (table-1's cake), wasted %d, on the shelf %d of %d\n", l.Reserved, l.Wasted, l.Shelf, l.Opening)
	fmt.Println("pantry:", r.Pantry.Check())
	// Output:
	// cook table-2-0-g1 DELETED by the garbage collector
	// chocolate: reserved 200 (table-1's cake), wasted 0, on the shelf 3800 of 4000
	// pantry: <nil>
}

// A chef that survives a disconnect. The runner loses the front desk: its
// watches end and cannot restart, and the desk compacts its history.
// Meanwhile a table cancels. Nothing is lost: once back, the runner lists
// again, the chef is handed the cancelled order, cleans up and lets it
// go — because the chef reads the state, not the events it missed.
func Example_step10_disconnect() {
	r, ctx, closeKitchen := openKitchen()
	defer closeKitchen()
	r.Waiter.Place(ctx, order("table-1", 1, "main", "beef-wellington"))
	r.Waiter.Place(ctx, order("table-2", 2, "main", "caesar-salad"))
	r.WaitForOrder(ctx, "table-1", phaseIs(kitchen.OrderCooking))

	srv := r.Server
	srv.FailNext(apiserver.VerbWatch, 3, apiserver.NewInternalError(fmt.Errorf("the runner is stuck in the lift")))
	srv.CloseWatches()
	r.Waiter.Cancel(ctx, "table-1")
	srv.CompactHistory()

	r.WaitForOrder(ctx, "table-1", func(o *kitchen.Order) bool { return o == nil })
	r.WaitForOrder(ctx, "table-2", phaseIs(kitchen.OrderServed))
	// While the runner was away the Wellington may have finished (used)
	// or not (wasted when stopped); either way nothing is left reserved.
	l := r.Pantry.Ledgers(r.Clock.Now())["filet-mignon"]
	fmt.Printf("table-1 cancelled and cleaned up: filet-mignon used or wasted %d, still reserved %d\n", l.Used+l.Wasted, l.Reserved)
	fmt.Println("table-2 served; pantry:", r.Pantry.Check())
	// Output:
	// table-1 cancelled and cleaned up: filet-mignon used or wasted 500, still reserved 0
	// table-2 served; pantry: <nil>
}

// Your own controller, as the story's DishReconciler is written with
// controller-runtime: For(Dish) with WithEventFilter(
// ResourceVersionChangedPredicate). Here a menu inspector checks every
// dish. The informer resyncs every second, but a resync carries nothing
// new (same resourceVersion), so the predicate drops it: the inspector
// is woken by real changes only. A typo in the menu wakes nobody either:
// the front desk checks every dish against the menu's rules, as a CRD's
// schema does, and refuses it with 422 Invalid before anything is stored.
func Example_step11_yourOwnController() {
	ctx, cancel := context.WithCancel(context.Background())
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	dishes := apiserver.NewClient[*kitchen.Dish](srv)
	inf := informer.NewSharedIndexInformer(srv.Resource(kitchen.DishResource),
		informer.Options[*kitchen.Dish]{ResyncPeriod: time.Second})

	inspected := make(chan string, 10)
	inspector := reconcile.ReconcilerFunc(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
		d, err := inf.Lister().Get(req.Name)
		if apiserver.IsNotFound(err) {
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
	d, _ := dishes.Create(ctx, wellington, apiserver.CreateOptions{})
	fmt.Println(<-inspected)
	d.Spec.Difficulty = 6 // a typo in the menu
	_, err := dishes.Update(ctx, d, apiserver.UpdateOptions{})
	fmt.Println("the typo:", err)
	d.Spec.Difficulty, d.Spec.CookingTime.Duration = 5, 45*time.Minute
	dishes.Update(ctx, d, apiserver.UpdateOptions{})
	fmt.Println(<-inspected)
	<-resyncs
	<-resyncs
	fmt.Println("inspected after two resyncs:", len(inspected))
	cancel()
	<-done
	<-done
	// Output:
	// beef-wellington (rv 2): 40 min at difficulty 5
	// the typo: Dish.menu.example.com "beef-wellington" is invalid: spec.difficulty: Invalid value: 6: must be between 1 and 5
	// beef-wellington (rv 3): 45 min at difficulty 5
	// inspected after two resyncs: 0
}

// When the front desk fails — too busy, 429 — the chef does not give up
// and does not hammer it either: a reconcile that returns an error puts
// its ticket back on the rail after a per-ticket backoff that doubles
// each time, and a success forgets it. (The cake shop's oven breaks
// down: wait longer each time, then carry on.)
func Example_step12_backoff() {
	r, ctx, closeKitchen := openKitchen()
	defer closeKitchen()
	busy := apiserver.NewTooManyRequests("the front desk is swamped", 1)
	r.Server.FailNext(apiserver.VerbUpdate, 3, busy) // the next three writes fail
	r.Waiter.Place(ctx, order("table-6", 6, "main", "caesar-salad"))
	r.WaitForOrder(ctx, "table-6", phaseIs(kitchen.OrderServed))

	chef, cooks := r.ChefMetrics(), r.BrigadeMetrics()
	fmt.Println("failed reconciles, each retried after a backoff:", chef.ReconcileErrors+cooks.ReconcileErrors)
	fmt.Println("table-6 served anyway; pantry:", r.Pantry.Check())
	// Output:
	// failed reconciles, each retried after a backoff: 3
	// table-6 served anyway; pantry: <nil>
}
