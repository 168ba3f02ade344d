package reconcile

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/trace"
	"github.com/kitchensync/kitchensync/workqueue"
)

// Options configures a [Controller]. The zero value gives
// controller-runtime's defaults.
type Options struct {
	// MaxConcurrentReconciles is the number of workers, and so the most
	// reconciles running at once (never two for the same key). Default 1.
	MaxConcurrentReconciles int
	// RateLimiter decides how long a request that failed waits before its
	// next try. Default: workqueue.DefaultControllerRateLimiter (per key
	// 5ms, 10ms, 20ms, ... up to 1000s, and 10 per second with bursts of 100
	// overall).
	RateLimiter workqueue.RateLimiter[Request]
	// NewQueue makes the controller's queue from its name and RateLimiter.
	// Default: a workqueue.PriorityQueue. Any [WorkQueue] will do; a
	// [PriorityWorkQueue] gets priorities.
	NewQueue func(name string, rateLimiter workqueue.RateLimiter[Request]) WorkQueue
	// MetricsProvider, when set, receives the default queue's metrics, under
	// controller-runtime's workqueue_* names with the controller's name
	// (workqueue_depth{name="orders"}, ...). Ignored with a NewQueue of
	// your own: give that queue its provider yourself. Default: none.
	MetricsProvider workqueue.MetricsProvider
	// CacheSyncTimeout bounds how long Start waits for the informers'
	// caches to sync before it gives up with a [*CacheSyncError].
	// Default 2 minutes.
	CacheSyncTimeout time.Duration
	// Logger receives the controller's structured logs, with the attribute
	// controller=<name> added. Default: none — a library should be quiet
	// unless asked, and tests stay readable; pass slog.Default() to see
	// them. Each reconcile logs at Debug; errors and panics at Error.
	Logger *slog.Logger
	// Tracer, when set, receives a record of every reconcile (started and
	// finished, with its result) and of every event a predicate drops,
	// with the predicate's name; the default queue gets it too, and
	// records its adds, gets and dones under the controller's name.
	// Ignored by a NewQueue of your own: give that queue the tracer in its
	// workqueue.QueueConfig. Default: none, at no cost.
	Tracer *trace.Tracer
	// Elected, when set, holds the workers back until it is closed: the
	// sources start and the caches sync at once, so that a standby is
	// warm, but nothing is reconciled until this copy of the program
	// leads. Close it from leaderelection's OnStartedLeading, and end
	// Start's context when leadership ends, as controller-runtime's
	// manager does with its Elected channel. Default: work at once.
	Elected <-chan struct{}
	// Freshness, when set, makes the controller read its own writes
	// (kube-controller-manager's staleness mitigation): before each
	// reconcile it asks Freshness.EnsureReady for the request, and if the
	// caches have not caught up with the writes recorded for it, skips
	// the reconcile and requeues the request rate-limited, counting
	// stale_sync_skips_total. A delete seen by [For] clears the object's
	// record. The reconciler records its writes with Freshness.WroteAt.
	// Default: none, every reconcile runs (as without the feature gate).
	Freshness *Freshness
	// FreshnessRetry, with Freshness, is how long a skipped request
	// waits before it is tried again. A cache catches up in the
	// machinery's own time, which a queue whose backoff counts another
	// clock should not stretch (the kitchen's ticket rail backs off in
	// kitchen minutes, which a slow kitchen makes hours long). Default 0:
	// the queue's rate limiter decides, as for a failed reconcile.
	FreshnessRetry time.Duration
}

// DefaultCacheSyncTimeout is the default of [Options].CacheSyncTimeout,
// the same as controller-runtime's.
const DefaultCacheSyncTimeout = 2 * time.Minute

// Controller runs a [Reconciler] for the requests that events on watched
// informers put on its queue: the chef working the ticket rail. Create it
// with [NewController], say what it watches with [For], [Owns] and
// [Watches], then run it with [Controller.Start]. Like controller-runtime's
// controller.Controller.
//
// A Controller is safe for concurrent use. It can be started once.
type Controller struct {
	name    string
	do      Reconciler
	workers int
	timeout time.Duration
	elected <-chan struct{} // nil: no leader election
	limiter workqueue.RateLimiter[Request]
	newQ    func(string, workqueue.RateLimiter[Request]) WorkQueue
	log     *slog.Logger
	metrics *metrics
	tracer  *trace.Tracer
	fresh   *Freshness    // nil: no staleness check
	retry   time.Duration // Options.FreshnessRetry

	queueOnce sync.Once
	queue     PriorityWorkQueue // made by getQueue
	queueErr  error             // set by getQueue if NewQueue returned nil

	mu      sync.Mutex // guards started, sources and filters
	started bool
	sources []source
	filters []Predicate[meta.Object]
	running chan struct{} // closed when the workers start
}

// NewController returns a controller named name (the controller label of
// its metrics and logs) that calls r for each request. Requests can be
// added with [Controller.Queue] before Start; the workers begin only with
// Start. The queue's goroutines end when Start returns.
func NewController(name string, r Reconciler, opts Options) (*Controller, error) {
	switch {
	case name == "":
		return nil, errors.New("reconcile: a controller needs a name")
	case r == nil:
		return nil, fmt.Errorf("reconcile: controller %q needs a Reconciler", name)
	case opts.MaxConcurrentReconciles < 0:
		return nil, fmt.Errorf("reconcile: controller %q: MaxConcurrentReconciles is %d, must not be negative",
			name, opts.MaxConcurrentReconciles)
	case opts.CacheSyncTimeout < 0:
		return nil, fmt.Errorf("reconcile: controller %q: CacheSyncTimeout is %v, must not be negative",
			name, opts.CacheSyncTimeout)
	}
	if opts.RateLimiter == nil {
		opts.RateLimiter = workqueue.DefaultControllerRateLimiter[Request]()
	}
	if opts.NewQueue == nil {
		mp, tr := opts.MetricsProvider, opts.Tracer
		opts.NewQueue = func(name string, rl workqueue.RateLimiter[Request]) WorkQueue {
			return newDefaultQueue(rl, workqueue.QueueConfig{Name: name, MetricsProvider: mp, Tracer: tr})
		}
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Controller{
		name:    name,
		do:      r,
		workers: orDefault(opts.MaxConcurrentReconciles, 1),
		timeout: orDefault(opts.CacheSyncTimeout, DefaultCacheSyncTimeout),
		elected: opts.Elected,
		limiter: opts.RateLimiter,
		newQ:    opts.NewQueue,
		log:     opts.Logger.With("controller", name),
		metrics: newMetrics(),
		tracer:  opts.Tracer,
		fresh:   opts.Freshness,
		retry:   opts.FreshnessRetry,
		running: make(chan struct{}),
	}, nil
}

// Running returns a channel that is closed once [Controller.Start] has
// registered every watch, seen the caches synced and started the workers:
// from then on, an event reaches the queue as an event, not as part of the
// initial list. It stays open if Start gives up before that.
func (c *Controller) Running() <-chan struct{} { return c.running }

// getQueue makes the queue on first use, so that a controller that is
// never used starts no queue goroutines. A NewQueue that returns nil gets
// the default queue instead, and Start reports the mistake.
func (c *Controller) getQueue() PriorityWorkQueue {
	c.queueOnce.Do(func() {
		q := c.newQ(c.name, c.limiter)
		if q == nil {
			c.queueErr = fmt.Errorf("reconcile: controller %q: Options.NewQueue returned nil", c.name)
			q = newDefaultQueue(c.limiter, workqueue.QueueConfig{Name: c.name, Tracer: c.tracer})
		}
		c.queue = asPriorityQueue(q)
	})
	return c.queue
}

// orDefault returns v, or def when v is zero.
func orDefault[N int | time.Duration](v, def N) N {
	if v == 0 {
		return def
	}
	return v
}

func newDefaultQueue(rl workqueue.RateLimiter[Request], cfg workqueue.QueueConfig) WorkQueue {
	return workqueue.NewPriorityQueue[Request](rl, cfg)
}

// Name returns the controller's name.
func (c *Controller) Name() string { return c.name }

// Queue returns the controller's queue. Adding a request to it is how to
// trigger a reconcile by hand — from a test, a timer, or another system —
// without an informer event.
func (c *Controller) Queue() WorkQueue { return c.getQueue() }

// Metrics returns a snapshot of the controller's metrics.
func (c *Controller) Metrics() Metrics {
	m := c.metrics.snapshot()
	if c.fresh != nil {
		m.StoreResourceVersions = c.fresh.storeResourceVersions()
	}
	return m
}

// WithEventFilter adds pred to every watch of the controller: an event
// becomes a request only if pred and the watch's own predicates pass it.
// Call it before Start; it returns c so that calls can be chained.
func (c *Controller) WithEventFilter(pred Predicate[meta.Object]) *Controller {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.filters = append(c.filters, pred)
	return c
}

// Start registers the controller's event handlers with its informers,
// waits for their caches to sync (at most CacheSyncTimeout), and runs the
// workers until ctx is done. Then it shuts the queue down, lets the
// reconciles in progress finish (they see ctx cancelled), drops the
// requests still queued, removes its event handlers and returns. It
// returns nil after a normal shutdown (also when ctx ends while it is
// still registering its handlers, so that an informer stopped by the same
// cancellation is no error), a [*CacheSyncError] if the caches did not
// sync in time, or an error if the controller was already started or a
// watch could not be registered.
//
// Start does not run the informers: run them (or their factory) too, with
// the same ctx or a longer-lived one.
func (c *Controller) Start(ctx context.Context) error {
	c.mu.Lock()
	if c.started {
		c.mu.Unlock()
		return fmt.Errorf("reconcile: controller %q was started more than once", c.name)
	}
	c.started = true
	sources, filters := c.sources, c.filters
	c.mu.Unlock()
	queue := c.getQueue()
	defer queue.ShutDown()
	if c.queueErr != nil {
		return c.queueErr
	}

	c.log.Info("Starting EventSources", "count", len(sources))
	started, err := startSources(ctx, sources, queue, filters)
	defer stopSources(started)
	if err != nil && ctx.Err() != nil {
		return nil // stopped while starting: its informers may have stopped first
	}
	if err != nil {
		return fmt.Errorf("reconcile: controller %q: %w", c.name, err)
	}
	if err := c.waitForCacheSync(ctx, started); err != nil || ctx.Err() != nil {
		return err
	}
	if c.elected != nil {
		c.log.Info("Waiting to be elected leader")
		select {
		case <-c.elected:
		case <-ctx.Done():
			return nil
		}
	}
	close(c.running)
	return c.runWorkers(ctx)
}

// runWorkers runs the workers until ctx is done and the queue has drained
// the requests in progress.
func (c *Controller) runWorkers(ctx context.Context) error {
	c.log.Info("Starting workers", "worker count", c.workers)
	c.metrics.workers.Store(int64(c.workers))
	var wg sync.WaitGroup
	for i := range c.workers {
		wg.Go(func() {
			for c.processNextWorkItem(ctx, i+1) {
			}
		})
	}
	<-ctx.Done()
	c.log.Info("Shutdown signal received, waiting for all workers to finish")
	c.queue.ShutDownWithDrain()
	wg.Wait()
	c.log.Info("All workers finished")
	return nil
}
