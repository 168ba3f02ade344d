package informer

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/trace"
)

// SharedInformerFactory hands out one [SharedIndexInformer] per kind, so
// that every controller in a program shares one cache and one watch per
// kind, like client-go's SharedInformerFactory (and controller-runtime's
// cache). Ask for informers with [InformerFor], then Start them all,
// WaitForCacheSync, and Shutdown at the end. Safe for concurrent use; use
// [NewSharedInformerFactory].
type SharedInformerFactory struct {
	api           client.Interface
	defaultResync time.Duration
	namespace     string
	wrap          func(meta.GroupVersionResource, ListerWatcher) ListerWatcher
	errorHandler  func(meta.GroupVersionResource, error)
	tracer        *trace.Tracer
	queue         QueueKind

	mu        sync.Mutex // guards the fields below
	informers map[reflect.Type]*factoryEntry
	order     []reflect.Type // in the order asked for
	cancels   []context.CancelFunc
	shutdown  bool
	wg        sync.WaitGroup // every informer's Run
}

// factoryEntry is one informer of the factory, whatever its type.
type factoryEntry struct {
	gvr      meta.GroupVersionResource
	informer any // *SharedIndexInformer[T]
	run      func(context.Context)
	synced   <-chan struct{}
	started  bool
}

// FactoryOption configures a [SharedInformerFactory].
type FactoryOption func(*SharedInformerFactory)

// WithNamespace limits the factory's informers of namespaced kinds to one
// namespace. Cluster-scoped kinds are unaffected.
func WithNamespace(namespace string) FactoryOption {
	return func(f *SharedInformerFactory) { f.namespace = namespace }
}

// WithListerWatcher wraps every [ListerWatcher] the factory makes: wrap
// gets the resource and the ListerWatcher of the API, and returns the one
// the informer uses, e.g. one that sets a label selector on every list and
// watch ([NewFilteredListWatch], as client-go's WithTweakListOptions does)
// or one that holds calls back for a lesson.
func WithListerWatcher(wrap func(gvr meta.GroupVersionResource, lw ListerWatcher) ListerWatcher) FactoryOption {
	return func(f *SharedInformerFactory) { f.wrap = wrap }
}

// WithWatchErrorHandler sends the informers' list and watch errors to h,
// with the resource they concern, instead of the log.
func WithWatchErrorHandler(h func(meta.GroupVersionResource, error)) FactoryOption {
	return func(f *SharedInformerFactory) { f.errorHandler = h }
}

// WithQueue gives every informer of the factory the queue kind k, as
// their [Options].Queue: the default QueueAtomic (client-go v0.37's), or
// QueueInOrder or QueueDeltaFIFO to run what older client-go did.
func WithQueue(k QueueKind) FactoryOption {
	return func(f *SharedInformerFactory) { f.queue = k }
}

// WithTracer gives every informer of the factory t, as their
// [Options].Tracer: each records its reflector's lists and watches, its
// queue's deltas (as trace.RealFIFO, or trace.DeltaFIFO with
// QueueDeltaFIFO), its cache updates and handler calls.
func WithTracer(t *trace.Tracer) FactoryOption {
	return func(f *SharedInformerFactory) { f.tracer = t }
}

// NewSharedInformerFactory returns a factory of informers that list and
// watch through api: the server in process (*apiserver.Server) or in
// another one (*rest.Client, package apiserver/rest), like client-go's
// NewSharedInformerFactory, which takes a clientset. Its handlers resync
// every defaultResync (0: never) unless they ask otherwise.
func NewSharedInformerFactory(api client.Interface, defaultResync time.Duration, opts ...FactoryOption) *SharedInformerFactory {
	f := &SharedInformerFactory{api: api, defaultResync: defaultResync, informers: map[reflect.Type]*factoryEntry{}}
	for _, o := range opts {
		o(f)
	}
	return f
}

// InformerFor returns the factory's informer for kind T, creating it on
// first use; every call for the same T returns the same informer. It is
// started by the next [SharedInformerFactory.Start].
//
// T must be a kind registered in the server's scheme. For any other type
// InformerFor does not panic: the informer it returns never syncs, and
// its list errors (naming the problem) go to the watch-error handler.
func InformerFor[T meta.Object](f *SharedInformerFactory) *SharedIndexInformer[T] {
	typ := reflect.TypeFor[T]()
	f.mu.Lock()
	defer f.mu.Unlock()
	if e, ok := f.informers[typ]; ok {
		return e.informer.(*SharedIndexInformer[T])
	}
	gvr, lw := f.listerWatcherFor(newObject[T]())
	opts := Options[T]{ResyncPeriod: f.defaultResync, Resource: gvr, Tracer: f.tracer, Queue: f.queue}
	if h := f.errorHandler; h != nil {
		opts.WatchErrorHandler = func(err error) { h(gvr, err) }
	}
	inf := NewSharedIndexInformer(lw, opts)
	f.informers[typ] = &factoryEntry{gvr: gvr, informer: inf, run: inf.Run, synced: inf.Synced()}
	f.order = append(f.order, typ)
	return inf
}

// newObject returns a new empty T: for a pointer kind such as *Order, a
// pointer to a zero Order (the zero T would be nil).
func newObject[T meta.Object]() meta.Object {
	typ := reflect.TypeFor[T]()
	if typ.Kind() == reflect.Pointer {
		return reflect.New(typ.Elem()).Interface().(meta.Object)
	}
	var zero T
	if reflect.ValueOf(&zero).Elem().Kind() == reflect.Interface {
		return nil // T is an interface type: no kind to look up
	}
	return zero
}

// listerWatcherFor finds obj's kind and returns its resource and a
// ListerWatcher for it; for an unknown kind, one that always fails.
func (f *SharedInformerFactory) listerWatcherFor(obj meta.Object) (meta.GroupVersionResource, ListerWatcher) {
	var info meta.KindInfo
	err := fmt.Errorf("informer: InformerFor needs a concrete kind type, not an interface")
	if obj != nil {
		info, err = f.api.Scheme().KindFor(obj)
	}
	if err != nil {
		gvr := meta.GroupVersionResource{Resource: fmt.Sprintf("unregistered %T", obj)}
		err = fmt.Errorf("informer: no informer for %T: %w", obj, err)
		return gvr, failingListWatch(err)
	}
	gvr := info.GroupVersionResource()
	ns := ""
	if info.Namespaced {
		ns = f.namespace
	}
	var lw ListerWatcher = f.api.ResourceFor(gvr, ns)
	if f.wrap != nil {
		lw = f.wrap(gvr, lw)
	}
	return gvr, lw
}

func failingListWatch(err error) ListerWatcher {
	return ListWatch{
		ListFunc: func(context.Context, meta.ListOptions) (*meta.List, error) { return nil, err },
		WatchFunc: func(context.Context, meta.ListOptions) (meta.WatchInterface, error) {
			return nil, err
		},
	}
}

// Start runs every informer asked for so far and not yet started, until
// ctx is done or [SharedInformerFactory.Shutdown]. Calling it again starts
// only the new ones. After Shutdown it does nothing.
func (f *SharedInformerFactory) Start(ctx context.Context) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.shutdown {
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	f.cancels = append(f.cancels, cancel)
	for _, typ := range f.order {
		e := f.informers[typ]
		if !e.started {
			e.started = true
			f.wg.Go(func() { e.run(ctx) })
		}
	}
}

// WaitForCacheSync waits until every started informer has synced, or ctx
// is done, and reports each one's state by resource. It waits on the
// informers' Synced channels: no polling.
func (f *SharedInformerFactory) WaitForCacheSync(ctx context.Context) map[meta.GroupVersionResource]bool {
	f.mu.Lock()
	var started []*factoryEntry
	for _, typ := range f.order {
		if e := f.informers[typ]; e.started {
			started = append(started, e)
		}
	}
	f.mu.Unlock()
	res := make(map[meta.GroupVersionResource]bool, len(started))
	for _, e := range started {
		select {
		case <-e.synced:
			res[e.gvr] = true
		case <-ctx.Done():
			res[e.gvr] = isClosed(e.synced)
		}
	}
	return res
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// Shutdown stops every informer the factory started and waits until all
// their goroutines have ended. Later Starts do nothing. Unlike client-go,
// the caller need not cancel Start's context first.
func (f *SharedInformerFactory) Shutdown() {
	f.mu.Lock()
	f.shutdown = true
	for _, cancel := range f.cancels {
		cancel()
	}
	f.mu.Unlock()
	f.wg.Wait()
}
