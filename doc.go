// Package kitchensync rebuilds the Kubernetes controller machinery — an
// API server, watches, informers, work queues and reconcilers — from
// scratch and in one process, and runs a restaurant on it so that you can
// watch every hand-off.
//
// This package holds no code: it is the entry of the guided tour. Run the
// dinner service first, then the tour, which prints each chapter's prose,
// its code and its real output in the terminal:
//
//	go run ./examples/restaurant
//	go run ./examples/tour -list     # the chapters
//	go run ./examples/tour -step 1   # one chapter; without -step, all of them
//
// To read the same tour as web pages, with the chapters as this package's
// Examples in order, run go doc -http here: since Go 1.25 it serves
// pkgsite's pages for this module on localhost and opens a browser (its
// first run downloads pkgsite's small doc server, so it needs the
// network once). go run golang.org/x/pkgsite/cmd/pkgsite@latest serves
// the same pages with pkgsite itself.
//
// # The restaurant
//
// A waiter writes a table's order and pins it at the front desk. A runner
// watches the desk, remembers every open order and puts a ticket on the
// rail. The chef takes tickets one at a time, compares what the table
// asked for with what is on the stoves, and sends cooks to the stations
// until the two agree. Nobody keeps asking the front desk "anything
// new?": the runner tells. That is a Kubernetes controller.
//
//	Restaurant                        餐厅                  Kubernetes                    kitchensync
//	--------------------------------  --------------------  ----------------------------  ----------------------------------
//	the menu (a recipe)               菜单 / 菜品           a CustomResourceDefinition    kitchen.Dish (menu.example.com/v1)
//	a table's order                   订单                  a custom resource             kitchen.Order
//	waiter takes an order             服务员下单            kubectl apply → Create        kitchen.Waiter, apiserver.Client
//	front desk                        前台                  the API server (etcd behind)  apiserver.Server
//	order number on the ticket        订单版本号            resourceVersion               apiserver.ObjectMeta
//	customer edits the order          顾客修改订单          Update event; a stale RV      409 Conflict, RetryOnConflict
//	runner                            传菜员                Informer (List + Watch)       informer.SharedIndexInformer
//	runner's first round              首次抄录所有桌号      List, then Watch from its RV  informer.Reflector
//	runner's notes: new, extra, gone  便签：新单/加菜/退单  Added/Updated/Deleted deltas  informer.DeltaFIFO
//	runner's memory                   传菜员的记忆          the local cache (store)       store.Indexer
//	"what does table 7 have?"         按桌号查              an index                      kitchen.OrderTableIndex
//	several runners, one memory       多个传菜员共享记忆    SharedInformer                informer.SharedInformerFactory
//	ticket rail                       订单看板              WorkQueue                     workqueue, kitchen.TicketRail
//	VIP tickets first                 VIP 订单插队          priority queue                workqueue.PriorityQueue
//	"10 tickets per minute"           高峰期限流            token-bucket rate limiter     workqueue.NewBucketRateLimiter
//	chef                              主厨                  Reconciler / Operator         reconcile.Reconciler, kitchen.Chef
//	chef checks the pass regularly    主厨定期检查备餐台    resync                        informer.Options.ResyncPeriod
//	cooks at stations                 厨师 / 工位           Pods on nodes                 kitchen.Cook, kitchen.Stations
//	cook's report                     厨师汇报              Pod status (kubelet)          kitchen.Brigade
//	clear the table only when sure    确认顾客真要走才撤台  finalizer                     reconcile.AddFinalizer
//	out of stock: wait for delivery   食材短缺 / 过期       RequeueAfter                  reconcile.Result
//	pantry                            食材库                the world outside the API     kitchen.Pantry
//
// # The guided tour
//
// The chapters are functions of package
// [github.com/kitchensync/kitchensync/examples/tour/chapters], one each,
// with the chapter's prose as their doc comment. go run ./examples/tour
// prints them; the Examples of this package (in tour_test.go) run them and
// pin their output with // Output:, so go test checks every chapter, and
// go doc -http shows them in order. They use only the exported API, as
// your code would.
//
//   - Example_step01_anOrderIsAnObject: an order is an object with a
//     resourceVersion; every write makes a new one.
//   - Example_step02_conflict: two waiters edit one order; the stale one
//     gets 409 Conflict and retries.
//   - Example_step03_watch: the front desk streams every change after a
//     resourceVersion.
//   - Example_step04_watchOverHTTP: the same watch as the story's curl,
//     GET .../orders?watch=true&resourceVersion=N, one JSON line per event.
//   - Example_step05_runnerRemembers: an informer lists, watches and
//     keeps a cache with indexes by table and section.
//   - Example_step06_ticketRail: the rail collapses duplicate tickets and
//     puts VIP tickets first.
//   - Example_step07_chef: a reconciler cooks an order to Served, and
//     rejects a dish that is not on the menu, with the reason.
//   - Example_step08_truffle: an amendment mid-cooking adapts without a
//     restart.
//   - Example_step09_cancel: a finalizer makes cancellation clean; the
//     garbage collector deletes the cooks the order owned.
//   - Example_step10_disconnect: a chef that survives a disconnect: the
//     runner's watches are cut and cannot restart, history is compacted,
//     a table cancels meanwhile; the runner relists and the chef cleans
//     up all the same. (The watch-expired lesson shows the 410 Expired and
//     the tombstone up close.)
//   - Example_step11_yourOwnController: a controller of your own, as the
//     story writes its DishReconciler: reconcile.For with the
//     ResourceVersionChangedPredicate, so resyncs wake nobody; the front
//     desk's validation refuses a typo in the menu before anyone sees it.
//   - Example_step12_backoff: the front desk fails (429); failed
//     reconciles come back after a growing backoff, and the order is
//     served anyway.
//
// # The lessons as programs
//
// Each runs in a few seconds and narrates each hand-off, one line per
// step, prefixed by who acts ([waiter], [apiserver], [runner], [rail],
// [chef], [cook]):
//
//	go run ./examples/restaurant       # a whole dinner service, then a summary
//	go run ./examples/order-lifecycle  # create → cook → add truffle → cancel
//	go run ./examples/shared-informer  # two runners, one memory; API calls counted
//	go run ./examples/resync           # the chef re-checks the pass on a timer
//	go run ./examples/watch-expired    # 410 Expired, relist, a tombstone
//	go run ./examples/rush-hour        # 10 tickets per minute
//	go run ./examples/vip-priority     # VIP tickets first
//	go run ./examples/finalizers       # cancellation with and without a finalizer
//
// # Packages
//
// Data flows one way: apiserver (the front desk) → informer (the runner)
// → store (its memory) → workqueue (the rail) → reconcile (the chef's
// routine) → kitchen (the restaurant). Start with the doc of each, in
// that order.
package kitchensync
