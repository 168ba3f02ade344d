package informer

import (
	"errors"
	"fmt"
	"sync"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/store"
)

// ErrFIFOClosed is returned by [DeltaFIFO.Pop] once the FIFO is closed and
// everything queued has been popped.
var ErrFIFOClosed = errors.New("informer: DeltaFIFO closed and drained; nothing more to pop")

// KeyListerGetter is what a [DeltaFIFO] needs to know about its consumer's
// cache ("known objects"), to make tombstones on Replace, to decide
// whether a Delete matters, and to resync. A [*store.Indexer] satisfies it.
type KeyListerGetter[T apiserver.Object] interface {
	ListKeys() []string
	GetByKey(key string) (obj T, exists bool, err error)
}

// PopProcessFunc handles what [DeltaFIFO.Pop] took off the queue: every
// delta pending for key, oldest first. isInInitialList is true while the
// FIFO has not yet synced, i.e. for the objects of the first list.
type PopProcessFunc[T apiserver.Object] func(key string, deltas Deltas[T], isInInitialList bool) error

// DeltaFIFOOptions configure a [DeltaFIFO]. The zero value is valid.
type DeltaFIFOOptions[T apiserver.Object] struct {
	// KeyFunc keys objects; nil means [store.MetaNamespaceKeyFunc].
	KeyFunc store.KeyFunc
	// KnownObjects is the consumer's cache (the informer's Indexer). With
	// it, Replace makes tombstones for cached keys missing from the list,
	// Delete ignores keys neither cached nor queued, and Resync works.
	// Nil: Replace only catches vanished keys still queued, and Resync
	// does nothing.
	KnownObjects KeyListerGetter[T]
	// Transform, if set, rewrites each object before it is queued (to drop
	// fields the cache does not need). It is not applied to Sync deltas or
	// tombstones, whose objects come from the cache and were transformed
	// already. An error fails the call and queues nothing.
	Transform func(T) (T, error)
	// InOrder selects client-go's newer RealFIFO model: one delta per
	// event in arrival order, nothing merged, and a key may be queued
	// several times, so each Pop hands over a single delta. See
	// [DeltaFIFO] for when it matters.
	InOrder bool
}

// DeltaFIFO is the queue between a [Reflector] and the informer: for each
// key it accumulates the changes (Deltas) heard since the key was last
// popped, and hands them over all at once, like client-go's
// cache.DeltaFIFO with EmitDeltaTypeReplaced on. In the kitchen it is the
// runner's pile of sticky notes, one spot per table.
//
// Rules (classic mode, the default): a key is queued once and keeps its
// place while more deltas arrive; only two consecutive Deleted deltas are
// merged; Replace records Replaced for every listed object and a tombstone
// ([DeletedFinalStateUnknown]) for every known or queued key the list
// lacks; Resync records Sync for known keys with nothing pending; Delete
// of a key neither known nor queued is ignored. Because deltas pile up per
// key, a busy object cannot starve the others, and the consumer sees
// everything that happened to an object since it last looked.
//
// In-order mode ([DeltaFIFOOptions].InOrder) follows client-go's newer
// RealFIFO instead: every event is its own queue entry, in arrival order
// across all keys, nothing is merged or ignored, and Replace appends its
// tombstones and then its Replaced deltas at the end. Each Pop then
// carries one delta. Use it when the order between different objects
// matters (the classic queue delivers a's later update before b's earlier
// add when a was queued first, since a keeps its place); the price is that a key
// updated a thousand times is processed a thousand times.
//
// It is safe for concurrent use. The process function given to Pop runs
// with the FIFO locked, as in client-go, so producers wait while a batch
// is processed and the consumer never sees a half-applied Replace; the
// process function must not call the FIFO. Use [NewDeltaFIFO]; the zero
// value is not usable.
type DeltaFIFO[T apiserver.Object] struct {
	keyFunc   store.KeyFunc
	known     KeyListerGetter[T]
	transform func(T) (T, error)
	inOrder   bool

	mu   sync.Mutex // guards every field below
	cond sync.Cond  // on mu; broadcast when something is queued, on Close, and when a waiting Pop's context ends

	// Classic mode: items holds each queued key's pending deltas (never
	// empty); queue holds the keys in order. A key is in queue exactly
	// once if and only if it is in items.
	items map[string]Deltas[T]
	queue []string
	// peak is the most keys items has held since it was last made; Go
	// maps never shrink, so takeLocked makes a fresh one when a big
	// backlog (the first list of a large cache) has drained.
	peak int
	// In-order mode: every delta in arrival order.
	events []keyedDelta[T]

	// populated is set by the first Replace, or by an Add, Update or
	// Delete before any Replace; initialPopulationCount is then how many
	// queue entries the first Replace left. Synced once both allow.
	populated              bool
	initialPopulationCount int
	hasSynced              bool
	synced                 chan struct{} // closed when hasSynced is set
	closed                 bool
}

// keyedDelta is one queued delta in in-order mode.
type keyedDelta[T apiserver.Object] struct {
	key   string
	delta Delta[T]
}

// NewDeltaFIFO returns an empty, open DeltaFIFO.
func NewDeltaFIFO[T apiserver.Object](opts DeltaFIFOOptions[T]) *DeltaFIFO[T] {
	f := &DeltaFIFO[T]{
		keyFunc:   opts.KeyFunc,
		known:     opts.KnownObjects,
		transform: opts.Transform,
		inOrder:   opts.InOrder,
		items:     map[string]Deltas[T]{},
		synced:    make(chan struct{}),
	}
	if f.keyFunc == nil {
		f.keyFunc = store.MetaNamespaceKeyFunc
	}
	f.cond.L = &f.mu
	return f
}

// prepare checks that obj is a T, keys it and, unless raw, transforms it.
// It runs without the lock: the key and transform functions are the
// caller's code.
func (f *DeltaFIFO[T]) prepare(obj apiserver.Object, raw bool) (string, T, error) {
	t, ok := obj.(T)
	if !ok {
		return "", t, fmt.Errorf("informer: a DeltaFIFO of %T cannot hold a %T; does the ListerWatcher serve another kind?", t, obj)
	}
	key, err := f.keyFunc(t)
	if err != nil {
		return "", t, &store.KeyError{Obj: t, Err: err}
	}
	if f.transform != nil && !raw {
		if t, err = f.transform(t); err != nil {
			return "", t, fmt.Errorf("informer: transforming %q: %w", key, err)
		}
	}
	return key, t, nil
}

// Add records that obj was added.
func (f *DeltaFIFO[T]) Add(obj apiserver.Object) error { return f.record(Added, obj) }

// Update records that obj changed.
func (f *DeltaFIFO[T]) Update(obj apiserver.Object) error { return f.record(Updated, obj) }

// Delete records that obj (its last state) was deleted. In classic mode
// it is ignored when the key is neither in the known objects nor queued
// (nobody downstream knows it, so there is nothing to delete); in-order
// mode records every delete, as client-go's RealFIFO does.
func (f *DeltaFIFO[T]) Delete(obj apiserver.Object) error { return f.record(Deleted, obj) }

// record is Add, Update and Delete.
func (f *DeltaFIFO[T]) record(typ DeltaType, obj apiserver.Object) error {
	key, t, err := f.prepare(obj, false)
	if err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.populated = true
	f.checkSyncedLocked()
	if typ == Deleted && !f.inOrder && f.unknownLocked(key) {
		return nil
	}
	f.enqueueLocked(key, Delta[T]{Type: typ, Object: t})
	return nil
}

// unknownLocked reports whether key is neither queued nor known (a known
// objects lookup error counts as known, as in client-go).
func (f *DeltaFIFO[T]) unknownLocked(key string) bool {
	if _, queued := f.items[key]; queued {
		return false
	}
	if f.known == nil {
		return true
	}
	_, exists, err := f.known.GetByKey(key)
	return err == nil && !exists
}

// enqueueLocked appends d to key's deltas (classic) or to the event list
// (in-order) and wakes a waiting Pop. Call with mu held.
func (f *DeltaFIFO[T]) enqueueLocked(key string, d Delta[T]) {
	if f.inOrder {
		f.events = append(f.events, keyedDelta[T]{key: key, delta: d})
	} else {
		old, queued := f.items[key]
		if !queued {
			f.queue = append(f.queue, key)
		}
		f.items[key] = dedupDeltas(append(old, d))
		f.peak = max(f.peak, len(f.items))
	}
	f.cond.Broadcast()
}

// lenLocked is the number of queue entries. Call with mu held.
func (f *DeltaFIFO[T]) lenLocked() int {
	if f.inOrder {
		return len(f.events)
	}
	return len(f.queue)
}

// checkSyncedLocked marks the FIFO synced once the first population has
// been popped. Call with mu held.
func (f *DeltaFIFO[T]) checkSyncedLocked() {
	if f.populated && f.initialPopulationCount == 0 && !f.hasSynced {
		f.hasSynced = true
		close(f.synced)
	}
}
