package informer

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/store"
	"github.com/kitchensync/kitchensync/trace"
)

// Options configure a [SharedIndexInformer]. The zero value is valid: no
// resync, only the namespace index, no transform, errors logged.
type Options[T meta.Object] struct {
	// ResyncPeriod is the default resync period of handlers added with
	// AddEventHandler, and how often the informer checks whether any
	// handler is due; 0 means never. Resync re-delivers every cached
	// object as an OnUpdate with old and new the same, so that handlers
	// can re-check the world; it does not talk to the server.
	ResyncPeriod time.Duration
	// Indexers are added to the cache, next to [store.NamespaceIndex]
	// which is always there.
	Indexers store.Indexers[T]
	// Transform, if set, rewrites each object before it is cached, e.g. to
	// drop fields nobody reads and save memory. It receives its own copy
	// (objects from a watch are shared by every watcher; the informer
	// copies each one for the transform) and may modify it in place. An
	// object it fails on in a watch event is not cached (the error goes to WatchErrorHandler); a
	// failure within a list fails the whole list, which is retried with
	// backoff, as in client-go.
	Transform func(T) (T, error)
	// WatchErrorHandler receives list and watch errors (410 Expired
	// included) and errors storing objects in the cache. Nil logs them
	// with [log/slog].
	WatchErrorHandler func(error)
	// UseWatchList streams the initial state on a watch instead of listing
	// it; see [ReflectorOptions].
	UseWatchList bool
	// PageSize, when positive, lists in pages of this many objects.
	PageSize int64
	// Queue selects the queue between the reflector and the cache. The
	// zero value, [QueueAtomic], is what client-go v0.37 does.
	Queue QueueKind
	// Backoff is the reflector's retry schedule; nil means
	// [DefaultBackoffManager]. Examples shorten it so they finish quickly.
	Backoff *BackoffManager
	// Resource names what the informer caches; the [Lister] puts it in its
	// NotFound errors and logs name it. The factory sets it.
	Resource meta.GroupVersionResource
	// Tracer, when set, receives a record of each change the cache takes
	// (trace.CacheUpdated) and each handler call (trace.HandlerCalled),
	// and is passed to the informer's reflector and queue, all named
	// by Resource.Resource ("orders"). The factory sets it from
	// [WithTracer]. Nil means none, at no cost.
	Tracer *trace.Tracer
}

// informerQueue is what a [SharedIndexInformer] needs of its queue: a
// [*RealFIFO] or a [*DeltaFIFO] ([Options].Queue).
type informerQueue[T meta.Object] interface {
	ReflectorStore
	Pop(ctx context.Context, process PopProcessFunc[T]) (Deltas[T], error)
	Close()
	Synced() <-chan struct{}
}

// SharedIndexInformer keeps a local cache of one kind in step with the
// server and tells any number of handlers about each change — client-go's
// SharedIndexInformer, typed. It runs a [Reflector] that fills a queue (by
// default an atomic [RealFIFO], as client-go v0.37: see [QueueKind]); one
// goroutine pops the queue, applies each change to the [store.Indexer]
// and hands a notification to every handler's own buffered, ordered
// queue. Behind the default queue the cache also records the
// resourceVersion it has reached
// ([store.Indexer.LastStoreSyncResourceVersion]); client-go's informer
// has no method for it either, only its store.
//
// Handlers can be added before or after Run; one added late first
// receives OnAdd (isInInitialList true) for everything already cached.
// Each [Registration] reports whether its handler has seen the initial
// list. All methods are safe for concurrent use. Use
// [NewSharedIndexInformer]; the zero value is not usable.
type SharedIndexInformer[T meta.Object] struct {
	lw      ListerWatcher
	opts    Options[T]
	indexer *store.Indexer[T]
	fifo    informerQueue[T]
	lister  *Lister[T]
	// recordRV: the queue is atomic, so the cache is applied in
	// resourceVersion order and records how far it has got.
	recordRV bool

	// mu guards the fields below, and is held while a popped change is
	// applied to the indexer and distributed (client-go's blockDeltas), so
	// that a handler added meanwhile sees each object exactly once. Lock
	// order: the FIFO's lock (held around process), then mu; never call
	// the FIFO with mu held.
	mu                sync.Mutex
	listeners         map[*Registration]*listener[T]
	resyncCheckPeriod time.Duration
	reflector         *Reflector
	handlers          int // handlers ever added, to number them in the trace
	started, stopped  bool
	synced            chan struct{} // closed once the first list is cached
	isSynced          bool
	wg                sync.WaitGroup // every goroutine Run starts
}

// NewSharedIndexInformer returns an informer that lists and watches lw.
// It does nothing until [SharedIndexInformer.Run].
func NewSharedIndexInformer[T meta.Object](lw ListerWatcher, opts Options[T]) *SharedIndexInformer[T] {
	indexers := store.Indexers[T]{store.NamespaceIndex: store.MetaNamespaceIndexFunc[T]}
	for name, fn := range opts.Indexers {
		indexers[name] = fn
	}
	i := &SharedIndexInformer[T]{
		lw:                lw,
		opts:              opts,
		indexer:           store.NewIndexer(store.MetaNamespaceKeyFunc, indexers),
		listeners:         map[*Registration]*listener[T]{},
		resyncCheckPeriod: opts.ResyncPeriod,
		synced:            make(chan struct{}),
	}
	i.fifo = newInformerQueue(opts, i.indexer, i.traceName())
	i.recordRV = opts.Queue != QueueInOrder && opts.Queue != QueueDeltaFIFO
	i.lister = NewLister(i.indexer, opts.Resource.GroupResource())
	return i
}

// ownCopy returns a transform that hands fn its own copy of each object:
// objects from a watch are the server's, shared by every watcher, and a
// transform may change the one it gets. Nil stays nil, at no cost.
func ownCopy[T meta.Object](fn func(T) (T, error)) func(T) (T, error) {
	if fn == nil {
		return nil
	}
	return func(obj T) (T, error) { return fn(meta.DeepCopy(obj)) }
}

// QueueKind returns the kind of queue the informer puts between its
// reflector and its cache ([Options].Queue).
func (i *SharedIndexInformer[T]) QueueKind() QueueKind { return i.opts.Queue }

// GetIndexer returns the cache. Its objects are shared: never mutate them.
func (i *SharedIndexInformer[T]) GetIndexer() *store.Indexer[T] { return i.indexer }

// Lister returns a typed, read-only view of the cache.
func (i *SharedIndexInformer[T]) Lister() *Lister[T] { return i.lister }

// HasSynced reports whether the cache holds the first complete list. It
// says nothing about the handlers: ask their [Registration.HasSynced].
func (i *SharedIndexInformer[T]) HasSynced() bool {
	select {
	case <-i.synced:
		return true
	default:
		return false
	}
}

// Synced returns a channel closed once [SharedIndexInformer.HasSynced] is
// true, for waiting without polling.
func (i *SharedIndexInformer[T]) Synced() <-chan struct{} { return i.synced }

// LastSyncResourceVersion is the resourceVersion of the last list or watch
// event the informer has seen; "" before Run.
func (i *SharedIndexInformer[T]) LastSyncResourceVersion() string {
	i.mu.Lock()
	r := i.reflector
	i.mu.Unlock()
	if r == nil {
		return ""
	}
	return r.LastSyncResourceVersion()
}

// AddEventHandler registers h with the informer's default resync period.
// It fails only once the informer has stopped.
func (i *SharedIndexInformer[T]) AddEventHandler(h ResourceEventHandler[T]) (*Registration, error) {
	return i.AddEventHandlerWithResyncPeriod(h, i.opts.ResyncPeriod)
}

// AddEventHandlerWithResyncPeriod registers h with its own resync period,
// with client-go's rules: at least one second; before Run, a period
// shorter than the informer's check period shortens the check period;
// after Run, it is raised to the check period instead; and an informer
// created without a resync period never resyncs anyone once it runs.
func (i *SharedIndexInformer[T]) AddEventHandlerWithResyncPeriod(h ResourceEventHandler[T], resync time.Duration) (*Registration, error) {
	if h == nil {
		return nil, errors.New("informer: AddEventHandler: nil handler")
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.stopped {
		return nil, errors.New("informer: handler not added: the informer has stopped")
	}
	if resync > 0 {
		resync = max(resync, minimumResyncPeriod)
		if resync < i.resyncCheckPeriod && !i.started {
			i.resyncCheckPeriod = resync
			for _, l := range i.listeners {
				l.resyncPeriod = effectiveResyncPeriod(l.requestedResync, resync)
			}
		}
	}
	reg := newRegistration(i)
	l := newListener(h, reg, resync, effectiveResyncPeriod(resync, i.resyncCheckPeriod), time.Now())
	i.handlers++
	l.tracer, l.name, l.num = i.opts.Tracer, i.traceName(), i.handlers
	i.listeners[reg] = l
	if !i.started {
		return reg, nil
	}
	// Join a running informer: everything cached is an initial add for
	// this handler, queued before any later change (we hold mu).
	for _, obj := range i.indexer.List() {
		l.add(notification[T]{kind: addNotification, flag: true, newObj: obj})
	}
	if i.isSynced {
		reg.upstreamSynced()
	}
	i.wg.Go(l.run)
	return reg, nil
}

// RemoveEventHandler unregisters the handler of reg: it receives no
// notification that was not already being delivered, and what was queued
// for it is dropped. Removing twice is not an error; a registration from
// another informer is.
func (i *SharedIndexInformer[T]) RemoveEventHandler(reg *Registration) error {
	if reg == nil || reg.owner != i {
		return errors.New("informer: RemoveEventHandler: the registration is not from this informer")
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	if l, ok := i.listeners[reg]; ok {
		delete(i.listeners, reg)
		l.shutdown()
	}
	return nil
}

// Run starts the informer and blocks until ctx is done; it then returns
// after every goroutine it started (reflector, delivery, handlers' queues)
// has ended. A handler being called finishes first. Run may be called
// once; later calls return at once.
func (i *SharedIndexInformer[T]) Run(ctx context.Context) {
	i.mu.Lock()
	if i.started || i.stopped {
		i.mu.Unlock()
		return
	}
	i.started = true
	i.reflector = NewReflector(i.lw, i.fifo, ReflectorOptions{
		Name:              i.traceName(),
		ResyncPeriod:      i.resyncCheckPeriod,
		ShouldResync:      i.shouldResync,
		WatchErrorHandler: i.opts.WatchErrorHandler,
		UseWatchList:      i.opts.UseWatchList,
		PageSize:          i.opts.PageSize,
		Backoff:           i.opts.Backoff,
		Tracer:            i.opts.Tracer,
	})
	for _, l := range i.listeners {
		i.wg.Go(l.run)
	}
	i.mu.Unlock()

	i.wg.Go(func() { i.reflector.Run(ctx) })
	i.wg.Go(func() { i.popLoop(ctx) })
	i.wg.Go(func() { i.watchSynced(ctx) })
	<-ctx.Done()

	i.fifo.Close()
	i.mu.Lock()
	i.stopped = true
	for _, l := range i.listeners {
		l.shutdown()
	}
	i.mu.Unlock()
	i.wg.Wait()
}

// popLoop moves changes from the FIFO into the cache and the handlers.
func (i *SharedIndexInformer[T]) popLoop(ctx context.Context) {
	process := PopProcessFunc[T](i.process) // made once, not once a Pop
	for {
		_, err := i.fifo.Pop(ctx, process)
		switch {
		case ctx.Err() != nil || errors.Is(err, ErrFIFOClosed):
			return
		case err != nil:
			i.reportError(err)
		}
	}
}

// watchSynced marks the informer synced once the FIFO has handed over the
// first list: its Synced channel closes only after the last initial item
// has been processed (stored and distributed to the handlers).
func (i *SharedIndexInformer[T]) watchSynced(ctx context.Context) {
	select {
	case <-ctx.Done():
		return
	case <-i.fifo.Synced():
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	i.isSynced = true
	close(i.synced)
	for reg := range i.listeners {
		reg.upstreamSynced()
	}
}

func (i *SharedIndexInformer[T]) reportError(err error) {
	if i.opts.WatchErrorHandler != nil {
		i.opts.WatchErrorHandler(err)
		return
	}
	slog.Warn("informer: cache update failed", "resource", i.opts.Resource.String(), "err", err)
}

// shouldResync decides which handlers take part in the resync the
// reflector is about to ask the FIFO for (client-go's
// sharedProcessor.shouldResync). Sync notifications then go to those only
// — and so do a later relist's unchanged objects, until the next check.
func (i *SharedIndexInformer[T]) shouldResync() bool {
	i.mu.Lock()
	defer i.mu.Unlock()
	now := time.Now()
	any := false
	for _, l := range i.listeners {
		if l.dueForResync(now) {
			any = true
		}
	}
	return any
}

// Syncer is anything that says it has synced by closing a channel: a
// [SharedIndexInformer] (its cache holds the first list) or a
// [Registration] (its handler has been told all of it).
type Syncer interface {
	Synced() <-chan struct{}
}

// WaitForCacheSync waits until every syncer has synced, and reports
// whether they all did before ctx ended. Like client-go's
// cache.WaitForCacheSync, but it waits on the syncers' channels instead
// of checking HasSynced functions every 100ms: it returns the moment the
// last one syncs, and costs nothing while it waits.
func WaitForCacheSync(ctx context.Context, syncers ...Syncer) bool {
	for _, s := range syncers {
		select {
		case <-s.Synced():
		case <-ctx.Done():
			return false
		}
	}
	return true
}
