package informer

import (
	"errors"
	"fmt"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/store"
)

// This file is how a SharedIndexInformer applies what it pops to its
// cache and tells the handlers: client-go's processDeltas and
// processReplacedAllInfo, in the informer's own words.

// QueueKind selects an informer's queue ([Options].Queue): what client-go
// has done in turn, so that each can be run and compared.
type QueueKind int

const (
	// QueueAtomic, the default, is client-go v0.37's (Kubernetes 1.37):
	// a [RealFIFO] with AtomicEvents and UnlockWhileProcessing. Changes
	// reach the cache and the handlers in the order the server made
	// them; a list or relist is applied to the cache in one step and
	// only then told to the handlers, tombstones first; watch bookmarks
	// and lists advance the cache's
	// [store.Indexer.LastStoreSyncResourceVersion].
	QueueAtomic QueueKind = iota
	// QueueInOrder is client-go 1.33 to 1.35 (InOrderInformers on,
	// AtomicFIFO off): a [RealFIFO] with one entry per change, a list
	// spread into one Replaced delta per object after its tombstones.
	// The cache's resourceVersion stays "".
	QueueInOrder
	// QueueDeltaFIFO is client-go before 1.33, what the stories describe:
	// a [DeltaFIFO], one entry per key, each key keeping its place while
	// its changes pile up. The cache's resourceVersion stays "".
	QueueDeltaFIFO
)

// String names the queue kind as the constant does.
func (k QueueKind) String() string {
	switch k {
	case QueueAtomic:
		return "QueueAtomic"
	case QueueInOrder:
		return "QueueInOrder"
	case QueueDeltaFIFO:
		return "QueueDeltaFIFO"
	}
	return fmt.Sprintf("QueueKind(%d)", int(k))
}

// newInformerQueue makes the queue opts.Queue asks for, in front of
// cache. An unknown kind gets the default.
func newInformerQueue[T meta.Object](opts Options[T], cache *store.Indexer[T], name string) informerQueue[T] {
	transform := ownCopy(opts.Transform)
	switch opts.Queue {
	case QueueInOrder:
		return NewRealFIFO(RealFIFOOptions[T]{KnownObjects: cache, Transform: transform, Tracer: opts.Tracer, Name: name})
	case QueueDeltaFIFO:
		return NewDeltaFIFO(DeltaFIFOOptions[T]{KnownObjects: cache, Transform: transform, Tracer: opts.Tracer, Name: name})
	}
	return NewRealFIFO(RealFIFOOptions[T]{AtomicEvents: true, UnlockWhileProcessing: true,
		Transform: transform, Tracer: opts.Tracer, Name: name})
}

// process applies one key's deltas to the cache and tells the handlers.
// It runs with the FIFO locked, except behind an atomic queue (client-go's
// UnlockWhileProcessing): the FIFO never reads the cache then, so the
// reflector may go on queueing while the informer works.
func (i *SharedIndexInformer[T]) process(key string, deltas Deltas[T], isInInitialList bool) error {
	i.mu.Lock()
	defer i.mu.Unlock()
	var errs []error
	for _, d := range deltas {
		if err := i.processDelta(key, d, isInInitialList); err != nil {
			errs = append(errs, fmt.Errorf("%s %q: %w", d.Type, key, err))
		}
	}
	return errors.Join(errs...)
}

// processDelta must be called with mu held.
func (i *SharedIndexInformer[T]) processDelta(key string, d Delta[T], isInInitialList bool) error {
	switch d.Type {
	case ReplacedAll:
		return i.replaceAll(d.Info, isInInitialList)
	case SyncAll:
		i.syncAll()
		return nil
	case Bookmark:
		i.indexer.Bookmark(d.Info.ResourceVersion)
		return nil
	case Deleted:
		i.processDeleted(key, d)
		return nil
	}
	// The FIFO keyed the delta already: store under that key, and learn
	// what was cached before in the same lookup.
	old, exists, err := i.indexer.UpdateByKey(key, d.Object)
	if err != nil {
		return err
	}
	i.cached(key, d)
	if !exists {
		i.distribute(notification[T]{kind: addNotification, flag: isInInitialList, newObj: d.Object}, false)
		return nil
	}
	// A resync (Sync), or a relist that found the object unchanged
	// (Replaced with the same resourceVersion), goes only to the handlers
	// marked resyncing — those the last resync check found due, and every
	// handler until a first check has run (without a resync period:
	// always), as in client-go. Added and Updated deltas always go to all.
	isSync := d.Type == Sync || d.Type == Replaced && sameRV(old, d.Object)
	i.distribute(notification[T]{kind: updateNotification, oldObj: old, newObj: d.Object}, isSync)
	return nil
}

// processDeleted removes key from the cache and tells the handlers,
// unless it is a tombstone for a key never cached (never announced:
// nothing to retract). Must be called with mu held.
func (i *SharedIndexInformer[T]) processDeleted(key string, d Delta[T]) {
	old, exists, _ := i.indexer.GetByKey(key)
	i.indexer.DeleteByKey(key)
	i.cached(key, d)
	obj := d.Object
	if d.Tombstone != nil && exists {
		obj = old // the cache's last state is the best we know
	}
	if !exists && d.Tombstone != nil {
		return
	}
	i.distribute(notification[T]{kind: deleteNotification, flag: d.Tombstone != nil, newObj: obj}, false)
}

// cached traces that the cache took d and, behind an atomic queue, records
// d's resourceVersion as the cache's: every change before it is applied.
// Must be called with mu held.
func (i *SharedIndexInformer[T]) cached(key string, d Delta[T]) {
	i.traceCached(key, d)
	if i.recordRV && d.Tombstone == nil {
		i.indexer.Bookmark(d.Object.GetObjectMeta().ResourceVersion)
	}
}

// sameRV reports whether a and b have the same resourceVersion: then an
// update from a to b changed nothing.
func sameRV[T meta.Object](a, b T) bool {
	return a.GetObjectMeta().ResourceVersion == b.GetObjectMeta().ResourceVersion
}

// replaceAll applies a whole list to the cache in one step, then tells the
// handlers, as client-go's processReplacedAllInfo: first OnDelete
// (finalStateUnknown) for every cached object the list lacks, in key
// order (client-go: map order), then for each listed object, in list
// order, OnUpdate(cached, listed) if it was cached — only to the handlers
// marked resyncing if its resourceVersion did not change — or OnAdd.
// The cache's resourceVersion becomes the list's. If the cache refuses
// the list (an index function fails), nothing changes and nobody is told.
// Must be called with mu held.
func (i *SharedIndexInformer[T]) replaceAll(info *DeltaInfo[T], isInInitialList bool) error {
	before := i.before(info.keys)
	if err := i.indexer.ReplaceByKeys(info.keys, info.Objects, info.ResourceVersion); err != nil {
		return err
	}
	for _, g := range before.gone {
		i.traceCached(g.key, Delta[T]{Type: Deleted, Object: g.obj})
		i.distribute(notification[T]{kind: deleteNotification, flag: true, newObj: g.obj}, false)
	}
	for j, obj := range info.Objects {
		i.traceCached(info.keys[j], Delta[T]{Type: Replaced, Object: obj})
		if before.old == nil || !before.had[j] {
			i.distribute(notification[T]{kind: addNotification, flag: isInInitialList, newObj: obj}, false)
			continue
		}
		old := before.old[j]
		i.distribute(notification[T]{kind: updateNotification, oldObj: old, newObj: obj}, sameRV(old, obj))
	}
	return nil
}

// cacheBefore is what a list is about to replace: for each listed key,
// the cached object if had says there was one, and the cached objects
// whose keys the list lacks. All nil when the cache was empty.
type cacheBefore[T meta.Object] struct {
	old  []T
	had  []bool
	gone []keyedObject[T]
}

// keyedObject is an object with its cache key.
type keyedObject[T meta.Object] struct {
	key string
	obj T
}

// before reads what the cache holds for a list of keys, before the list
// replaces it. Must be called with mu held.
func (i *SharedIndexInformer[T]) before(keys []string) cacheBefore[T] {
	var b cacheBefore[T]
	if i.indexer.Len() == 0 {
		return b // the first list, usually: nothing to compare
	}
	listed := make(map[string]struct{}, len(keys))
	b.old, b.had = make([]T, len(keys)), make([]bool, len(keys))
	for j, key := range keys {
		listed[key] = struct{}{}
		b.old[j], b.had[j], _ = i.indexer.GetByKey(key)
	}
	for _, key := range i.indexer.ListKeys() {
		if _, ok := listed[key]; !ok {
			obj, _, _ := i.indexer.GetByKey(key)
			b.gone = append(b.gone, keyedObject[T]{key, obj})
		}
	}
	return b
}

// syncAll re-delivers every cached object as OnUpdate(obj, obj) to the
// handlers marked resyncing: an atomic queue's resync, done in its turn,
// so with every change queued before it applied. Must be called with mu
// held.
func (i *SharedIndexInformer[T]) syncAll() {
	for _, obj := range i.indexer.List() {
		i.traceCached("", Delta[T]{Type: Sync, Object: obj})
		i.distribute(notification[T]{kind: updateNotification, oldObj: obj, newObj: obj}, true)
	}
}

// distribute queues n for every handler (for a resync, only those marked
// resyncing).
// Must be called with mu held.
func (i *SharedIndexInformer[T]) distribute(n notification[T], isSync bool) {
	for _, l := range i.listeners {
		if !isSync || l.resyncing {
			l.add(n)
		}
	}
}
