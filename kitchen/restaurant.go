package kitchen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/rest"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/reconcile/record"
	"github.com/kitchensync/kitchensync/store"
	"github.com/kitchensync/kitchensync/trace"
	"github.com/kitchensync/kitchensync/workqueue"
)

// Config describes a restaurant. The zero value opens the default one:
// the [DefaultMenu], [DefaultPantry] and [DefaultStations], one kitchen
// minute per [DefaultMinute], in the namespace "dinner", narrating
// nothing.
type Config struct {
	// Namespace is the dining room orders are written to.
	Namespace string
	// Minute is the real duration of one kitchen minute.
	Minute time.Duration
	// Menu, Stock and Stations replace the defaults when set.
	Menu     []*Dish
	Stock    map[string]Quantity
	Stations map[string]int
	// Deliveries are booked in the pantry; Expiries say when an
	// ingredient's opening stock goes off (kitchen time).
	Deliveries []Delivery
	Expiries   map[string]time.Duration
	// TicketsPerMinute and Burst set the rail's token bucket (rush hour);
	// 0 means no limit.
	TicketsPerMinute float64
	Burst            int
	// Resync, in kitchen time, makes the runner hand every order to the
	// chef again on this period (0: never).
	Resync time.Duration
	// Chefs is the number of chef workers (default 1, the head chef).
	Chefs int
	// Out receives the narration at Verbosity.
	Out       io.Writer
	Verbosity Verbosity
	// Server configures the API server.
	Server apiserver.Options
	// Remote, when set, runs the kitchen against the API server this
	// client calls (package apiserver/rest), in another process or a real
	// cluster: Open makes no server of its own ([Restaurant].Server is
	// nil) and writes no menu — the dishes must be there already (kubectl
	// apply). The client's scheme must be [NewScheme]'s.
	Remote *rest.Client
	// DeskOnly opens the front desk without the kitchen: Run starts the
	// runner but neither the chef nor the brigade, so that a chef in
	// another process can cook (examples/serve -chef=false).
	DeskOnly bool
	// DataDir, when set, keeps the API server's objects in this directory
	// (apiserver.Open), as etcd keeps a cluster's: a restaurant opened
	// again on it finds its menu, orders and cooks as they were, at the
	// same resourceVersions, and its controllers pick up where the last
	// one stopped. The pantry and the stations are not objects: they
	// start afresh. Run closes the server when it returns.
	DataDir string
	// Events makes the chef take notes on each order as Kubernetes Events
	// (kubectl describe order NAME shows them); the server made by Open
	// then also serves the built-in kinds, Lease and Event
	// ([builtin.Register]). Instance names this kitchen in them
	// (reportingInstance).
	Events   bool
	Instance string
	// Tracer, when set, hears every hand-off of the machinery: the API
	// server, the runner's informers and the controllers (package trace).
	// The narration is drawn from it too: when Out is set and Tracer is
	// nil, the restaurant makes its own. Nil with no narration traces
	// nothing, at no cost.
	Tracer *trace.Tracer
	// InformerOptions are added to the runner's informer factory's
	// (after the restaurant's own, its tracer): with
	// informer.WithListerWatcher, the runner lists and watches through a
	// wrapper of yours — one that cuts it off in a lesson, or one that
	// makes its steps take turns (kitchentest.Conductor.Pace).
	InformerOptions []informer.FactoryOption
	// Queue, when set, wraps each controller's work queue before the
	// controller works it: the chef's [TicketRail] (named [RailName]) and
	// the brigade's queue (named "brigade"). A test that must choose when
	// a worker takes its next ticket wraps them
	// (kitchentest.Conductor.Pace).
	Queue func(name string, q reconcile.PriorityWorkQueue) reconcile.PriorityWorkQueue
	// Timers, when set, start the kitchen clock's timers (see
	// [Clock].Timers): the cooks' at the stations.
	Timers Timers
}

// Restaurant is a whole kitchen wired on kitchensync: the API server, the
// runner's informers, the ticket rail, the chef and the brigade (each a
// [reconcile.Controller]), the stations, the pantry and the waiter.
// Create it with [Open], run it with [Restaurant.Run], and place orders
// through its Waiter.
type Restaurant struct {
	Server    *apiserver.Server
	Namespace string
	Clock     *Clock
	Pantry    *Pantry
	Stations  *Stations
	Runner    *Runner
	Rail      *TicketRail
	Chef      *Chef
	Brigade   *Brigade
	Waiter    *Waiter
	Log       *Narrator
	// Tracer is the tracer every component records to (nil: none), for
	// whoever wants to listen, such as a live view.
	Tracer *trace.Tracer

	untell       func()           // unsubscribes the narration from Tracer
	deskOnly     bool             // Run starts no controllers
	closeServer  func() error     // closes a durable server (Config.DataDir) when Run returns
	recorder     *record.Recorder // nil without Config.Events
	chefs, cooks *reconcile.Controller
	ready        chan struct{} // closed once Run has started the controllers
	runOnce      sync.Once
}

// Open builds a restaurant and writes its menu to the API server. Its
// ticket queues already run a goroutine each: Run stops them when it
// returns (even a Run whose ctx is already done), and a failed Open stops
// them before returning its error.
func Open(ctx context.Context, cfg Config) (*Restaurant, error) {
	cfg = cfg.withDefaults()
	r := &Restaurant{Namespace: cfg.Namespace, Clock: NewClock(cfg.Minute), ready: make(chan struct{})}
	r.Clock.Timers = cfg.Timers
	r.Log = NewNarrator(cfg.Out, r.Clock, cfg.Verbosity)
	r.Tracer, r.untell = cfg.Tracer, func() {}
	if cfg.Out != nil && cfg.Verbosity > Quiet {
		if r.Tracer == nil {
			r.Tracer = trace.New()
		}
		r.untell = r.Tracer.Subscribe(NewStory(r.Log).Tell)
	}
	d, err := r.openDesk(cfg)
	if err != nil {
		return nil, err
	}
	if r.Pantry, err = openPantry(cfg); err != nil {
		return nil, err
	}
	r.Stations = NewStations(r.Clock, r.Pantry, cfg.Stations)
	if r.Runner, err = NewRunnerFor(d.factory); err != nil {
		return nil, err
	}
	orders := r.Runner.Orders.GetIndexer()
	r.Rail = NewTicketRail(r.Clock, r.Log, RailOptions{TicketsPerMinute: cfg.TicketsPerMinute, Burst: cfg.Burst, Tracer: r.Tracer,
		Priority: func(req reconcile.Request) int {
			if o, ok, _ := orders.GetByKey(req.String()); ok {
				return TicketPriority(o)
			}
			return 0
		}})
	r.Chef = &Chef{Orders: orders, Cooks: r.Runner.Cooks.GetIndexer(), Dishes: r.Runner.Dishes.GetIndexer(),
		OrderAPI: d.orders, CookAPI: d.cooks, Stations: r.Stations, Pantry: r.Pantry, Clock: r.Clock, Log: r.Log}
	r.Brigade = &Brigade{Cooks: r.Runner.Cooks.GetIndexer(), CookAPI: d.cooks, Stations: r.Stations, Log: r.Log}
	r.Waiter = NewWaiterFor(d.orders, cfg.Namespace, r.Log)
	if cfg.Events && !cfg.DeskOnly {
		if r.recorder, err = d.newEventRecorder(cfg.Instance); err != nil {
			r.shutDownQueues()
			return nil, err
		}
		r.Chef.Recorder = r.recorder
	}
	if err := r.wire(cfg, d.scheme); err != nil {
		r.shutDownQueues()
		return nil, err
	}
	if cfg.Remote == nil {
		err = r.writeMenu(ctx, d.dishes, cfg.Menu)
	}
	if err != nil {
		r.shutDownQueues()
		return nil, err
	}
	return r, nil
}

// shutDownQueues stops the rail and the brigade's queue, and with them the
// goroutines that release their delayed tickets. The controllers do it
// when they stop; a restaurant that never gets that far (Open failed, or
// Run ended before the runner synced) does it here. Shutting down twice is
// harmless.
func (r *Restaurant) shutDownQueues() {
	if r.Rail != nil {
		r.Rail.ShutDown()
	}
	if r.cooks != nil {
		r.cooks.Queue().ShutDown()
	}
}

func (cfg Config) withDefaults() Config {
	if cfg.Namespace == "" {
		cfg.Namespace = "dinner"
	}
	if cfg.Menu == nil {
		cfg.Menu = DefaultMenu()
	}
	if cfg.Stock == nil {
		cfg.Stock = DefaultPantry()
	}
	if cfg.Stations == nil {
		cfg.Stations = DefaultStations()
	}
	cfg.Chefs = max(cfg.Chefs, 1)
	return cfg
}

func openPantry(cfg Config) (*Pantry, error) {
	p, err := NewPantry(cfg.Stock)
	if err != nil {
		return nil, err
	}
	for _, d := range cfg.Deliveries {
		if err := p.Schedule(d); err != nil {
			return nil, err
		}
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.Expiries)) {
		p.ExpireAt(name, cfg.Expiries[name])
	}
	return p, nil
}

// wire builds the two controllers and tells them what to watch, as any
// controller is wired: the chef reconciles orders (For) and hears of the
// cooks they own (Owns); the brigade reconciles cooks (For) and hears
// from the stations when one finishes.
func (r *Restaurant) wire(cfg Config, scheme *meta.Scheme) error {
	var err error
	var rail reconcile.PriorityWorkQueue = r.Rail
	if cfg.Queue != nil {
		rail = cfg.Queue(RailName, r.Rail)
	}
	r.chefs, err = reconcile.NewController("chef", r.Chef, reconcile.Options{
		MaxConcurrentReconciles: cfg.Chefs, Tracer: r.Tracer,
		NewQueue: func(string, workqueue.RateLimiter[reconcile.Request]) reconcile.WorkQueue {
			return rail
		}})
	if err != nil {
		return err
	}
	backoff := workqueue.NewItemExponentialFailureRateLimiter[reconcile.Request](r.Clock.Real(time.Minute/2), r.Clock.Real(10*time.Minute))
	if r.cooks, err = reconcile.NewController("brigade", r.Brigade, reconcile.Options{RateLimiter: backoff, Tracer: r.Tracer,
		NewQueue: r.newCookQueue(cfg.Queue)}); err != nil {
		return err
	}
	orderKind, err := scheme.KindFor(&Order{})
	if err != nil {
		return err
	}
	if err := errors.Join(
		reconcile.For(r.chefs, r.Runner.Orders, GenerationChangedOrResyncPredicate{}),
		reconcile.Owns(r.chefs, r.Runner.Cooks, orderKind, CookPhaseChangedPredicate{}),
		reconcile.For(r.cooks, r.Runner.Cooks),
	); err != nil {
		return err
	}
	r.Stations.Notify(func(key string) {
		ns, name, _ := store.SplitMetaNamespaceKey(key)
		r.cooks.Queue().Add(reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: ns, Name: name}})
	})
	return nil
}

// newCookQueue returns the brigade's NewQueue: the default priority queue
// wrapped by wrap, or nil (the controller's default) without a wrap.
func (r *Restaurant) newCookQueue(wrap func(string, reconcile.PriorityWorkQueue) reconcile.PriorityWorkQueue) func(string, workqueue.RateLimiter[reconcile.Request]) reconcile.WorkQueue {
	if wrap == nil {
		return nil
	}
	return func(name string, rl workqueue.RateLimiter[reconcile.Request]) reconcile.WorkQueue {
		return wrap(name, workqueue.NewPriorityQueue(rl, workqueue.QueueConfig{Name: name, Tracer: r.Tracer}))
	}
}

// writeMenu creates the dishes, checking each first.
func (r *Restaurant) writeMenu(ctx context.Context, api *client.Client[*Dish], menu []*Dish) error {
	dishes := api.Namespace("")
	written := map[string]bool{}
	for _, d := range menu {
		if err := ValidateDish(d); err != nil {
			return err
		}
		_, err := dishes.Create(ctx, meta.DeepCopy(d), meta.CreateOptions{})
		twice := written[d.Name]
		written[d.Name] = true
		switch {
		case meta.IsAlreadyExists(err) && !twice:
			// On the books already: a restaurant opened again on its DataDir.
		case err != nil:
			return fmt.Errorf("menu: %w", err)
		}
	}
	return nil
}

// Run opens the kitchen: the runner starts watching, and once it has seen
// everything the chef and the brigade start working. Run blocks until ctx
// is done, then stops everything, waits for every goroutine and returns
// (nil after a normal close). A restaurant opens once: a second Run
// returns an error at once.
func (r *Restaurant) Run(ctx context.Context) error {
	first := false
	r.runOnce.Do(func() { first = true })
	if !first {
		return errors.New("kitchen: the restaurant has already been opened once")
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
		r.Runner.Shutdown()
		r.shutDownQueues()
		r.Stations.Close()
		r.untell()
		if r.closeServer != nil {
			r.closeServer()
		}
	}()
	r.Runner.Start(ctx)
	if !r.Runner.WaitForCacheSync(ctx) {
		return nil // ctx ended first
	}
	if r.deskOnly {
		close(r.ready)
		<-ctx.Done()
		return nil
	}
	errs := make(chan error, 2)
	if r.recorder != nil {
		wg.Go(func() { r.recorder.Run(ctx) })
	}
	wg.Go(func() { errs <- r.chefs.Start(ctx) })
	wg.Go(func() { errs <- r.cooks.Start(ctx) })
	for _, running := range []<-chan struct{}{r.chefs.Running(), r.cooks.Running()} {
		select {
		case <-running:
		case <-ctx.Done():
		}
	}
	if ctx.Err() == nil {
		close(r.ready)
	}
	<-ctx.Done()
	cancel()
	wg.Wait()
	close(errs)
	var all []error
	for err := range errs {
		all = append(all, err)
	}
	return errors.Join(all...)
}

// WaitReady blocks until [Restaurant.Run] has synced the runner's caches
// and started the chef and the brigade, or until ctx ends (false). Orders
// placed before then are not lost — the runner's first list finds them —
// but waiting keeps the narration in the order things happen.
func (r *Restaurant) WaitReady(ctx context.Context) bool {
	select {
	case <-r.ready:
		return true
	case <-ctx.Done():
		return false
	}
}

// ChefMetrics returns the chef controller's metrics (reconciles by
// result, errors, durations).
func (r *Restaurant) ChefMetrics() reconcile.Metrics { return r.chefs.Metrics() }

// BrigadeMetrics returns the brigade controller's metrics.
func (r *Restaurant) BrigadeMetrics() reconcile.Metrics { return r.cooks.Metrics() }

// WaitForOrder blocks until cond holds for the order name (in the
// restaurant's namespace) as the runner's cache has it — cond gets nil
// once the order is gone — or until ctx ends. Tests and lessons use it to
// wait for a phase without polling.
func (r *Restaurant) WaitForOrder(ctx context.Context, name string, cond func(*Order) bool) error {
	poke := make(chan struct{}, 1)
	wake := func() {
		select {
		case poke <- struct{}{}:
		default:
		}
	}
	reg, err := r.Runner.Orders.AddEventHandler(informer.ResourceEventHandlerFuncs[*Order]{
		AddFunc:    func(*Order, bool) { wake() },
		UpdateFunc: func(_, _ *Order) { wake() },
		DeleteFunc: func(*Order, bool) { wake() },
	})
	if err != nil {
		return err
	}
	defer func() { _ = r.Runner.Orders.RemoveEventHandler(reg) }()
	for {
		o, ok, err := r.Runner.Orders.GetIndexer().GetByKey(r.Namespace + "/" + name)
		if err != nil {
			return err
		}
		if !ok {
			o = nil
		}
		if cond(o) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for order %s: %w", name, ctx.Err())
		case <-poke:
		}
	}
}
