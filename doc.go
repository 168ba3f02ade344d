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
// # A reading path
//
// The machinery in the order to read it, from the cache a controller
// reads to the server it writes to — about 5900 lines of Go, comments
// included (a test keeps each count within 15%):
//
//	store/indexer.go              358  the cache: objects by key, its indexes, and how far it has got
//	store/index.go                158  one index: a function from an object to values, and back
//	informer/delta.go             131  what a change is: Added, Updated, Deleted, Replaced, Sync
//	informer/fifo.go              320  what every informer queue shares: keys, Pop, HasSynced
//	informer/realfifo.go          232  the queue between the watch and the cache, client-go v0.37's
//	informer/reflector.go         468  list, then watch from the list's resourceVersion; 410 relists
//	informer/informer_process.go  238  each change applied to the cache, then told to the handlers
//	informer/processor.go         255  one buffered, ordered delivery per handler
//	informer/shared_informer.go   365  one list and watch, one cache, many handlers
//	informer/factory.go           236  one informer per resource in a process
//	workqueue/queue.go            217  keys, never objects; dedup; one worker per key
//	workqueue/delaying_queue.go   246  AddAfter
//	workqueue/rate_limiters.go    217  how long a failed key waits
//	reconcile/source.go           223  events to keys: For, Owns, Watches, predicates
//	reconcile/worker.go           130  a key at a time; errors back off; RequeueAfter
//	reconcile/controller.go       289  workers, the queue, the sources, metrics
//	reconcile/freshness.go        184  reading your own writes (Kubernetes 1.36)
//	apiserver/server.go           207  the front desk: the objects, the history, the watchers
//	apiserver/commit.go           229  every write: the next resourceVersion, the history, the fan-out
//	apiserver/client.go           333  create and get
//	apiserver/update.go           273  update, 409 Conflict, generation, finalizers
//	apiserver/watch_open.go       195  a watch from a resourceVersion: every change after it, or 410
//	apiserver/watch_fanout.go     256  one event, every watcher
//	examples/build/step8/cake.go  237  a controller of your own, on all of the above
//
// Each package's doc (go doc ./store, ./informer, ./workqueue,
// ./reconcile, ./apiserver) says the same in prose first.
//
// # The restaurant (餐厅后厨)
//
// A waiter writes a table's order and pins it at the front desk. A runner
// watches the desk, remembers every open order and puts a ticket on the
// rail. The chef takes tickets one at a time, compares what the table
// asked for with what is on the pass, and sends cooks to the stations
// until the two agree. Nobody keeps asking the front desk "anything
// new?": the runner tells. That is a Kubernetes controller. The story's
// words, and where each lives here:
//
//	Restaurant                       餐厅                    Kubernetes                          kitchensync
//	-------------------------------  ----------------------  ----------------------------------  -----------------------------------------
//	the menu's rules                 菜单规范                CustomResourceDefinition (kind)     kitchen.Register, meta.KindInfo
//	a dish on the menu               菜品 (beef-wellington)  a custom resource of kind Dish      kitchen.Dish
//	a table's order                  订单                    a custom resource of kind Order     kitchen.Order
//	waiter takes an order            服务员下单              kubectl apply → Create              kitchen.Waiter, client.Client
//	front desk                       前台                    the API server (etcd behind)        apiserver.Server, httpapi
//	order number on the ticket       订单版本号              resourceVersion                     meta.ObjectMeta
//	customer edits the order         顾客修改订单 / 加急     Update; a stale copy gets 409       409 Conflict, RetryOnConflict
//	runner                           传菜员                  Informer (List + Watch)             informer.SharedIndexInformer
//	runner's first round             首次抄录所有桌号        List, then Watch from its RV        informer.Reflector
//	notes: new, extra, gone          便签：新单/加菜/退单    Added/Updated/Deleted deltas        informer.RealFIFO (not a DeltaFIFO)
//	runner's memory                  传菜员的记忆            the local cache                     store.Indexer, informer.Lister
//	"what does table 7 have?"        按桌号查                an index                            kitchen.OrderTableIndex
//	only the VIP room, please        只关注VIP区域订单       a field selector on List and Watch  informer.NewFilteredListWatch
//	several runners, one memory      多个传菜员共享记忆      SharedInformer, informer factory    informer.SharedInformerFactory
//	ticket rail                      订单看板                WorkQueue (keys, deduped)           workqueue, kitchen.TicketRail
//	VIP tickets first                VIP 订单插队 / 优先级   priority queue                      workqueue.PriorityQueue
//	"10 tickets per minute"          高峰期限流              token bucket (a choice: tour)       kitchen.RailOptions
//	chef                             主厨 / 行政总厨         Reconciler (an Operator's heart)    reconcile.Reconciler, kitchen.Chef
//	the pass, the prep counter       出菜口 / 备餐台         actual state: what really is        kitchen.Stations, Pantry, Cooks
//	what the table asked for         食谱要求                desired state: the spec             kitchen.OrderSpec
//	chef re-checks the pass          主厨定期检查备餐台      resync (from the cache)             informer.Options.ResyncPeriod
//	an unchanged order wakes nobody  事件去重                ResourceVersionChangedPredicate     reconcile.ResourceVersionChangedPredicate
//	cooks at stations                厨师 / 工位             Pods on nodes                       kitchen.Cook, kitchen.Stations
//	cook's report                    厨师汇报                Pod status (the kubelet writes it)  kitchen.Brigade
//	clear only when they leave       确认顾客真要走才撤台    finalizer                           reconcile.AddFinalizer, RemoveFinalizer
//	clear what the order left        清理已备食材 / GC回收   garbage collection (owners)         meta.NewControllerRef
//	out of stock: wait               食材短缺                RequeueAfter + a condition          reconcile.Result, SetStatusCondition
//	pantry                           食材库                  the world outside the API           kitchen.Pantry
//	security cameras                 监控摄像头              metrics                             reconcile.Metrics, reconcile/prommetrics
//	quality inspection               质检                    tests against a real API server     apiservertest, synctest
//
// "The menu" is two things the story does not tell apart: the menu's
// rules (what any dish must say) are the CustomResourceDefinition, the
// kind; each dish on it is one object of that kind.
//
// # The cake shop (蛋糕店)
//
// The second story, played by go run ./examples/cakeshop (package
// [github.com/kitchensync/kitchensync/examples/cakeshop/bakery]): a shop
// of custom cakes whose order desk is the API server, whose front desk
// is the informer and whose kitchen is the controller.
//
//	Cake shop                     蛋糕店                  Kubernetes                           kitchensync
//	----------------------------  ----------------------  -----------------------------------  --------------------------------------
//	order desk                    订单受理台              the API server                       bakery.NewServer
//	the order form's template     订单表格 (设计)         a CustomResourceDefinition (Cake)    bakery.Kinds
//	a filled-in order form        订单表 (YAML)           a Cake custom resource               bakery.Cake
//	cake type, size, decoration   蛋糕类型/尺寸/装饰要求  spec.flavor, .size, .decoration      bakery.CakeSpec
//	pickup time, special notes    取货时间/特殊说明       spec.pickupTime, .notes, .allergies  bakery.CakeSpec
//	front desk                    前台                    Informer: one List, then Watch       informer.SharedIndexInformer
//	ringing the kitchen's bell    摇铃通知后厨            watch event → handler → queue        informer.ResourceEventHandler
//	the ledger                    台账                    the local cache                      store.Indexer
//	production queue              生产队列 / 工作队列     WorkQueue                            workqueue.PriorityQueue
//	head baker                    主厨 / 后厨             controller and reconciler            bakery.CakeReconciler
//	what the order asks for       订单需求                desired state (spec)                 bakery.CakeSpec
//	stock and cakes in the oven   库存现状                actual state                         bakery.Kitchen
//	cake collapses: bake again    蛋糕塌陷时重新烘烤      error → rate-limited retry           reconcile (an error requeues)
//	oven broken: wait longer      烤箱故障时延长等待      exponential backoff                  workqueue.DefaultControllerRateLimiter
//	no frosting: fallback recipe  糖霜用尽切换备用配方    degrade instead of stop              bakery.SceneFaults
//	decoration last               装饰最后完成            eventual consistency                 bakery.Steps, status conditions
//	bakers                        糕点师                  Pods                                 bakery.Baker
//	temp bakers for Valentine's   雇佣临时糕点师          HorizontalPodAutoscaler              bakery.Autoscaler, bakery.BakerPool
//	spare ovens                   启用备用烤箱            node scale-up (cluster autoscaler)   bakery.SceneRush
//	simpler decoration when busy  简化非关键装饰          degraded service                     bakery.SceneRush
//	branches of one shop          分店 / 独立厨房区域     namespaces                           bakery.SceneBranches
//	a chain of shops              连锁店 / 多门店         several clusters                     one apiserver.Server each
//	central dispatch              中央调度系统            multi-cluster placement              bakery.Dispatcher
//	central warehouse             中央仓库统一配送        shared supply (federation)           bakery.SceneBranches
//	next branch takes over        隔壁分店应急接单        disaster recovery (backup, Velero)   bakery.Dispatcher
//	VIP orders jump the queue     VIP客户插队             priority queue                       workqueue.PriorityQueue
//	a cake too big to bake        超大型蛋糕 / 资源限制   limits: RequeueAfter, nil error      bakery.SceneEdge
//	same recipe, same cake        幂等                    idempotent reconcile                 bakery.CakeReconciler
//	power cut: resume             断点 / 中断恢复         checkpoint in the status             bakery.CakeStatus
//	at most 5 bakers at once      限制并发 (5)            MaxConcurrentReconciles              reconcile.Options
//	daily stock-take              每天清点库存            resync                               informer.Options.ResyncPeriod
//	every cake's log              详细记录日志            structured logs                      reconcile.LoggerFrom, bakery.Journal
//	the shop's figures            关键性能指标            controller-runtime metrics           reconcile.Metrics, bakery.Monitor
//	latency alert                 调谐延迟过高            PrometheusRule on the p90            bakery.AlertRule
//	quality checks                质检流程                unit, integration, e2e tests         apiservertest, synctest
//	baker's toolkit, handbook     厨师工具包 / 培训手册   Operator SDK, kubebuilder            not here: see below
//	chain standard package        连锁店标准化            a Helm chart                         not here: see below
//	franchising                   特许经营                OperatorHub, OLM bundles             not here: see below
//
// # The guided tour
//
// The chapters are functions of package
// [github.com/kitchensync/kitchensync/examples/tour/chapters], one each,
// with the chapter's prose as their doc comment. go run ./examples/tour
// prints them; the Examples of this package (tour_test.go, build_test.go,
// stories_test.go: one file per part) run them and pin their output with
// // Output:, so go test checks every chapter, and go doc -http shows them
// in order. They use only the exported API, as your code would.
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
//     restart; the chapter waits on the order's observedGeneration, not
//     on time.
//   - Example_step09_cancel: a finalizer makes cancellation clean; the
//     garbage collector deletes the cooks the order owned.
//   - Example_step10_disconnect: a chef that survives a disconnect: the
//     runner's watches are cut and cannot restart, history is compacted,
//     a table cancels meanwhile; the runner relists and the chef cleans
//     up all the same. (The watch-expired lesson shows the 410 Expired and
//     the tombstone up close.)
//   - Example_step11_staleChef: a chef acting on a memory that lags his
//     own writes sends a cook twice; reconcile.Freshness (the
//     read-your-own-writes check of kube-controller-manager 1.36) makes
//     him wait, and counts the skips in stale_sync_skips_total.
//   - Example_step12_yourOwnController: a controller of your own, as the
//     story writes its DishReconciler: reconcile.For with the
//     ResourceVersionChangedPredicate, so resyncs wake nobody; the front
//     desk's validation refuses a typo in the menu before anyone sees it.
//   - Example_step13_backoff: the front desk fails (429); failed
//     reconciles come back after a growing backoff, and the order is
//     served anyway.
//
// The second part, "Build one yourself", grows a controller of your own —
// a baker of cakes — in eight steps of about forty lines each, every one a
// real program under examples/build (step1 to step8) with its test; each
// chapter shows what its step adds, plays it, says what happened
// underneath, and names a way to break it that the step's test catches:
// a kind (Example_step14_buildAKind), create and get
// (Example_step15_buildCreateAndGet), an informer
// (Example_step16_buildAnInformer), a reconciler
// (Example_step17_buildAReconciler), an owned child
// (Example_step18_buildAnOwnedChild), status
// (Example_step19_buildStatus), a finalizer
// (Example_step20_buildAFinalizer), a test under faults
// (Example_step21_buildATest), and the same program over HTTP and on a
// cluster (Example_step22_buildOverHTTP). Then the explorer
// (Example_step23_findTheBug) finds the bug in a controller that creates
// from a stale cache — a crash right after its create, a restart on a
// lagging view, a second child — prints the plan in one line that
// replays it, and finds nothing wrong once the bug is fixed.
//
// The third part, "What the stories get wrong", takes each point where
// the two stories say something the real machinery does not do, and
// shows, with a chapter whose output go test pins, what it does instead:
//
//   - Example_step24_theDeltaFIFOIsHistory: 餐厅 §2 and §3's DeltaFIFO is
//     client-go's informer queue until 1.33; since then a RealFIFO in
//     event order, and since 1.36 a relist in one atomic step.
//   - Example_step25_deepEqualOfStatusAndSpec: 餐厅 §1 and §4 compare
//     DeepEqual(status, spec), which is always false: a chef who never
//     stops; observedGeneration says "done for this spec".
//   - Example_step26_aSharedInformerDoesNotPartition: 餐厅 §5's "shared
//     informers partition a large cluster": one informer, every handler
//     sees everything; selectors split the work.
//   - Example_step27_anUpdateIsNotARollingUpdate: 餐厅 §3's "an update
//     triggers a rolling update": an update is an event; the chef keeps
//     the pasta's cook and replaces only the changed item's.
//   - Example_step28_listAndWatchIsNotDoubleBuffered: 餐厅 §3's
//     "double-buffered" ListAndWatch: one list, one stream from its
//     resourceVersion, one cache; nothing lost between them.
//   - Example_step29_listersTakeLabelSelectors: 餐厅 §5's
//     Lister().List(FieldSelector{...}); a lister takes label selectors,
//     field selectors go to the server (List and Watch).
//   - Example_step30_customResourcesLiveUnderApis: 餐厅 §3's
//     /api/v1/orders is the core group's path; custom resources live under
//     /apis/GROUP/VERSION.
//   - Example_step31_expiredIsAboutHistory: 餐厅 §4's IsResourceExpired is
//     410 Gone, "too old resource version", not ingredients that went off.
//   - Example_step32_queuesHaveNoBufferSize: 餐厅 §5's "bigger WorkQueue
//     buffer": queues are unbounded, and dedupe keys.
//   - Example_step33_aWatchTimeoutIsNotAReportInterval: 餐厅 §5's "lower
//     the ListAndWatch timeout": a dropped watch resumes from its last
//     resourceVersion; nothing is polled.
//   - Example_step34_theStoryDishYAML: 餐厅 §4's Dish is refused (400), and
//     why; the same dish with its ingredients as a map is created.
//   - Example_step35_theFrontDeskDoesNotPoll: 蛋糕店 §1.2's "check every 30
//     seconds": one List, one Watch, resyncs from the cache.
//   - Example_step36_anErrorOverridesRequeueAfter: 蛋糕店 §4.2 and §7.1
//     return RequeueAfter with an error; the error wins.
//   - Example_step37_theAlertIsP90NotTheAverage: 蛋糕店 §5.2's alert is a
//     p90, described as an average, on a metric that does not exist.
//   - Example_step38_clusterAPIMakesClusters: 蛋糕店 §3.1's "like Cluster
//     API": Cluster API creates clusters; placing work across them is a
//     controller with one client per cluster.
//   - Example_step39_theCakeStoryYAML: 蛋糕店's YAML (order form,
//     autoscaler, wedding cake, alert) applied, and each refusal explained.
//   - Example_step40_theFormsFieldsHaveKubernetesNames: 蛋糕店 §1.1's field
//     table (spec.kind, spec.annotations, spec.schedule), refused by name,
//     and why the shop's Cake says flavor, notes and pickupTime.
//   - Example_step41_theRailLimitsNewTicketsByChoice: the story's token
//     bucket limits only AddRateLimited in client-go; this kitchen's rail
//     limits new tickets by its own choice.
//   - Example_step42_whoOwnsTheField: two waiters apply one order with
//     server-side apply; metadata.managedFields says who owns each field,
//     and a conflict names the owner.
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
//	go run ./examples/stale-chef       # a cache that lags the chef's own writes; reconcile.Freshness
//
// Each takes -h, which says what it does and how to call it.
//
// A kitchen is truly concurrent, so two runs can tell the same hand-offs
// in a different order. The tests of restaurant (seed 1),
// order-lifecycle, watch-expired, finalizers and stale-chef pin the whole narration
// in golden files under the program's testdata/, played in virtual time
// (testing/synctest) under a
// [github.com/kitchensync/kitchensync/kitchen/kitchentest.Conductor],
// which lets the kitchen take one hand-off at a time in a fixed order; go
// test ./examples/order-lifecycle -update rewrites one after a change
// meant to alter the story.
//
// # Rosetta: kitchensync, client-go, controller-runtime, kubebuilder
//
// What you write here, and what you will write against a real cluster.
// client-go is k8s.io/client-go; controller-runtime (ctrl) is what
// kubebuilder and the Operator SDK generate code for.
//
//	kitchensync                                client-go                                    controller-runtime / kubebuilder
//	-----------------------------------------  -------------------------------------------  -----------------------------------------------------
//	apiserver.NewServer                        a real kube-apiserver (or fake.Clientset)    envtest.Environment (etcd + kube-apiserver)
//	httpapi.NewHandler                         the kube-apiserver's REST endpoints          the same, what kubectl talks to
//	Scheme.Register(KindInfo{...})             runtime.Scheme, AddToScheme                  kubebuilder create api, controller-gen
//	KindInfo.Validate                          the CRD's OpenAPI schema                     +kubebuilder:validation markers (or a webhook)
//	KindInfo.Fields                            the CRD's selectableFields                   the same
//	client.New[T](srv)                a typed clientset: cs.CoreV1().Pods(ns)      client.Client (mgr.GetClient())
//	Client.Create/Get/List/Update/Delete       .Create/.Get/.List/.Update/.Delete           client.Create/Get/List/Update/Delete
//	Client.UpdateStatus                        .UpdateStatus                                client.Status().Update
//	Client.Patch                               .Patch                                       client.Patch (client.MergeFrom)
//	Client.Watch                               .Watch                                       (informers do it for you)
//	meta.IsNotFound, IsConflict, ...      apierrors.IsNotFound, IsConflict, ...        the same; client.IgnoreNotFound
//	meta.SetStatusCondition               meta.SetStatusCondition                      the same
//	meta.NewControllerRef                 metav1.NewControllerRef                      controllerutil.SetControllerReference
//	informer.Reflector                         cache.Reflector                              (inside the manager's cache)
//	informer.RealFIFO (QueueAtomic)            cache.RealFIFO (AtomicFIFO on)               (inside the manager's cache)
//	informer.DeltaFIFO (QueueDeltaFIFO)        cache.DeltaFIFO (before 1.33)                (inside the manager's cache)
//	store.Indexer                              cache.Indexer                                cache.Cache's IndexField
//	informer.NewSharedIndexInformer            cache.NewSharedIndexInformer                 mgr.GetCache().GetInformer
//	informer.NewSharedInformerFactory          informers.NewSharedInformerFactory           the manager's cache
//	informer.InformerFor[T](factory)           factory.Core().V1().Pods().Informer()        mgr.GetCache().GetInformer(ctx, &T{})
//	informer.WithListerWatcher                 informers.WithTweakListOptions               cache.Options.ByObject (Field, Label)
//	informer.NewFilteredListWatch              cache.NewFilteredListWatchFromClient         cache.Options.ByObject
//	informer.Lister[T]                         generated listers (corev1listers)            client.Client reads (from the cache)
//	informer.WaitForCacheSync                  cache.WaitForCacheSync                       mgr.GetCache().WaitForCacheSync
//	informer.ResourceEventHandlerFuncs         cache.ResourceEventHandlerFuncs              handler.EventHandler (handler.Funcs)
//	informer.DeletedFinalStateUnknown          cache.DeletedFinalStateUnknown               event.DeleteEvent.DeleteStateUnknown
//	workqueue.New                              workqueue.NewTyped                           (the controller's queue)
//	workqueue.NewRateLimiting                  workqueue.NewTypedRateLimitingQueue          (the controller's queue)
//	workqueue.NewDelaying                      workqueue.NewTypedDelayingQueue              (the controller's queue)
//	workqueue.NewPriorityQueue                 (none)                                       priorityqueue.New
//	workqueue.DefaultControllerRateLimiter     workqueue.DefaultTypedControllerRateLimiter  controller.Options.RateLimiter's default
//	reconcile.Reconciler, ReconcilerFunc       (your sync handler)                          reconcile.Reconciler, reconcile.Func
//	reconcile.Request, Result                  (a key string; queue.AddAfter)               reconcile.Request, reconcile.Result
//	reconcile.NewController                    (your own loop: processNextWorkItem)         controller.New; ctrl.NewControllerManagedBy(mgr)
//	reconcile.For(ctrl, inf, preds...)         AddEventHandler → queue.Add(key)             builder .For(&T{}, WithPredicates(...))
//	reconcile.Owns(ctrl, inf, owner)           handler mapping the owner reference          builder .Owns(&U{})
//	reconcile.Watches(ctrl, inf, mapFn)        AddEventHandler with your own mapping        .Watches(&U{}, handler.EnqueueRequestsFromMapFunc(f))
//	Controller.WithEventFilter                 (filter in your handler)                     builder .WithEventFilter(pred)
//	reconcile.GenerationChangedPredicate       (compare generations yourself)               predicate.GenerationChangedPredicate
//	reconcile.ResourceVersionChangedPredicate  (compare resourceVersions yourself)          predicate.ResourceVersionChangedPredicate
//	reconcile.Options.MaxConcurrentReconciles  (number of workers you start)                controller.Options.MaxConcurrentReconciles
//	reconcile.AddFinalizer, RemoveFinalizer    (edit metadata.finalizers)                   controllerutil.AddFinalizer, RemoveFinalizer
//	client.RetryOnConflict                  retry.RetryOnConflict                        the same (client-go's util/retry)
//	reconcile.TerminalError                    (Forget the key)                             reconcile.TerminalError
//	reconcile.NewClient (cache reads)          lister reads + clientset writes              the manager's client
//	reconcile.LoggerFrom(ctx)                  klog                                         log.FromContext(ctx) (logr)
//	reconcile.Metrics, reconcile/prommetrics   workqueue metrics provider                   metrics.Registry (the same metric names)
//	apiserver/apiservertest, synctest          fake.NewSimpleClientset                      envtest, fake.NewClientBuilder
//	apiserver/envtest (HTTP on loopback)       (a test cluster)                             envtest.Environment.Start
//	meta.ApplyPatchType, Client.Apply     Patch(types.ApplyPatchType), Apply           client.Apply, client.ForceOwnership
//
// # Not here, and where to learn it
//
//   - Admission webhooks (validating, mutating, conversion between
//     versions): kitchensync validates with KindInfo.Validate, as a CRD's
//     schema does. Learn them in the kubebuilder book ("Implementing
//     defaulting/validating webhooks") and the Kubernetes docs ("Dynamic
//     Admission Control").
//   - RBAC, service accounts, authentication: the front desk lets anyone
//     in. Learn them in the Kubernetes docs ("Using RBAC Authorization")
//     and the kubebuilder book (+kubebuilder:rbac markers).
//   - Packaging and installing an operator — Helm charts, OLM bundles,
//     OperatorHub (the cake shop's 连锁店标准化 and 特许经营): helm.sh/docs,
//     olm.operatorframework.io, sdk.operatorframework.io.
//   - API aggregation (an extension API server behind kube-apiserver,
//     as metrics-server is), and protobuf for custom kinds (only the
//     built-in kinds speak it here, as on a cluster): the Kubernetes docs
//     ("Kubernetes API Aggregation Layer", "Kubernetes API Concepts").
//     Server-side apply (apiserver/fieldmanager), strategic merge patch
//     (apiserver/strategicpatch) and protobuf for the built-in kinds
//     (apiserver/builtin) are here.
//
// # Packages
//
// Data flows one way: apiserver (the front desk) → informer (the runner)
// → store (its memory) → workqueue (the rail) → reconcile (the chef's
// routine) → kitchen (the restaurant). Read them from the cache outwards:
// store, informer, workqueue, reconcile, then apiserver (see the reading
// path above).
package kitchensync
