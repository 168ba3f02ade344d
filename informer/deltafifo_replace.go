package informer

import (
	"github.com/kitchensync/kitchensync/apiserver"
)

// Replace records a complete list, read at resourceVersion, as after a
// (re)list: a Replaced delta for every listed object, and a tombstone
// (Deleted with [DeletedFinalStateUnknown]) for every key that is queued
// or known but missing from the list, carrying the newest state the FIFO
// or the cache had. The first Replace sets the initial population that
// [DeltaFIFO.HasSynced] waits for.
//
// Classic mode appends to each key's deltas in place (listed objects in
// list order, then vanished queued keys in queue order, then vanished
// cached keys). In-order mode appends, like client-go's RealFIFO, first
// the tombstones (skipping keys whose last queued delta is already
// Deleted), then the Replaced deltas in list order.
//
// Every object is checked, keyed and transformed before anything is
// queued: if one fails, the FIFO is unchanged. resourceVersion is not
// used, as in client-go's DeltaFIFO.
func (f *DeltaFIFO[T]) Replace(list []apiserver.Object, resourceVersion string) error {
	objs := make([]keyedDelta[T], len(list))
	listed := make(map[string]struct{}, len(list))
	for i, obj := range list {
		key, t, err := f.prepare(obj, false)
		if err != nil {
			return err
		}
		objs[i] = keyedDelta[T]{key: key, delta: Delta[T]{Type: Replaced, Object: t}}
		listed[key] = struct{}{}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.inOrder {
		f.replaceInOrderLocked(objs, listed)
	} else {
		f.replaceLocked(objs, listed)
	}
	if !f.populated {
		f.populated = true
		f.initialPopulationCount = f.lenLocked()
		f.checkSyncedLocked()
	}
	return nil
}

// replaceLocked is Replace in classic mode. Call with mu held.
func (f *DeltaFIFO[T]) replaceLocked(objs []keyedDelta[T], listed map[string]struct{}) {
	for _, o := range objs {
		f.enqueueLocked(o.key, o.delta)
	}
	// Keys queued but not listed: a tombstone with the newest queued
	// state. After a queued Deleted it merges away (dedupDeltas).
	for _, key := range f.queue {
		if _, ok := listed[key]; !ok {
			f.enqueueLocked(key, tombstone(key, f.items[key].Newest().Object))
		}
	}
	f.tombstoneKnownLocked(listed, func(key string) bool { return len(f.items[key]) > 0 })
}

// replaceInOrderLocked is Replace in in-order mode. Call with mu held.
func (f *DeltaFIFO[T]) replaceInOrderLocked(objs []keyedDelta[T], listed map[string]struct{}) {
	last := map[string]Delta[T]{}
	var order []string
	for _, ev := range f.events {
		if _, seen := last[ev.key]; !seen {
			order = append(order, ev.key)
		}
		last[ev.key] = ev.delta
	}
	for _, key := range order {
		if _, ok := listed[key]; !ok && last[key].Type != Deleted {
			f.enqueueLocked(key, tombstone(key, last[key].Object))
		}
	}
	f.tombstoneKnownLocked(listed, func(key string) bool { _, ok := last[key]; return ok })
	for _, o := range objs {
		f.enqueueLocked(o.key, o.delta)
	}
}

// tombstoneKnownLocked queues a tombstone for every known key that is
// neither listed nor queued, with the cached object as its last state
// (nil if the lookup fails). Call with mu held.
func (f *DeltaFIFO[T]) tombstoneKnownLocked(listed map[string]struct{}, queued func(string) bool) {
	if f.known == nil {
		return
	}
	for _, key := range f.known.ListKeys() {
		if _, ok := listed[key]; ok || queued(key) {
			continue
		}
		obj, exists, err := f.known.GetByKey(key)
		if err != nil || !exists {
			var zero T
			obj = zero
		}
		f.enqueueLocked(key, tombstone(key, obj))
	}
}

// Resync records a Sync delta, with the cached object, for every known
// key that has nothing queued, so that handlers see it again (OnUpdate
// with the same object twice). Keys whose lookup fails are skipped, as in
// client-go. Without known objects it does nothing.
func (f *DeltaFIFO[T]) Resync() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.known == nil {
		return nil
	}
	queued := f.queuedSetLocked()
	for _, key := range f.known.ListKeys() {
		if _, ok := queued[key]; ok {
			continue
		}
		obj, exists, err := f.known.GetByKey(key)
		if err != nil || !exists {
			continue
		}
		f.enqueueLocked(key, Delta[T]{Type: Sync, Object: obj})
	}
	return nil
}

// queuedSetLocked returns the set of queued keys. In classic mode that
// is items itself (read only). Call with mu held.
func (f *DeltaFIFO[T]) queuedSetLocked() map[string]Deltas[T] {
	if !f.inOrder {
		return f.items
	}
	set := map[string]Deltas[T]{}
	for _, ev := range f.events {
		set[ev.key] = nil
	}
	return set
}
