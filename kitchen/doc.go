// Package kitchen is the restaurant that runs on kitchensync: its menu and
// orders are custom resources, and a chef reconciles them against the
// kitchen's actual state.
//
// Picture a busy restaurant. A waiter (the kubectl of the dining room)
// writes a table's order and pins it at the front desk — the API server.
// The runner (传菜员, the informer) watches the desk, remembers every open
// order (the local cache) and sticks a ticket on the ticket rail (订单看板,
// the workqueue). The chef (主厨, the reconciler) takes tickets one at a
// time, compares what the table asked for (the Order's spec) with what is
// actually on the stoves and in the pantry, and sends cooks (the pods) to
// the stations to close the gap. When every dish is cooked, the order's
// status says so and the plates go to the table. The chef never asks the
// front desk "anything new?" every minute: the runner tells.
//
// # Kinds
//
// Three kinds live under menu.example.com/v1 ([Register] adds them to a
// scheme): [Dish], the cluster-scoped menu (a recipe with ingredients, a
// cooking time and a difficulty); [Order], a table's order in a namespace
// (selectable by the fields spec.section and spec.table); and [Cook],
// one cook preparing one item of an order, owned by the order through a
// controller owner reference, as a Pod is owned by its ReplicaSet.
// Each kind registers its spec rules with the API server, as a CRD's
// schema does: a write that breaks one is refused with a 422 Invalid
// error that names each wrong field, whoever sends it. [ValidateOrder] and
// [ValidateDish] run the same rules client side (the [Waiter] checks
// before it asks).
//
// # The kitchen's actual state
//
// A [Clock] maps kitchen minutes onto real time ([DefaultMinute] each, so
// a dinner service takes seconds, and no time at all inside a
// testing/synctest bubble). The [Pantry] keeps the stock: cooks reserve
// ingredients, then use, return or waste them; deliveries arrive on a
// schedule, stock can go off, and [Pantry.Check] proves that no gram was
// lost or counted twice.
//
// # The people
//
// Who works the kitchen, each a plain type of this package:
//
//   - the [Waiter] writes orders to the API server as kubectl would
//     (create, edit with a retry on conflict, delete);
//   - the [TicketRail] (订单看板) is the chef's work queue: a priority
//     queue with VIP tables first ([TicketPriority]) and an optional token
//     bucket for rush hour;
//   - the [Chef] (主厨) is a [reconcile.Reconciler] of orders: it reads
//     each order from the runner's cache ([Cache]), compares it with the
//     kitchen, sends [Cook]s, adapts to amendments, handles cancellations
//     through its finalizer and writes the status; it records what it
//     writes ([Chef].Freshness), so that a ticket waits until the
//     runner's memory shows the chef's own last writes (behind the
//     runner's default, atomic queue: the only one whose memory can say);
//   - the [Brigade] is the cooks' reconciler (the kubelet of this
//     kitchen): it puts each cook to work on the [Stations] and reports
//     its phase.
//
// Each tells what it decides to a [Logger], one line per hand-off.
//
// # Beside this package
//
// This package is the restaurant's domain; it imports the library's
// machinery (reconcile, workqueue, store, the client seam) but no
// package below kitchen/. Beside it, each with one job:
//
//   - kitchen/restaurant wires a whole restaurant on the library: the API
//     server (or an HTTP client of one), the runner (传菜员: shared
//     informers from one factory), the chef's and the brigade's
//     controllers and their watches, the people above — Open it, Run it;
//   - kitchen/narration tells the story: its Narrator writes each line,
//     prefixed by the kitchen minute and by who acts — [waiter],
//     [apiserver], [runner], [rail], [chef], [cook] — and its Story draws
//     what the machinery does (the front desk's writes, the runner's
//     caches, predicates, reconciles) from the trace (package trace);
//   - kitchen/dinner plays a seeded dinner service on a restaurant and
//     sums it up;
//   - kitchen/kitchentest makes a restaurant take one step at a time, for
//     tests whose narration must be the same every run;
//   - kitchen/liveview shows the pass as a web page.
//
// # Phases
//
// An order goes Pending → Cooking → Ready → Served, or ends Rejected (a
// dish that is not on the menu, an unknown extra, an ingredient out of
// stock with no delivery due: the reason is in the Accepted condition) or
// Cancelled (the table left: a finalizer lets the chef stop the cooks and
// put unused ingredients back before the order disappears; then the API
// server's garbage collector deletes the Cook objects the order owned).
//
// # Over the wire
//
// The chef need not stand at the desk: it reaches the API only through
// typed clients ([client.Client]), in process or over HTTP (package
// apiserver/rest), and reads only the runner's caches. Package
// kitchen/restaurant runs the same kitchen against an API server in
// another process, or the desk without a kitchen; examples/serve and
// examples/chef are the two halves as programs. examples/chef also shows
// leader election between chefs, and the same chef pointed at a real
// cluster:
//
//	go run ./examples/chef -kubeconfig ~/.kube/config -namespace dinner
//
// after `kubectl apply -f examples/manifests/crds/`, the
// CustomResourceDefinitions generated from this package's kinds. With an
// [EventRecorder] the chef pins its notes to each order as Events, which
// `kubectl describe order` shows.
package kitchen
