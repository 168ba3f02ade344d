package chapters

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/workqueue"
)

// 餐厅 §5 tunes the cache "like a runner who only watches the VIP room"
// with
//
//	informer.Lister().List(selector.FieldSelector{spec.section: vip})
//
// A lister takes a label selector, never a field selector: it reads the
// informer's cache, which knows objects' labels but not which fields the
// server can select on. Three things do what the story wants. An index
// answers "which orders are in the VIP room?" from the cache. A field
// selector belongs to the server: give it to the informer's List and
// Watch (client-go's WithTweakListOptions, here
// [informer.NewFilteredListWatch], or [informer.WithListerWatcher] for a
// factory),
// and the informer caches the VIP room only — that is what saves the
// API server's work. A label selector works in the lister, on labels.
// And "spec.section=vip" typed as a label selector is no error: it is a
// valid label key, that no order has — the lister returns nothing.
func ListersTakeLabelSelectors(w io.Writer) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	orders := client.New[*kitchen.Order](srv).Namespace("dinner")
	for i, section := range []string{"vip", "main", "vip"} {
		o := order(fmt.Sprintf("table-%d", i+1), i+1, section, "tomato-soup")
		o.Labels = map[string]string{"section": section}
		orders.Create(ctx, o, meta.CreateOptions{})
	}
	all := informer.NewSharedIndexInformer(srv.Resource(kitchen.OrderResource),
		informer.Options[*kitchen.Order]{Indexers: kitchen.OrderIndexers()})
	vipOnly := informer.NewSharedIndexInformer(informer.NewFilteredListWatch(srv.Resource(kitchen.OrderResource),
		func(o *meta.ListOptions) { o.FieldSelector = "spec.section=vip" }), informer.Options[*kitchen.Order]{})
	go all.Run(ctx)
	go vipOnly.Run(ctx)
	<-all.Synced()
	<-vipOnly.Synced()

	typo, _ := meta.ParseLabelSelector("spec.section=vip")
	got, _ := all.Lister().List(typo)
	fmt.Fprintln(w, `lister, label selector "spec.section=vip":`, names(got))
	byLabel, _ := all.Lister().List(meta.SelectorFromSet(map[string]string{"section": "vip"}))
	fmt.Fprintln(w, `lister, label selector "section=vip":     `, names(byLabel))
	byIndex, _ := all.GetIndexer().ByIndex(kitchen.OrderSectionIndex, "vip")
	fmt.Fprintln(w, `index "section", value "vip":            `, names(byIndex))
	cached, _ := vipOnly.Lister().List(nil)
	fmt.Fprintln(w, `informer listing with field selector:    `, names(cached), "cached, of 3")
}

// names returns the sorted names of some orders.
func names(orders []*kitchen.Order) []string {
	var n []string
	for _, o := range orders {
		n = append(n, o.Name)
	}
	slices.Sort(n)
	return n
}

// 餐厅 §3 watches with GET /api/v1/orders?watch=true&resourceVersion=10245.
// /api/v1 is the core group's path: Pods, Services, ConfigMaps. A custom
// resource lives under /apis/GROUP/VERSION, so the story's orders are at
// /apis/menu.example.com/v1/namespaces/NS/orders (or .../v1/orders for
// every namespace). The front desk answers the story's path 404, as a
// real API server would.
//
// The story's resourceVersion, 10245, is made up, and a made-up number is
// wrong either way. On a server that has not reached it yet (a fresh
// one: its resourceVersions start at 1) a read at 10245 waits for it,
// and after 3 seconds gets 504 "Too large resource version", as from
// kube-apiserver's watch cache. On one that has passed it and compacted
// its history (examples/serve numbers its writes from the clock, as a
// restarted cluster goes on from where it was), a watch from 10245 gets
// 410 Gone, "too old resource version". A watch starts from a
// resourceVersion the client has seen: the one its list returned.
func CustomResourcesLiveUnderApis(w io.Writer) {
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	orders := client.New[*kitchen.Order](srv).Namespace("dinner")
	orders.Create(context.Background(), order("table-1", 1, "main", "tomato-soup"), meta.CreateOptions{})
	front := httpapi.NewHandler(srv)
	for _, path := range []string{
		"/api/v1/orders",
		"/apis/menu.example.com/v1/orders",
		"/apis/menu.example.com/v1/namespaces/dinner/orders",
	} {
		code, body := call(front, http.MethodGet, path, nil)
		var answer struct {
			Message string            // a Status, for an error
			Items   []json.RawMessage // a list, for a success
		}
		if json.Unmarshal(body, &answer) != nil {
			// A path no resource lives at is Go's plain-text 404, as
			// on a real API server.
			fmt.Fprintf(w, "GET %s: %s (plain text)\n", path, strings.TrimSpace(string(body)))
			continue
		}
		if code != http.StatusOK {
			fmt.Fprintf(w, "GET %s: %d %s\n", path, code, answer.Message)
			continue
		}
		fmt.Fprintf(w, "GET %s: %d, %d order\n", path, code, len(answer.Items))
	}
	ctx := context.Background()
	_, _, err := orders.List(ctx, meta.ListOptions{ResourceVersion: "10245", ResourceVersionMatch: meta.ResourceVersionMatchNotOlderThan})
	fmt.Fprintf(w, "a fresh desk, list at resourceVersion 10245: %v\n", err)
	later := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{ResourceVersionStart: 20000, CompactionDropsHistory: true})
	client.New[*kitchen.Order](later).Namespace("dinner").Create(ctx, order("table-1", 1, "main", "tomato-soup"), meta.CreateOptions{})
	later.CompactHistory()
	changes, _ := client.New[*kitchen.Order](later).Namespace("dinner").Watch(ctx, meta.ListOptions{ResourceVersion: "10245"})
	defer changes.Stop()
	e := <-changes.ResultChan()
	fmt.Fprintf(w, "a desk at resourceVersion 20001, watch from 10245: %s %v\n", e.Type, meta.FromObject(e.Object))
}

// 餐厅 §4 handles "ingredients that went off" with
//
//	if errors.IsResourceExpired(err) { return ctrl.Result{RequeueAfter: 5 * time.Minute}, nil }
//
// IsResourceExpired is 410 Gone, "too old resource version": a watch or a
// paged list asked to start from a resourceVersion that the API server no
// longer keeps in its history. It is about the API's memory, not the
// pantry; informers handle it themselves by listing again, and a
// Reconcile that reads from the cache never sees it. Ingredients that
// went off are the application's business: the chef finds them in the
// pantry (the world outside the API) and returns RequeueAfter until the
// delivery, as this kitchen's chef does; the fact belongs in the order's
// status conditions, where the table and kubectl can read it.
func ExpiredIsAboutHistory(w io.Writer) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{CompactionDropsHistory: true})
	orders := client.New[*kitchen.Order](srv).Namespace("dinner")
	first, _ := orders.Create(ctx, order("table-1", 1, "main", "tomato-soup"), meta.CreateOptions{})
	orders.Create(ctx, order("table-2", 2, "main", "caesar-salad"), meta.CreateOptions{})
	srv.CompactHistory() // the front desk forgets the changes it has already told

	changes, err := orders.Watch(ctx, meta.ListOptions{ResourceVersion: first.ResourceVersion})
	if err != nil {
		panic(err)
	}
	defer changes.Stop()
	e := <-changes.ResultChan()
	err = meta.FromObject(e.Object)
	fmt.Fprintf(w, "watch from resourceVersion %s after compaction: %s\n", first.ResourceVersion, e.Type)
	fmt.Fprintln(w, " ", err)
	fmt.Fprintln(w, "  IsExpired:", meta.IsExpired(err))
	items, om, _ := orders.List(ctx, meta.ListOptions{})
	fmt.Fprintf(w, "what an informer does next: list again, at resourceVersion %s, %d orders\n", om.ResourceVersion, len(items))
}

// 餐厅 §5's tuning table says: for frequent updates, "increase the
// WorkQueue's buffer size" (扩展订单看板面积). A work queue has no buffer
// size: it is unbounded, and Add never blocks. What it has instead makes
// frequent updates cheap: it holds keys, not events, so a thousand updates
// of one order are one ticket, and the chef reads the latest order when
// it gets to it. To work faster, add workers (MaxConcurrentReconciles);
// never two of them get the same key at once.
//
// (What has a buffer is a watch: the API server cuts off a watcher that
// stops reading, and the informer re-watches from where it was; see
// [apiserver.Options].WatchBufferSize.)
func QueuesHaveNoBufferSize(w io.Writer) {
	rail := workqueue.New[string]()
	defer rail.ShutDown()
	for i := range 100_000 {
		rail.Add(fmt.Sprintf("dinner/table-%d", i))
	}
	fmt.Fprintln(w, "100000 different tickets added, none blocked; on the rail:", rail.Len())

	one := workqueue.New[string]()
	defer one.ShutDown()
	for range 1000 {
		one.Add("dinner/table-7")
	}
	fmt.Fprintln(w, "table-7 updated 1000 times; tickets on the rail:", one.Len())
	key, _ := one.Get()
	one.Add(key) // updated again while the chef works on it
	fmt.Fprintln(w, "updated while the chef works on it; on the rail:", one.Len(), "(it comes back after Done)")
	one.Done(key)
	fmt.Fprintln(w, "after Done:", one.Len())
}

// 餐厅 §5's tuning table says: on an unstable network, "lower the
// ListAndWatch timeout" (缩短传菜员汇报间隔, report more often). A watch
// does not report on an interval: the server pushes each change as it
// happens. Its timeout only bounds how long one watch request stays open
// (the reflector picks 5 to 10 minutes, as client-go does); then the
// reflector opens a new watch from the last resourceVersion it saw, with
// no new list and no event lost. A dropped connection is handled the same
// way, so a shorter timeout buys nothing but more requests. What helps on
// a bad network is the reflector's backoff between failed attempts
// ([informer.Options].Backoff), which it already has.
//
// Here the front desk drops every watch three times while orders keep
// coming: the runner lists once, watches four times, and misses nothing.
func AWatchTimeoutIsNotAReportInterval(w io.Writer) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	orders := client.New[*kitchen.Order](srv).Namespace("dinner")
	runner := informer.NewSharedIndexInformer(srv.Resource(kitchen.OrderResource), informer.Options[*kitchen.Order]{})
	seen := make(chan string, 10)
	runner.AddEventHandler(informer.ResourceEventHandlerFuncs[*kitchen.Order]{
		AddFunc: func(o *kitchen.Order, _ bool) { seen <- o.Name },
	})
	go runner.Run(ctx)
	<-runner.Synced()
	watches := func() int64 { return srv.RequestCount(apiserver.VerbWatch, kitchen.OrderResource.GroupResource()) }
	for i := 1; i <= 4; i++ {
		if i > 1 {
			srv.CloseWatches() // the network drops
		}
		orders.Create(ctx, order(fmt.Sprintf("table-%d", i), i, "main", "tomato-soup"), meta.CreateOptions{})
		fmt.Fprintln(w, "the runner saw", <-seen)
	}
	fmt.Fprintln(w, "lists:", srv.RequestCount(apiserver.VerbList, kitchen.OrderResource.GroupResource()), "watches:", watches())
}
