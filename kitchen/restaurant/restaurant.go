package restaurant

import (
	"context"
	"io"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/narration"
	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/reconcile/record"
	"github.com/kitchensync/kitchensync/trace"
)

// Config describes a restaurant. The zero value opens the default one:
// the [kitchen.DefaultMenu], [kitchen.DefaultPantry] and
// [kitchen.DefaultStations], one kitchen minute per
// [kitchen.DefaultMinute], in the namespace "dinner", narrating nothing.
type Config struct {
	// Namespace is the dining room orders are written to.
	Namespace string
	// Minute is the real duration of one kitchen minute.
	Minute time.Duration
	// Menu, Stock and Stations replace the defaults when set.
	Menu     []*kitchen.Dish
	Stock    map[string]kitchen.Quantity
	Stations map[string]int
	// Deliveries are booked in the pantry; Expiries say when an
	// ingredient's opening stock goes off (kitchen time).
	Deliveries []kitchen.Delivery
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
	Verbosity narration.Verbosity
	// Server configures the API server.
	Server apiserver.Options
	// Remote, when set, runs the kitchen against the API server this
	// client calls: a *rest.Client (package apiserver/rest) of a server in
	// another process or a real cluster, or any [client.Interface], such
	// as the view of the server that a test's explorer gives each
	// controller (package apiserver/envtest/explore). Open makes no server
	// of its own ([Restaurant].Server is nil) and writes no menu — the
	// dishes must be there already (kubectl apply). The client's scheme
	// must be [kitchen.NewScheme]'s.
	Remote client.Interface
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
	// controller works it: the chef's [kitchen.TicketRail] (named
	// [kitchen.RailName]) and the brigade's queue (named "brigade"). A
	// test that must choose when a worker takes its next ticket wraps them
	// (kitchentest.Conductor.Pace).
	Queue func(name string, q reconcile.PriorityWorkQueue) reconcile.PriorityWorkQueue
	// Timers, when set, start the kitchen clock's timers (see
	// [kitchen.Clock].Timers): the cooks' at the stations.
	Timers kitchen.Timers
}

// Restaurant is a whole kitchen wired on kitchensync: the API server, the
// runner's informers, the ticket rail, the chef and the brigade (each a
// [reconcile.Controller]), the stations, the pantry and the waiter.
// Create it with [Open], run it with [Restaurant.Run], and place orders
// through its Waiter.
type Restaurant struct {
	Server    *apiserver.Server
	Namespace string
	Clock     *kitchen.Clock
	Pantry    *kitchen.Pantry
	Stations  *kitchen.Stations
	Runner    *Runner
	Rail      *kitchen.TicketRail
	Chef      *kitchen.Chef
	Brigade   *kitchen.Brigade
	Waiter    *kitchen.Waiter
	Log       *narration.Narrator
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
	r := &Restaurant{Namespace: cfg.Namespace, Clock: kitchen.NewClock(cfg.Minute), ready: make(chan struct{})}
	r.Clock.Timers = cfg.Timers
	r.Log = narration.New(cfg.Out, r.Clock, cfg.Verbosity)
	r.Tracer, r.untell = cfg.Tracer, func() {}
	if cfg.Out != nil && cfg.Verbosity > narration.Quiet {
		if r.Tracer == nil {
			r.Tracer = trace.New()
		}
		r.untell = r.Tracer.Subscribe(narration.NewStory(r.Log).Tell)
	}
	d, err := r.openDesk(cfg)
	if err != nil {
		return nil, err
	}
	if r.Pantry, err = openPantry(cfg); err != nil {
		return nil, err
	}
	r.Stations = kitchen.NewStations(r.Clock, r.Pantry, cfg.Stations)
	// The runner's failed lists and watches are told from the trace (and
	// retried): without a handler the informers would log them with slog,
	// in the middle of the story.
	quiet := informer.WithWatchErrorHandler(func(meta.GroupVersionResource, error) {})
	informerOpts := append([]informer.FactoryOption{informer.WithTracer(r.Tracer), quiet}, cfg.InformerOptions...)
	if r.Runner, err = NewRunner(d.api, r.Clock.Real(cfg.Resync), informerOpts...); err != nil {
		return nil, err
	}
	orders := r.Runner.Orders.GetIndexer()
	r.Rail = kitchen.NewTicketRail(r.Clock, r.Log, kitchen.RailOptions{TicketsPerMinute: cfg.TicketsPerMinute, Burst: cfg.Burst, Tracer: r.Tracer,
		Priority: func(req reconcile.Request) int {
			if o, ok, _ := orders.GetByKey(req.String()); ok {
				return kitchen.TicketPriority(o)
			}
			return 0
		},
		// The rail forgets an order the runner's cache no longer has.
		Gone: func(req reconcile.Request) bool {
			_, ok, err := orders.GetByKey(req.String())
			return !ok && err == nil
		}})
	r.Chef = &kitchen.Chef{Orders: orders, Cooks: r.Runner.Cooks.GetIndexer(), Dishes: r.Runner.Dishes.GetIndexer(),
		OrderAPI: d.orders, CookAPI: d.cooks, Stations: r.Stations, Pantry: r.Pantry, Clock: r.Clock, Log: r.Log}
	r.Brigade = &kitchen.Brigade{Cooks: r.Runner.Cooks.GetIndexer(), CookAPI: d.cooks, Stations: r.Stations, Log: r.Log}
	r.Waiter = kitchen.NewWaiter(d.api, cfg.Namespace, r.Log)
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
		cfg.Menu = kitchen.DefaultMenu()
	}
	if cfg.Stock == nil {
		cfg.Stock = kitchen.DefaultPantry()
	}
	if cfg.Stations == nil {
		cfg.Stations = kitchen.DefaultStations()
	}
	cfg.Chefs = max(cfg.Chefs, 1)
	return cfg
}

func openPantry(cfg Config) (*kitchen.Pantry, error) {
	p, err := kitchen.NewPantry(cfg.Stock)
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
