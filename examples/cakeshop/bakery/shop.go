package bakery

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/workqueue"
)

// ShopOptions configure a [Shop]. Server, Clock and Journal are required.
type ShopOptions struct {
	// Name labels the shop in the narration: the front desk speaks as
	// "front-desk" (or "front-desk@Name"), the baker as "baker" (or
	// "baker@Name").
	Name string
	// Server is the order desk: an *apiserver.Server of the shop's
	// kinds ([NewServer]), or any client of one — over HTTP, or the view
	// a test's explorer gives each controller.
	Server  client.Interface
	Clock   *Clock
	Journal *Journal
	// Namespace, if set, makes the front desk watch one branch only.
	Namespace string
	// Kitchen and Till default to new ones.
	Kitchen *Kitchen
	Till    *Till
	// Workers is MaxConcurrentReconciles (default 1).
	Workers int
	// Ovens, if positive, limits the cakes worked on at once, whatever
	// the number of workers: the story's semaphore.NewWeighted(5), as a
	// [Staff] of that many places, taken without blocking.
	Ovens int
	// Shift, if set, makes every cake wait for a baker on duty, and
	// OvenPool for an oven after that.
	Shift, OvenPool *Staff
	// Resync is the front desk's resync period in shop time (0: never).
	Resync time.Duration
	// Brief narrates only the start and end of each cake.
	Brief bool
	// ErrorWithRequeue makes the baker return RequeueAfter with an error
	// (the story's edge-case bug).
	ErrorWithRequeue bool
	// Logger receives the controller's and the baker's structured logs.
	Logger *slog.Logger
}

// Shop is one running cake shop on an API server: a front desk (an
// informer whose cache is the ledger), a queue, a baker (a controller
// running [CakeReconciler]) and the oven (a controller running [Oven] on
// the [Bake] objects the baker creates, which the baker owns: a Bake's
// status change wakes its cake's baker).
type Shop struct {
	Name       string
	Kitchen    *Kitchen
	Till       *Till
	Informer   *informer.SharedIndexInformer[*Cake]
	Controller *reconcile.Controller
	Reconciler *CakeReconciler
	// Bakes is the informer on the shop's Bake objects, and Oven the
	// controller that works them.
	Bakes   *informer.SharedIndexInformer[*Bake]
	Oven    *reconcile.Controller
	backoff *backoff
	// registered receives the registration of the controller's event
	// handler with the informer, once, when the controller starts.
	registered chan *informer.Registration
}

// NewShop wires a shop; [Shop.Run] opens it.
func NewShop(o ShopOptions) (*Shop, error) {
	if o.Kitchen == nil {
		o.Kitchen = NewKitchen()
	}
	if o.Till == nil {
		o.Till = &Till{}
	}
	inf := newFrontDesk(o)
	bakes := informer.NewSharedIndexInformer[*Bake](namespaced(o, BakeResource), informer.Options[*Bake]{Resource: BakeResource,
		WatchErrorHandler: func(error) {}}) // the front desk narrates a lost API server
	cakes, err := reconcile.NewClient(o.Server, inf.GetIndexer())
	if err != nil {
		return nil, err
	}
	bakeClient, err := reconcile.NewClient(o.Server, bakes.GetIndexer())
	if err != nil {
		return nil, err
	}
	r := &CakeReconciler{Who: suffix("baker", o.Name), Cakes: cakes, CakeAPI: client.New[*Cake](o.Server), Bakes: bakeClient, Kitchen: o.Kitchen, Till: o.Till,
		Clock: o.Clock, Journal: o.Journal, Shift: o.Shift, OvenPool: o.OvenPool, Brief: o.Brief, ErrorWithRequeue: o.ErrorWithRequeue}
	if o.Ovens > 0 {
		r.Ovens = &Staff{}
		for i := range o.Ovens {
			r.Ovens.Hire(fmt.Sprintf("oven-%d", i+1))
		}
	}
	s := &Shop{Name: o.Name, Kitchen: o.Kitchen, Till: o.Till, Informer: inf, Reconciler: r, Bakes: bakes,
		backoff: newBackoff(o.Clock, o.Journal, suffix("queue", o.Name)), registered: make(chan *informer.Registration, 1)}
	if s.Controller, err = newController(o, s, r); err != nil {
		return nil, err
	}
	desk := frontDesk{journal: o.Journal, who: suffix("front-desk", o.Name)}
	if err := reconcile.For(s.Controller, ledger{inf, s.registered}, reconcile.Predicate[*Cake](desk)); err != nil {
		return nil, err
	}
	// A Bake's status change (Baking, Done, Collapsed) wakes its cake's
	// baker, through the owner reference, as a Job's controller hears of
	// its Pods.
	if err := reconcile.Owns(s.Controller, bakes, Kinds()[0]); err != nil {
		return nil, err
	}
	oven := &Oven{Bakes: bakeClient, Kitchen: o.Kitchen, Clock: o.Clock, Journal: o.Journal, Who: suffix("oven", o.Name), Brief: o.Brief}
	if s.Oven, err = reconcile.NewController(suffix("oven", o.Name), oven, reconcile.Options{MaxConcurrentReconciles: 2, Logger: o.Logger}); err != nil {
		return nil, err
	}
	if err := reconcile.For(s.Oven, bakes); err != nil {
		return nil, err
	}
	for _, places := range []*Staff{r.Ovens, r.Shift, r.OvenPool} {
		if places != nil {
			places.Notify(s.wake)
		}
	}
	return s, nil
}

// wake puts the ticket of a cake that waited for a place back on the rack.
func (s *Shop) wake(key string) {
	ns, name, _ := strings.Cut(key, "/")
	s.Controller.Queue().Add(reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: ns, Name: name}})
}

// namespaced returns the resource on o.Namespace, or on every branch
// ("").
func namespaced(o ShopOptions, gvr meta.GroupVersionResource) client.ResourceInterface {
	return o.Server.ResourceFor(gvr, o.Namespace)
}

// newFrontDesk makes the shop's informer: on o.Namespace, or every branch,
// narrating the first watch error only.
func newFrontDesk(o ShopOptions) *informer.SharedIndexInformer[*Cake] {
	lw := namespaced(o, CakeResource)
	var cutOff atomic.Bool // narrate only the first watch error
	return informer.NewSharedIndexInformer[*Cake](lw, informer.Options[*Cake]{
		ResyncPeriod: o.Clock.Real(o.Resync),
		Resource:     CakeResource,
		WatchErrorHandler: func(err error) {
			if !cutOff.Swap(true) {
				o.Journal.Say(suffix("front-desk", o.Name), "", "watch-error", "lost the order board: %v (retrying with backoff)", err)
			}
		},
	})
}

// newController makes the baker's controller: o.Workers workers, the
// narrated backoff, and the rack (a priority queue by spec.priority).
func newController(o ShopOptions, s *Shop, r *CakeReconciler) (*reconcile.Controller, error) {
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	cache := s.Informer.GetIndexer()
	return reconcile.NewController(suffix("cake", o.Name), r, reconcile.Options{
		MaxConcurrentReconciles: max(1, o.Workers),
		RateLimiter:             s.backoff,
		Logger:                  logger,
		NewQueue: func(name string, rl workqueue.RateLimiter[reconcile.Request]) reconcile.WorkQueue {
			pq := workqueue.NewPriorityQueue(rl, workqueue.QueueConfig{Name: name})
			return rack{PriorityQueue: pq, cache: cache, journal: o.Journal, who: suffix("queue", o.Name)}
		},
	})
}

func suffix(who, name string) string {
	if name == "" {
		return who
	}
	return who + "@" + name
}

// Run opens the shop: it runs the front desk and the baker until ctx is
// done, or until the baker stops early (its caches never synced), then
// closes the front desk and waits for both to stop.
func (s *Shop) Run(parent context.Context) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	var wg sync.WaitGroup
	wg.Go(func() { s.Informer.Run(ctx) })
	wg.Go(func() { s.Bakes.Run(ctx) })
	var ovenErr error
	wg.Go(func() { ovenErr = s.Oven.Start(ctx) })
	err := s.Controller.Start(ctx)
	cancel() // a front desk without a baker helps nobody
	wg.Wait()
	if parent.Err() == nil { // else the oven may have found its informer closed before it started: no failure
		err = errors.Join(err, ovenErr)
	}
	if err != nil {
		return fmt.Errorf("shop %s: %w", s.Name, err)
	}
	return nil
}

// Start runs the shop in the background, waits until it is open — the
// controller's event handler has seen the ledger's initial list, so every
// order placed from now on reaches the rack as a new event — and returns a
// function that closes it and waits until it has stopped, returning Run's
// error (the same on every call).
//
// Start does not wait for the workers themselves: the controller starts
// them the moment its handler has synced, and a ticket put on the rack
// before that simply waits there for them.
func (s *Shop) Start(ctx context.Context) (stop func() error) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	stop = sync.OnceValue(func() error {
		cancel()
		return <-done
	})
	s.waitOpen(ctx, done)
	return stop
}

// waitOpen waits until the controller's handler has synced — what its own
// WaitForCacheSync waits for before it starts the workers — or until ctx
// ends or Run returns early (its error goes back on done, for stop).
func (s *Shop) waitOpen(ctx context.Context, done chan error) {
	var synced <-chan struct{}
	select {
	case reg := <-s.registered:
		synced = reg.Synced()
	case <-ctx.Done():
		return
	case err := <-done:
		done <- err
		return
	}
	select {
	case <-synced:
	case <-ctx.Done():
	case err := <-done:
		done <- err
	}
}

// ledger is the front desk's informer as the controller sees it (a
// [reconcile.Informer]): it hands the registration of the controller's
// event handler to [Shop.Start], which waits on its Synced channel. Only
// the informer knows when the first list is in the cache, and only the
// registration knows when the controller's handler has seen it.
type ledger struct {
	*informer.SharedIndexInformer[*Cake]
	registered chan<- *informer.Registration // buffered: the first registration
}

// AddEventHandler registers h with the informer and passes on the
// registration, the first time.
func (l ledger) AddEventHandler(h informer.ResourceEventHandler[*Cake]) (*informer.Registration, error) {
	reg, err := l.SharedIndexInformer.AddEventHandler(h)
	if err == nil {
		select {
		case l.registered <- reg:
		default: // already passed on
		}
	}
	return reg, err
}

// RetryDelays returns the rate limiter's delays for the order key, in shop
// time, in the order they were handed out.
func (s *Shop) RetryDelays(key string) []time.Duration { return s.backoff.Delays(key) }
