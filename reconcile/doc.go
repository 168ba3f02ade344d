// Package reconcile turns informer events into calls of a [Reconciler]
// that makes the world match what an object asks for: the control loop,
// like controller-runtime's reconcile, controller, predicate and handler
// packages rolled into one small package.
//
// In the kitchen, the chef (主厨) takes the next ticket off the rail, reads
// what the customer asked for — not from the ticket, which carries only the
// table and order number, but from the runner's up-to-date memory — looks at
// the pass to see what is already plated, and does whatever closes the gap.
// If the same ticket comes up twice, the second look finds nothing to do.
// The ticket rail is the [WorkQueue], the runner's memory is the informer's
// cache, the chef is your [Reconciler], and the [Controller] is the kitchen
// routine that keeps handing tickets to the chefs on duty.
//
// # The loop
//
// A [Controller] watches informers. [For] watches the kind it manages,
// [Owns] the children it creates, [Watches] anything else with a mapping
// function. Each event that passes the [Predicate]s becomes a [Request] —
// just a namespace and name — on the controller's queue. Workers take
// requests off the queue and call Reconcile; the queue never hands the same
// key to two workers at once, and a key added while it is being reconciled
// is reconciled once more afterwards.
//
// # Building a controller
//
// Go methods cannot have type parameters, so instead of
// controller-runtime's fluent builder a controller is made from an
// [Options] struct and then told what to watch with generic functions
// whose call sites read as sentences:
//
//	c, err := reconcile.NewController("orders", chef, reconcile.Options{MaxConcurrentReconciles: 4})
//	err = reconcile.For(c, orders, reconcile.GenerationChangedPredicate[*Order]{})
//	err = reconcile.Owns(c, cooks, orderKind) // orderKind: the Order's meta.KindInfo
//	err = reconcile.Watches(c, dishes, ordersUsingDish)
//	c.WithEventFilter(notPaused)
//	err = c.Start(ctx) // blocks until ctx is done
//
// Start does not run the informers; run them (or their factory) as well.
// A [Client] gives the reconciler reads from an informer's cache and writes
// to the API server.
//
// # Level-triggered, not edge-triggered
//
// A reconciler is not told what happened ("the size went from 3 to 4"); it
// is told which object to look at, and compares the whole desired state
// with the whole actual state. That is why a [Request] carries only a key:
// by the time a worker gets to it, the object may have changed again, or
// several events may have collapsed into one request, or the object may be
// gone (a NotFound from the cache means: clean up, or do nothing). Acting
// on the current level, not on each edge, makes missed and merged events
// harmless.
//
// The same reasoning demands idempotency: Reconcile may run any number of
// times for the same state — after a resync, a restart, a retry, an event
// that changed nothing it cares about — and must then do nothing new.
// Create children with fixed names (a second create fails with
// AlreadyExists, which is fine), compare before updating, and record what
// was done in the status.
//
// # What a Result does
//
// After each Reconcile, the controller acts on what it returned, as
// controller-runtime does:
//
//   - a non-nil error: the request is requeued rate-limited — per key
//     5ms, 10ms, 20ms, ... with the default rate limiter — and the Result
//     is ignored (a warning is logged if it asked for a requeue);
//   - an error wrapped by [TerminalError]: logged and counted, and not
//     requeued; the key's backoff is also forgotten, so its next event
//     starts a fresh one (controller-runtime leaves it as it was);
//   - a panic: recovered, logged with its stack, counted, and handled as
//     an error;
//   - Result{RequeueAfter: d} with d > 0: the backoff is forgotten and the
//     request is added again after d;
//   - the zero Result: the backoff is forgotten; the key waits for its next
//     event.
//
// Which wins when they race (controller-runtime#3090, #1720): the
// earliest. A requeue never delays an event, and an event does not wait for
// a pending RequeueAfter. The queue holds at most one entry per key, and an
// add keeps the earliest ready time of that entry. So an event that arrives
// while a RequeueAfter is pending reconciles the key at once; with the
// default priority queue (as in controller-runtime) that replaces the timed
// requeue, and whatever the new reconcile returns decides what comes next:
// a zero Result means no timed requeue any more, an error means the error's
// backoff. (With a plain workqueue.RateLimitingQueue the timed requeue stays
// pending and fires as well.) An event during a reconcile is held until the
// reconcile ends, then the key runs once more, whatever that reconcile
// returned. Two rules follow: RequeueAfter means "no later than", never
// "not before" — a reconciler that must wait checks the time itself — and a
// reconciler that wants to look again periodically returns RequeueAfter
// every time, not just the first.
//
// # Predicates
//
// Predicates drop events before they become requests.
// [GenerationChangedPredicate] drops updates that did not change the spec
// (metadata.generation), so a controller that writes status does not wake
// itself up; [ResourceVersionChangedPredicate] drops resyncs;
// [LabelChangedPredicate] and [AnnotationChangedPredicate] pass only those
// changes; [And], [Or] and [Not] combine them; [Funcs] and
// [NewPredicateFuncs] build your own. [Controller.WithEventFilter] applies
// a predicate to every watch of a controller.
//
// # Finalizers
//
// A delete that happened while the controller was down is never seen as an
// event: the object is simply gone. To be sure cleanup runs, add a
// finalizer while the object lives ([AddFinalizer], then Update). A delete
// then only sets metadata.deletionTimestamp; the reconciler sees it, cleans
// up, removes the finalizer ([RemoveFinalizer], then Update), and the API
// server deletes the object:
//
//	if obj.DeletionTimestamp != nil {
//		if reconcile.ContainsFinalizer(obj, myFinalizer) {
//			cleanUp(obj)
//			reconcile.RemoveFinalizer(obj, myFinalizer)
//			return reconcile.Result{}, update(obj)
//		}
//		return reconcile.Result{}, nil
//	}
//	if reconcile.AddFinalizer(obj, myFinalizer) {
//		return reconcile.Result{}, update(obj)
//	}
//
// # Conflicts
//
// The cache lags behind the API server: right after a write, a reconcile
// may read the old object and its update fails with 409 Conflict. That is
// normal. Return the error (the request is retried with backoff and then
// reads a fresher cache), or wrap the read-modify-write in
// [client.RetryOnConflict].
//
// # Reading your own writes
//
// A 409 is the kind outcome of a stale cache. The unkind one is a
// reconcile that does not see what the controller itself did last time
// and does it again: the cache does not have the child it just created,
// so it creates another (one of the three bug classes behind the 46
// bugs Sieve, OSDI '22, found in real controllers). A [Freshness] guards
// against it, as kube-controller-manager's ReplicaSet, DaemonSet,
// StatefulSet and Job controllers have since Kubernetes 1.36: the
// reconciler records the resourceVersion of each write with
// [Freshness.WroteAt]; the controller, given it in [Options].Freshness,
// checks before each reconcile that the caches have reached those
// resourceVersions ([Freshness.EnsureReady]) and otherwise skips the
// reconcile and requeues it, counting stale_sync_skips_total; a delete
// clears the record. It needs caches that know how far they have got
// ([store.Indexer.LastStoreSyncResourceVersion], kept by an informer
// behind its default, atomic queue), and resourceVersions that compare
// as integers (see [Freshness], "What it assumes"). A cache that reports
// no resourceVersion (behind the other queues) holds nothing back, as in
// kube-controller-manager (see [Freshness], "A cache that cannot tell").
// Opt-in, per controller.
//
// # Workers, queue and shutdown
//
// [Options].MaxConcurrentReconciles workers (default 1) run, each its own
// goroutine. The queue is a workqueue.PriorityQueue by default: requests
// from an informer's initial list and from resyncs are added at
// [LowPriority], so real changes go first. Any queue with the [WorkQueue]
// contract can be plugged in. [Controller.Start] waits for the informers'
// caches to sync (up to [Options].CacheSyncTimeout, then a
// [*CacheSyncError]) before any worker starts, so that reconcilers never
// read a half-filled cache; when its context ends, it lets the reconciles
// in progress finish before returning.
//
// # Metrics and logs
//
// Each controller counts, from 0, what controller-runtime counts, under
// the same names: controller_runtime_reconcile_total{controller,result},
// controller_runtime_reconcile_errors_total,
// controller_runtime_terminal_reconcile_errors_total,
// controller_runtime_reconcile_panics_total,
// controller_runtime_reconcile_time_seconds,
// controller_runtime_active_workers and
// controller_runtime_max_concurrent_reconciles; with [Options].Freshness
// also kube-controller-manager's stale_sync_skips_total and
// store_resource_version{resource}. Read them by value with
// [Controller.Metrics]; the subpackage reconcile/prommetrics exposes them
// to a Prometheus registry, so this package does not depend on Prometheus.
// Logs go through log/slog to [Options].Logger (none by default);
// Reconcile can log with the request's key attached through [LoggerFrom].
package reconcile
