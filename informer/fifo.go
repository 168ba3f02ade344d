package informer

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/store"
	"github.com/kitchensync/kitchensync/trace"
)

// ErrFIFOClosed is returned by [DeltaFIFO.Pop] and [RealFIFO.Pop] once the
// FIFO is closed and everything queued has been popped.
var ErrFIFOClosed = errors.New("informer: FIFO closed and drained; nothing more to pop")

// KeyListerGetter is what a [DeltaFIFO] or [RealFIFO] needs to know about
// its consumer's cache ("known objects"), to make tombstones on Replace
// and to resync. A [*store.Indexer] satisfies it.
type KeyListerGetter[T meta.Object] interface {
	ListKeys() []string
	GetByKey(key string) (obj T, exists bool, err error)
}

// PopProcessFunc handles what a Pop took off the queue: the deltas pending
// for key, oldest first. isInInitialList is true while the FIFO has not
// yet synced, i.e. for the objects of the first list.
type PopProcessFunc[T meta.Object] func(key string, deltas Deltas[T], isInInitialList bool) error

// fifoCore is what [DeltaFIFO] and [RealFIFO] share: how objects are keyed
// and transformed, the consumer's cache, the lock, and the bookkeeping
// behind Pop, Close and HasSynced. Each FIFO embeds it and brings its own
// queue, which fifoCore drives through [backlog].
type fifoCore[T meta.Object] struct {
	keyFunc   store.KeyFunc
	known     KeyListerGetter[T]
	transform func(T) (T, error)
	tracer    *trace.Tracer   // nil: no trace
	component trace.Component // for the trace: trace.DeltaFIFO or trace.RealFIFO
	name      string          // for the trace
	// unlockWhileProcessing lets Pop release mu while process runs (an
	// atomic RealFIFO's option; see RealFIFOOptions).
	unlockWhileProcessing bool

	mu   sync.Mutex // guards every field below, and the embedding FIFO's queue
	cond sync.Cond  // on mu; broadcast when something is queued, on Close, and when a waiting Pop's context ends

	// populated is set by the first Replace, or by an Add, Update or
	// Delete before any Replace; initialPopulationCount is then how many
	// queue entries the first Replace left. Synced once both allow.
	populated              bool
	initialPopulationCount int
	hasSynced              bool
	synced                 chan struct{} // closed when hasSynced is set
	closed                 bool
}

// backlog is a FIFO's own queue, as [fifoCore] drives it. Every method is
// called with mu held.
type backlog[T meta.Object] interface {
	// lenLocked is the number of queue entries.
	lenLocked() int
	// takeLocked removes the head of a non-empty queue.
	takeLocked() (key string, deltas Deltas[T])
	// replaceLocked queues a list read at rv: its deltas (Replaced, in
	// list order) and the tombstones of the keys the list lacks, or one
	// ReplacedAll.
	replaceLocked(listed []keyedDelta[T], keys *listedKeys[T], rv string)
}

// listedKeys answers whether a key was in a list, building its set on the
// first question: a first list into an empty queue and an empty cache,
// the common case, never asks, and so allocates no set.
type listedKeys[T meta.Object] struct {
	listed []keyedDelta[T]
	set    map[string]struct{}
}

// has reports whether key was listed.
func (l *listedKeys[T]) has(key string) bool {
	if l.set == nil {
		l.set = make(map[string]struct{}, len(l.listed))
		for _, o := range l.listed {
			l.set[o.key] = struct{}{}
		}
	}
	_, ok := l.set[key]
	return ok
}

// keyedDelta is a delta with the key it is queued under.
type keyedDelta[T meta.Object] struct {
	key   string
	delta Delta[T]
}

// init sets the core up from a FIFO's options.
func (c *fifoCore[T]) init(keyFunc store.KeyFunc, known KeyListerGetter[T], transform func(T) (T, error)) {
	c.keyFunc, c.known, c.transform = keyFunc, known, transform
	if c.keyFunc == nil {
		c.keyFunc = store.MetaNamespaceKeyFunc
	}
	c.cond.L = &c.mu
	c.synced = make(chan struct{})
}

// prepare checks that obj is a T, keys it and transforms it. It runs
// without the lock: the key and transform functions are the caller's code.
func (c *fifoCore[T]) prepare(obj meta.Object) (string, T, error) {
	t, ok := obj.(T)
	if !ok {
		return "", t, fmt.Errorf("informer: a FIFO of %T cannot hold a %T; does the ListerWatcher serve another kind?", t, obj)
	}
	key, err := c.keyFunc(t)
	if err != nil {
		return "", t, &store.KeyError{Obj: t, Err: err}
	}
	if c.transform != nil {
		if t, err = c.transform(t); err != nil {
			return "", t, fmt.Errorf("informer: transforming %q: %w", key, err)
		}
	}
	return key, t, nil
}

// record is Add, Update and Delete: it prepares obj and, under the lock,
// marks the FIFO populated and hands the delta to enqueue.
func (c *fifoCore[T]) record(typ DeltaType, obj meta.Object, enqueue func(key string, d Delta[T])) error {
	key, t, err := c.prepare(obj)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.populated = true
	c.checkSyncedLocked()
	enqueue(key, Delta[T]{Type: typ, Object: t})
	return nil
}

// replace is Replace: it prepares every object before anything is queued,
// so that one failure leaves the FIFO unchanged, then lets q queue them.
// The first Replace sets the initial population.
func (c *fifoCore[T]) replace(list []meta.Object, rv string, q backlog[T]) error {
	objs := make([]keyedDelta[T], len(list))
	for i, obj := range list {
		key, t, err := c.prepare(obj)
		if err != nil {
			return err
		}
		objs[i] = keyedDelta[T]{key: key, delta: Delta[T]{Type: Replaced, Object: t}}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	q.replaceLocked(objs, &listedKeys[T]{listed: objs}, rv)
	if !c.populated {
		c.populated = true
		c.initialPopulationCount = q.lenLocked()
		c.checkSyncedLocked()
	}
	return nil
}

// tombstoneKnownLocked queues a tombstone for every known key that is
// neither listed nor queued, with the cached object as its last state
// (nil if the lookup fails). Call with mu held.
func (c *fifoCore[T]) tombstoneKnownLocked(keys *listedKeys[T], queued func(string) bool, enqueue func(string, Delta[T])) {
	if c.known == nil {
		return
	}
	for _, key := range c.known.ListKeys() {
		if queued(key) || keys.has(key) {
			continue
		}
		obj, exists, err := c.known.GetByKey(key)
		if err != nil || !exists {
			var zero T
			obj = zero
		}
		enqueue(key, tombstone(key, obj))
	}
}

// resyncLocked queues a Sync delta, with the cached object, for every
// known key that is not queued. Keys whose lookup fails are skipped, as in
// client-go. Call with mu held.
func (c *fifoCore[T]) resyncLocked(queued func(string) bool, enqueue func(string, Delta[T])) {
	if c.known == nil {
		return
	}
	for _, key := range c.known.ListKeys() {
		if queued(key) {
			continue
		}
		obj, exists, err := c.known.GetByKey(key)
		if err != nil || !exists {
			continue
		}
		enqueue(key, Delta[T]{Type: Sync, Object: obj})
	}
}

// processWhileLocked is how many queued entries make Pop keep the lock
// while it processes, even with unlockWhileProcessing: past it, producers
// wait for the consumer instead of growing the queue without bound
// (client-go: two batches of 1000).
const processWhileLocked = 2000

// pop is Pop: it waits for q to have an entry, takes it, and calls process
// with it, with the FIFO locked unless unlockWhileProcessing allows.
func (c *fifoCore[T]) pop(ctx context.Context, process PopProcessFunc[T], q backlog[T]) (Deltas[T], error) {
	if ctx == nil {
		ctx = context.Background()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.waitLocked(ctx, q); err != nil {
		return nil, err
	}
	isInInitialList := !c.hasSynced
	key, deltas := q.takeLocked()
	c.tracePopped(key, deltas, q.lenLocked())
	var err error
	switch {
	case process == nil:
	case c.unlockWhileProcessing && q.lenLocked() < processWhileLocked:
		err = c.processUnlocked(process, key, deltas, isInInitialList)
	default:
		err = process(key, deltas, isInInitialList)
	}
	// Only now, with the last initial item processed, may the FIFO count
	// as synced: Synced closes at once, and whoever waits on it must find
	// that item in the cache.
	if c.initialPopulationCount > 0 {
		c.initialPopulationCount--
		c.checkSyncedLocked()
	}
	return deltas, err
}

// processUnlocked calls process with mu released, and takes mu again
// however process returns. Call with mu held.
func (c *fifoCore[T]) processUnlocked(process PopProcessFunc[T], key string, deltas Deltas[T], isInInitialList bool) error {
	c.mu.Unlock()
	defer c.mu.Lock()
	return process(key, deltas, isInInitialList)
}

// waitLocked blocks on cond until q has an entry, the FIFO is closed and
// empty, or ctx is done. Call with mu held.
func (c *fifoCore[T]) waitLocked(ctx context.Context, q backlog[T]) error {
	var stop func() bool
	defer func() {
		if stop != nil {
			stop()
		}
	}()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if q.lenLocked() > 0 {
			return nil
		}
		if c.closed {
			return ErrFIFOClosed
		}
		if stop == nil {
			// Wake this wait when ctx ends. Taking mu orders the
			// broadcast after our Wait has started.
			stop = context.AfterFunc(ctx, func() {
				c.mu.Lock()
				defer c.mu.Unlock()
				c.cond.Broadcast()
			})
		}
		c.cond.Wait()
	}
}

// checkSyncedLocked marks the FIFO synced once the first population has
// been popped. Call with mu held.
func (c *fifoCore[T]) checkSyncedLocked() {
	if c.populated && c.initialPopulationCount == 0 && !c.hasSynced {
		c.hasSynced = true
		close(c.synced)
	}
}

// Close wakes every waiting Pop; from now on Pop drains what is queued
// and then returns [ErrFIFOClosed]. Add, Update and friends still work
// (as in client-go), so a producer racing with Close does not fail.
func (c *fifoCore[T]) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	c.cond.Broadcast()
}

// IsClosed reports whether Close was called.
func (c *fifoCore[T]) IsClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// HasSynced reports whether the first population has been delivered: the
// first Replace was called and every queue entry it left has been popped
// (and processed), or an Add, Update or Delete came before any Replace.
// Like client-go, it does not wait for later deltas.
func (c *fifoCore[T]) HasSynced() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hasSynced
}

// Synced returns a channel that is closed when HasSynced becomes true, so
// that callers can wait for sync without polling.
func (c *fifoCore[T]) Synced() <-chan struct{} { return c.synced }
