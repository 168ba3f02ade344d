package informer

import (
	"context"
	"slices"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/store"
	"github.com/kitchensync/kitchensync/trace"
)

// DeltaFIFOOptions configure a [DeltaFIFO]. The zero value is valid.
type DeltaFIFOOptions[T meta.Object] struct {
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
	// Tracer, when set, receives a record of every delta recorded
	// (trace.DeltaRecorded) and every Pop (trace.DeltaPopped), from
	// component trace.DeltaFIFO, named Name. Nil means none, at no cost.
	Tracer *trace.Tracer
	// Name names the FIFO in its trace records, e.g. its resource.
	Name string
}

// DeltaFIFO is the queue between a [Reflector] and the informer: for each
// key it accumulates the changes (Deltas) heard since the key was last
// popped, and hands them over all at once, like client-go's
// cache.DeltaFIFO with EmitDeltaTypeReplaced on. In the kitchen it is the
// runner's pile of sticky notes, one spot per table.
//
// Its rules: a key is queued once and keeps its place while more deltas
// arrive; only two consecutive Deleted deltas are merged; Replace records
// Replaced for every listed object and a tombstone
// ([DeletedFinalStateUnknown]) for every known or queued key the list
// lacks; Resync records Sync for known keys with nothing pending; Delete
// of a key neither known nor queued is ignored. Because deltas pile up per
// key, a busy object cannot starve the others, and the consumer sees
// everything that happened to an object since it last looked. When the
// order between different objects matters, use a [RealFIFO].
//
// It is safe for concurrent use. The process function given to Pop runs
// with the FIFO locked, as in client-go, so producers wait while a batch
// is processed and the consumer never sees a half-applied Replace; the
// process function must not call the FIFO. Use [NewDeltaFIFO]; the zero
// value is not usable.
type DeltaFIFO[T meta.Object] struct {
	fifoCore[T] // keying, the lock, Pop, Close and HasSynced, shared with RealFIFO

	// items holds each queued key's pending deltas (never empty); queue
	// holds the keys in order. A key is in queue exactly once if and only
	// if it is in items. Both are guarded by mu.
	items map[string]Deltas[T]
	queue []string
	// peak is the most keys items has held since it was last made; Go
	// maps never shrink, so takeLocked makes a fresh one when a big
	// backlog (the first list of a large cache) has drained.
	peak int
}

// NewDeltaFIFO returns an empty, open DeltaFIFO.
func NewDeltaFIFO[T meta.Object](opts DeltaFIFOOptions[T]) *DeltaFIFO[T] {
	f := &DeltaFIFO[T]{items: map[string]Deltas[T]{}}
	f.init(opts.KeyFunc, opts.KnownObjects, opts.Transform)
	f.tracer, f.component, f.name = opts.Tracer, trace.DeltaFIFO, opts.Name
	return f
}

// Add records that obj was added.
func (f *DeltaFIFO[T]) Add(obj meta.Object) error {
	return f.record(Added, obj, f.enqueueLocked)
}

// Update records that obj changed.
func (f *DeltaFIFO[T]) Update(obj meta.Object) error {
	return f.record(Updated, obj, f.enqueueLocked)
}

// Delete records that obj (its last state) was deleted. It is ignored when
// the key is neither in the known objects nor queued: nobody downstream
// knows the object, so there is nothing to delete.
func (f *DeltaFIFO[T]) Delete(obj meta.Object) error {
	return f.record(Deleted, obj, f.deleteLocked)
}

// deleteLocked queues d unless key is unknown. Call with mu held.
func (f *DeltaFIFO[T]) deleteLocked(key string, d Delta[T]) {
	if !f.unknownLocked(key) {
		f.enqueueLocked(key, d)
	}
}

// unknownLocked reports whether key is neither queued nor known (a known
// objects lookup error counts as known, as in client-go). Call with mu
// held.
func (f *DeltaFIFO[T]) unknownLocked(key string) bool {
	if f.queuedLocked(key) {
		return false
	}
	if f.known == nil {
		return true
	}
	_, exists, err := f.known.GetByKey(key)
	return err == nil && !exists
}

// queuedLocked reports whether key has deltas pending. Call with mu held.
func (f *DeltaFIFO[T]) queuedLocked(key string) bool {
	_, ok := f.items[key]
	return ok
}

// enqueueLocked appends d to key's deltas, queueing the key if it was not,
// and wakes a waiting Pop. Call with mu held.
func (f *DeltaFIFO[T]) enqueueLocked(key string, d Delta[T]) {
	f.enqueueInLocked(key, d, nil)
}

// enqueueInLocked is enqueueLocked, except that a key not yet queued
// starts its deltas in room (empty, with capacity for d) if room is not
// nil. Replace gives each listed key a slot of one array, so that a list
// of n objects costs one allocation instead of n. Call with mu held.
func (f *DeltaFIFO[T]) enqueueInLocked(key string, d Delta[T], room Deltas[T]) {
	old, queued := f.items[key]
	if !queued {
		f.queue = append(f.queue, key)
		old = room
	}
	f.items[key] = dedupDeltas(append(old, d))
	f.peak = max(f.peak, len(f.items))
	f.traceRecorded(key, d, len(f.queue))
	f.cond.Broadcast()
}

// Pop waits until something is queued, takes the oldest key off the queue
// with all its pending deltas, and calls process (if not nil) with them
// while the FIFO is locked. It returns the deltas and process's error; the
// deltas are gone from the FIFO either way (client-go dropped its
// ErrRequeue long ago; retrying is the consumer's business).
//
// Pop returns ctx's error as soon as ctx is done, even with items queued,
// and [ErrFIFOClosed] when the FIFO is closed and empty: items queued
// before Close are still popped. A nil ctx waits forever.
//
// Several goroutines may Pop at once, but then two of them can process
// different deltas of the same object concurrently; informers use one.
func (f *DeltaFIFO[T]) Pop(ctx context.Context, process PopProcessFunc[T]) (Deltas[T], error) {
	return f.pop(ctx, process, f)
}

// lenLocked is the number of queued keys. Call with mu held.
func (f *DeltaFIFO[T]) lenLocked() int { return len(f.queue) }

// takeLocked removes the oldest key and its deltas. Call with mu held and
// the queue not empty.
func (f *DeltaFIFO[T]) takeLocked() (string, Deltas[T]) {
	key := f.queue[0]
	f.queue[0] = ""
	f.queue = f.queue[1:]
	deltas := f.items[key]
	delete(f.items, key)
	if len(f.queue) == 0 {
		f.releaseDrainedLocked()
	}
	return key, deltas
}

// shrinkAfter is the backlog past which a drained queue gives its memory
// back rather than keep it for the next burst.
const shrinkAfter = 1024

// releaseDrainedLocked lets the garbage collector have the map buckets
// and queue array that a large backlog grew, once it has drained: without
// it an informer keeps, for its whole life, room for as many pending keys
// as its first list had objects. Call with mu held and the queue empty.
func (f *DeltaFIFO[T]) releaseDrainedLocked() {
	if f.peak > shrinkAfter {
		f.items = map[string]Deltas[T]{}
		f.queue = nil // its array is as big as the backlog was
		f.peak = 0
	}
}

// ListKeys returns the queued keys in queue order.
func (f *DeltaFIFO[T]) ListKeys() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.queue)
}

// Len returns the number of queued keys.
func (f *DeltaFIFO[T]) Len() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.queue)
}

// Replace records a complete list, read at resourceVersion, as after a
// (re)list: a Replaced delta for every listed object, and a tombstone
// (Deleted with [DeletedFinalStateUnknown]) for every key that is queued
// or known but missing from the list, carrying the newest state the FIFO
// or the cache had. The first Replace sets the initial population that
// [DeltaFIFO.HasSynced] waits for.
//
// Deltas are appended to each key's own: listed objects in list order,
// then vanished queued keys in queue order, then vanished cached keys.
//
// Every object is checked, keyed and transformed before anything is
// queued: if one fails, the FIFO is unchanged. resourceVersion is not
// used, as in client-go's DeltaFIFO.
func (f *DeltaFIFO[T]) Replace(list []meta.Object, resourceVersion string) error {
	return f.replace(list, resourceVersion, f)
}

// replaceLocked queues a prepared list. Call with mu held.
func (f *DeltaFIFO[T]) replaceLocked(listed []keyedDelta[T], keys *listedKeys[T], _ string) {
	// Keys queued but not listed get a tombstone with the newest queued
	// state, after the listed ones. (After a queued Deleted it merges
	// away: dedupDeltas.)
	var gone []string
	for _, key := range f.queue {
		if !keys.has(key) {
			gone = append(gone, key)
		}
	}
	if len(f.items) == 0 {
		f.items = make(map[string]Deltas[T], len(listed)) // grown once
	}
	f.queue = slices.Grow(f.queue, len(listed))
	// One slot each, capacity one: a key that gets a second delta before
	// it is popped moves out, so no slot ever spills into the next. The
	// array lives until the last of these keys has been popped.
	slots := make(Deltas[T], len(listed))
	for i, o := range listed {
		f.enqueueInLocked(o.key, o.delta, slots[i:i:i+1])
	}
	for _, key := range gone {
		f.enqueueLocked(key, tombstone(key, f.items[key].Newest().Object))
	}
	f.tombstoneKnownLocked(keys, f.queuedLocked, f.enqueueLocked)
}

// Resync records a Sync delta, with the cached object, for every known
// key that has nothing queued, so that handlers see it again (OnUpdate
// with the same object twice). Keys whose lookup fails are skipped, as in
// client-go. Without known objects it does nothing.
func (f *DeltaFIFO[T]) Resync() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.resyncLocked(f.queuedLocked, f.enqueueLocked)
	return nil
}
