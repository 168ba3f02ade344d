package informer

import (
	"context"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/store"
	"github.com/kitchensync/kitchensync/trace"
)

// RealFIFOOptions configure a [RealFIFO]. The zero value is valid.
type RealFIFOOptions[T meta.Object] struct {
	// KeyFunc keys objects; nil means [store.MetaNamespaceKeyFunc].
	KeyFunc store.KeyFunc
	// KnownObjects is the consumer's cache (the informer's Indexer). With
	// it, Replace makes tombstones for cached keys missing from the list,
	// and Resync works. Nil: Replace only catches vanished keys still
	// queued, and Resync does nothing. An atomic FIFO never reads it.
	KnownObjects KeyListerGetter[T]
	// AtomicEvents makes Replace queue the whole list as one ReplacedAll
	// delta, Resync one SyncAll, and Bookmark a Bookmark delta (client-go's
	// AtomicEvents with EmitDeltaTypeBookmark, what its AtomicFIFO feature
	// gate turns on). The consumer then compares the list with its cache
	// itself, when it gets to it, so the FIFO needs no known objects.
	AtomicEvents bool
	// UnlockWhileProcessing lets Pop release the FIFO's lock while its
	// process function runs, so that the reflector can queue more
	// meanwhile — unless 2000 or more entries are queued already. Only
	// with AtomicEvents (client-go's UnlockWhileProcessingFIFO): only then
	// does the FIFO never read the consumer's cache, which process is
	// changing. Pop must then have a single caller.
	UnlockWhileProcessing bool
	// Transform, if set, rewrites each object before it is queued; as for
	// [DeltaFIFOOptions].Transform.
	Transform func(T) (T, error)
	// Tracer, when set, receives a record of every delta recorded
	// (trace.DeltaRecorded) and every Pop (trace.DeltaPopped), from
	// component trace.RealFIFO, named Name. Nil means none, at no cost.
	Tracer *trace.Tracer
	// Name names the FIFO in its trace records, e.g. its resource.
	Name string
}

// RealFIFO is the queue of client-go's newer RealFIFO: every event is its
// own queue entry, in arrival order across all keys, and each Pop hands
// over a single delta. Nothing is merged and nothing is ignored (a Delete
// of an unknown key is queued too), and Replace appends its tombstones
// and then its Replaced deltas at the end.
//
// It keeps the order between different objects, where a [DeltaFIFO]
// delivers a's later update before b's earlier add when a was queued
// first, since a keeps its place. The price is that a key updated a
// thousand times is processed a thousand times. Since client-go 1.33
// (InOrderInformers) every informer queues through one.
//
// With [RealFIFOOptions].AtomicEvents — what informers use by default, as
// client-go v0.37 does — a Replace is not spread into per-object deltas
// but queued as one ReplacedAll entry carrying the whole list, a Resync
// as one SyncAll, and a watch bookmark as a Bookmark entry: the consumer
// applies a list to its cache in one step, and can record the
// resourceVersion it has reached.
//
// It is safe for concurrent use, and Pop, Close and HasSynced behave as a
// DeltaFIFO's do (an atomic FIFO's first Replace is one entry, so it is
// synced once that entry is processed). Use [NewRealFIFO]; the zero value
// is not usable.
type RealFIFO[T meta.Object] struct {
	fifoCore[T] // keying, the lock, Pop, Close and HasSynced, shared with DeltaFIFO

	events []keyedDelta[T] // every queued delta in arrival order; guarded by mu
	atomic bool            // AtomicEvents
}

// NewRealFIFO returns an empty, open RealFIFO. With AtomicEvents,
// KnownObjects is ignored; without, so is UnlockWhileProcessing (client-go
// panics on either combination).
func NewRealFIFO[T meta.Object](opts RealFIFOOptions[T]) *RealFIFO[T] {
	f := &RealFIFO[T]{atomic: opts.AtomicEvents}
	known := opts.KnownObjects
	if f.atomic {
		known = nil
	}
	f.init(opts.KeyFunc, known, opts.Transform)
	f.tracer, f.component, f.name = opts.Tracer, trace.RealFIFO, opts.Name
	f.unlockWhileProcessing = f.atomic && opts.UnlockWhileProcessing
	return f
}

// Add records that obj was added.
func (f *RealFIFO[T]) Add(obj meta.Object) error {
	return f.record(Added, obj, f.enqueueLocked)
}

// Update records that obj changed.
func (f *RealFIFO[T]) Update(obj meta.Object) error {
	return f.record(Updated, obj, f.enqueueLocked)
}

// Delete records that obj (its last state) was deleted, whether or not
// anyone knows the key.
func (f *RealFIFO[T]) Delete(obj meta.Object) error {
	return f.record(Deleted, obj, f.enqueueLocked)
}

// enqueueLocked appends d to the events and wakes a waiting Pop. Call with
// mu held.
func (f *RealFIFO[T]) enqueueLocked(key string, d Delta[T]) {
	f.events = append(f.events, keyedDelta[T]{key: key, delta: d})
	f.traceRecorded(key, d, len(f.events))
	f.cond.Broadcast()
}

// Pop is [DeltaFIFO.Pop], except that it takes the oldest event, so
// process gets a single delta.
func (f *RealFIFO[T]) Pop(ctx context.Context, process PopProcessFunc[T]) (Deltas[T], error) {
	return f.pop(ctx, process, f)
}

// lenLocked is the number of queued events. Call with mu held.
func (f *RealFIFO[T]) lenLocked() int { return len(f.events) }

// takeLocked removes the oldest event. Call with mu held and the queue
// not empty.
func (f *RealFIFO[T]) takeLocked() (string, Deltas[T]) {
	ev := f.events[0]
	f.events[0] = keyedDelta[T]{}
	f.events = f.events[1:]
	return ev.key, Deltas[T]{ev.delta}
}

// Replace records a complete list, read at resourceVersion. An atomic
// FIFO queues it as one ReplacedAll delta. Otherwise it does as
// [DeltaFIFO.Replace], but appends, like client-go's RealFIFO, first the
// tombstones (skipping keys whose last queued delta is already Deleted),
// then the Replaced deltas in list order. Either way every object is
// keyed and transformed first: if one fails, the FIFO is unchanged.
func (f *RealFIFO[T]) Replace(list []meta.Object, resourceVersion string) error {
	return f.replace(list, resourceVersion, f)
}

// replaceLocked queues a prepared list. Call with mu held.
func (f *RealFIFO[T]) replaceLocked(listed []keyedDelta[T], keys *listedKeys[T], rv string) {
	if f.atomic {
		info := &DeltaInfo[T]{ResourceVersion: rv, Objects: make([]T, len(listed)), keys: make([]string, len(listed))}
		for i, o := range listed {
			info.Objects[i], info.keys[i] = o.delta.Object, o.key
		}
		f.enqueueLocked("", Delta[T]{Type: ReplacedAll, Info: info})
		return
	}
	order, last := f.lastDeltasLocked()
	for _, key := range order {
		if last[key].Type != Deleted && !keys.has(key) {
			f.enqueueLocked(key, tombstone(key, last[key].Object))
		}
	}
	f.tombstoneKnownLocked(keys, hasKey(last), f.enqueueLocked)
	for _, o := range listed {
		f.enqueueLocked(o.key, o.delta)
	}
}

// Resync records a Sync delta, with the cached object, for every known
// key that has nothing queued, as [DeltaFIFO.Resync] does. An atomic FIFO
// queues one SyncAll instead: the consumer re-delivers everything it has
// cached when it gets there, pending changes applied.
func (f *RealFIFO[T]) Resync() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.atomic {
		f.enqueueLocked("", Delta[T]{Type: SyncAll})
		return nil
	}
	_, last := f.lastDeltasLocked()
	f.resyncLocked(hasKey(last), f.enqueueLocked)
	return nil
}

// Bookmark records that the watch has reached resourceVersion, as a
// Bookmark delta behind everything queued, so that the consumer learns
// it in order. Only an atomic FIFO records it, as in client-go (a
// [Reflector] calls it for every watch bookmark); otherwise it does
// nothing.
func (f *RealFIFO[T]) Bookmark(resourceVersion string) error {
	if !f.atomic {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.enqueueLocked("", Delta[T]{Type: Bookmark, Info: &DeltaInfo[T]{ResourceVersion: resourceVersion}})
	return nil
}

// lastDeltasLocked returns the queued keys in the order of their first
// event, and each key's last queued delta. Call with mu held.
func (f *RealFIFO[T]) lastDeltasLocked() (order []string, last map[string]Delta[T]) {
	last = map[string]Delta[T]{}
	for _, ev := range f.events {
		if ev.delta.Type.atomic() {
			continue // no object, no key
		}
		if _, seen := last[ev.key]; !seen {
			order = append(order, ev.key)
		}
		last[ev.key] = ev.delta
	}
	return order, last
}

// hasKey returns a function that reports whether m has a key.
func hasKey[V any](m map[string]V) func(string) bool {
	return func(key string) bool { _, ok := m[key]; return ok }
}

// ListKeys returns the queued keys, each once, in the order of their
// first queued event.
func (f *RealFIFO[T]) ListKeys() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	order, _ := f.lastDeltasLocked()
	if order == nil {
		return []string{}
	}
	return order
}

// Len returns the number of queued events (deltas, not keys).
func (f *RealFIFO[T]) Len() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.events)
}
