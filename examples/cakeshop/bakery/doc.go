// Package bakery runs a custom-cake shop on kitchensync: the Cake custom
// resource, a baker that reconciles orders against the kitchen, and eight
// runnable scenes that play the cake-shop story of how a Kubernetes
// Operator works, each hand-off narrated.
//
// A high-end cake shop takes hundreds of special orders a day. The order
// desk (订单受理台) is the API server. The order form's template — which
// fields an order has and what they may hold — is a
// CustomResourceDefinition: kind Cake in bakery.example.com/v1 (with
// BakerPool, Baker and Bake beside it, see [Kinds]); each filled-in form
// is a Cake, a custom resource. (The story calls the filled-in form the
// CRD; the tour's chapter on the story's YAML shows the difference.) The front
// desk (前台) is the informer: it lists and watches the orders, keeps a
// ledger (the Indexer) and rings the kitchen when something changes. The
// tickets wait on the work queue (工作队列), a priority queue where a VIP's
// order goes first. The kitchen (后厨) is the controller: its baker, the
// reconciler, compares what an order asks for (spec, the desired state)
// with what is on the tray (the actual state) and closes the gap, one step
// at a time, writing a checkpoint into the status after each. The bakers
// (糕点师) are the pods, hired and let go by an autoscaler. Each branch
// (分店) is a namespace, and a chain of shops is several clusters under a
// central dispatcher.
//
// # The order form
//
// A [Cake]'s spec holds the story's form: flavor (蛋糕类型), size in inches
// (尺寸), layers, decoration (装饰要求), pickup time (取货时间), notes and
// allergies (特殊说明, 坚果过敏), resources (maxOvenTime, icingMemory) and a
// priority (100, or 1000 for a VIP). Its status holds the phase (Pending,
// Baking, Decorating, Completed, Failed), the checkpoint (the last step
// finished), the observed generation and conditions.
//
// The form itself is crd/cakes.bakery.example.com.yaml ([CakeCRD]): the
// story's order form as a CustomResourceDefinition, corrected. The
// order-form scene applies it to a server that knows no kinds and the
// kind appears; kubectl apply -f of the same file makes it on a real
// cluster, or on examples/serve. The file says what the story gets
// wrong: a group without a dot ("bakery", which a cluster refuses), the
// definition's name, a field named kind inside spec, special
// instructions as annotations, a pickup time that is no date-time, a
// memory quantity compared as a number.
//
// The kinds carry their rules as the API server's Validate hooks ([Kinds]),
// as a CRD carries its OpenAPI schema: the server refuses a bad cake,
// pool or baker with 422 Invalid naming each bad field, however it is
// sent — by a controller, by the [OrderDesk] or by kubectl over HTTP.
// [ValidateCake] runs the same rules (written once) before the desk asks,
// so the desk refuses a bad form with the same typed error, without a
// request.
//
// # The baker and the oven
//
// [CakeReconciler] is level-triggered: it reads the order from the front
// desk's ledger, never from the event. A new order is prepared and baked;
// a modified order (a new generation) is rebaked only if the sponge changed
// (flavor, size, layers), otherwise only the decoration is redone; a
// cancelled order (deleted, held by the [Finalizer]) stops the oven and
// refunds the deposit, exactly once. A finished order whose generation has
// not changed is left alone (idempotency), and an interrupted one resumes
// after its checkpoint.
//
// A cake takes hours of shop time, and no Reconcile waits for any of it.
// The baker starts a step and returns Result.RequeueAfter its length; the
// sponge goes into the oven as a [Bake] object, owned by the cake
// (ownerReferences), which the [Oven] — a controller of its own — starts,
// times with RequeueAfter and finishes, writing Baking, then Done or
// Collapsed into its status; reconcile.Owns turns that write into a
// ticket for the cake. Bakers on duty and ovens ([Staff]) are taken
// without blocking: a cake that finds none free waits on a list and goes
// back on the rack when one frees. This is the restaurant's pattern too
// (the chef and its Cook objects, the brigade): a worker blocked for the
// length of a bake would be a worker the shop does not have, and the
// controller's reconcile latency would measure ovens, not the controller.
//
// # Time
//
// Shop time runs on a [Clock]: one shop minute lasts [DefaultMinute] of
// real time, so a 40-minute bake takes 40 ms and the whole story a few
// seconds. The clock reads the real time package, so inside a
// testing/synctest bubble — where this package's tests run every scene —
// shop time is virtual and the tests take no wall time. (One thing does not
// scale: like client-go, an informer resyncs at most once a real second.)
//
// # Scenes
//
// Each scene is a function that plays a part of the story and returns a
// [Report]; [Scenes] lists them and cmd examples/cakeshop runs them.
//
//	story (蛋糕店经营秘籍)                             scene       function
//	1.1 订单受理台: the form's template is a CRD,    order-form  SceneOrderForm
//	    applied, established, its schema refusing
//	1.2, 2.1, 4.2 前台, 后厨: List+Watch, ledger;    lifecycle   SceneLifecycle
//	    new / modified / cancelled orders
//	2.2 容错: fallback frosting, collapse retries,  faults      SceneFaults
//	    oven backoff, decoration last (eventual consistency)
//	3.1 多门店: namespaces, a central warehouse,     branches    SceneBranches
//	    two clusters, a dispatcher, disaster recovery (隔壁分店应急接单)
//	3.2 HPA: bakers 2..10 at 70%, spare ovens       rush        SceneRush
//	    (Node 扩容), degraded service (降级服务)
//	7.1 wedding cake: RequeueAfter vs error          edge        SceneEdge
//	7.2 VIP orders jump the queue (priority 1000)    edge        SceneEdge
//	8 幂等, 断点, 5 bakers, resync, logs             practices   ScenePractices
//	5 监控: reconcile latency (short, the alert      monitoring  SceneMonitoring
//	    stays quiet) and cake lead time (fires on a slow oven)
//
// # Determinism
//
// All narration goes through one [Journal], so lines never interleave; each
// order's own lines are causally ordered. The scenes with one baker that
// wait for each step (order-form, lifecycle, the wedding-cake lesson) print
// the same lines every run. Where several bakers work at once, the order
// of their lines follows the scheduler, but every [Report] — outcomes,
// retry delays, counts — is the same for a given seed in a testing/synctest
// bubble, and in practice in real time too (only the rush's counts, which
// depend on when the autoscaler looks, can shift on a loaded machine).
//
// # What the story gets wrong
//
// The story's edge case returns ctrl.Result{RequeueAfter: time.Hour}
// together with an error. controller-runtime, and reconcile.Controller,
// ignore the Result whenever the error is not nil: the request is retried
// by the rate limiter, after 5, 10, 20, 40 shop minutes, and every try is
// counted and logged as an error. The edge scene shows it, and then the
// fix: waiting is not an error, so return the RequeueAfter alone. The
// story's alert also names controller_runtime_reconcile_duration_seconds;
// controller-runtime's histogram is controller_runtime_reconcile_time_seconds.
// And its sketch bakes inside Reconcile (bakeNewCake, then "check the
// progress every 30 seconds"): a reconcile that waits for an oven ties up
// a worker for the whole bake, and a p90 reconcile time of hours would
// look normal. Here the bake is a Bake object and the waiting is
// RequeueAfter: the monitoring scene shows reconciles of microseconds,
// and puts the slow-oven alert on the cake lead time instead.
package bakery
