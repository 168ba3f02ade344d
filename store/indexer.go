package store

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
)

// Indexer is a goroutine-safe cache of objects by key, with named indexes,
// like client-go's cache.Indexer (its threadSafeMap, index and cache types
// in one). The informer keeps one per kind as its local copy of the
// server's state.
//
// Objects handed to the Indexer are stored as they are, and objects it
// returns are the stored ones, shared with every other reader: never
// mutate them (copy with meta.DeepCopy first). A mutated object can
// also leave its index entries stale.
//
// Every method is safe for concurrent use; readers share a read lock.
// Lists (List, ListKeys, ByIndex, IndexKeys, Index, ListIndexFuncValues)
// are sorted by key or value, where client-go returns map order. The zero
// value is an empty Indexer without indexes, keyed by
// [MetaNamespaceKeyFunc].
type Indexer[T Object] struct {
	keyFunc KeyFunc

	mu      sync.RWMutex      // guards ids, entries, indexes and rv
	ids     map[string]uint32 // the id of every stored key
	entries table[T]          // the stored objects, by id
	indexes []*index[T]       // sorted by name; a handful at most, so scanned
	rv      string            // see LastStoreSyncResourceVersion
}

// NewIndexer returns an empty Indexer that keys objects with keyFunc
// ([MetaNamespaceKeyFunc] if nil) and maintains the given indexes. The map
// is copied; entries with a nil function are ignored.
func NewIndexer[T Object](keyFunc KeyFunc, indexers Indexers[T]) *Indexer[T] {
	if keyFunc == nil {
		keyFunc = MetaNamespaceKeyFunc
	}
	x := &Indexer[T]{keyFunc: keyFunc, ids: map[string]uint32{}}
	for _, name := range sortedKeys(indexers) {
		if fn := indexers[name]; fn != nil {
			x.indexes = append(x.indexes, newIndex(name, fn))
		}
	}
	return x
}

// key runs the key function, wrapping its error in a [*KeyError].
func (x *Indexer[T]) key(obj T) (string, error) {
	keyFunc := x.keyFunc
	if keyFunc == nil {
		keyFunc = MetaNamespaceKeyFunc
	}
	key, err := keyFunc(obj)
	if err != nil {
		return "", &KeyError{Obj: obj, Err: err}
	}
	return key, nil
}

// Add stores obj, or replaces the object with the same key. It is the
// same as [Indexer.Update], as in client-go.
func (x *Indexer[T]) Add(obj T) error { return x.Update(obj) }

// Update stores obj under its key and moves it to its new index values.
// If the key function or an index function fails, nothing changes.
func (x *Indexer[T]) Update(obj T) error {
	key, err := x.key(obj)
	if err != nil {
		return err
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	_, _, err = x.updateLocked(key, obj)
	return err
}

// UpdateByKey is [Indexer.Update] for a caller that has keyed obj already:
// it stores obj under key, which must be what the key function gives for
// obj, and returns the object it replaced, if any. The informer uses it
// with the key its FIFO made for the delta, so that each change is keyed
// once and looked up once (client-go's cache hands its ThreadSafeStore
// the key in the same way). If an index function fails, nothing changes.
func (x *Indexer[T]) UpdateByKey(key string, obj T) (old T, existed bool, err error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.updateLocked(key, obj)
}

// updateLocked stores obj under key and refiles it in every index,
// returning the object it replaced. Call with mu held.
func (x *Indexer[T]) updateLocked(key string, obj T) (old T, had bool, err error) {
	// The values of every index first, so that a failure changes nothing;
	// on the stack for the usual handful of indexes.
	var buf [4][]string
	vals := buf[:0]
	for _, ix := range x.indexes {
		v, err := ix.compute(key, obj)
		if err != nil {
			return old, false, err
		}
		vals = append(vals, v)
	}
	if x.ids == nil {
		x.ids = map[string]uint32{}
	}
	id, had := x.ids[key]
	if had {
		e := x.entries.at(id)
		old, e.obj = e.obj, obj
	} else {
		id = x.entries.put(key, obj)
		x.ids[key] = id
	}
	for i, ix := range x.indexes {
		ix.refile(id, old, had, vals[i])
	}
	return old, had, nil
}

// Delete removes the object with obj's key, wherever it is filed. Only the
// key of obj matters: the stored object decides which index values are
// cleaned up. Deleting a missing key is not an error.
func (x *Indexer[T]) Delete(obj T) error {
	key, err := x.key(obj)
	if err != nil {
		return err
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.deleteLocked(key)
	return nil
}

// DeleteByKey removes the object stored under key, if any. The informer
// uses it for tombstones whose last state is unknown.
func (x *Indexer[T]) DeleteByKey(key string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.deleteLocked(key)
}

// deleteLocked removes key from items and indexes. Call with mu held.
func (x *Indexer[T]) deleteLocked(key string) {
	id, ok := x.ids[key]
	if !ok {
		return
	}
	old := x.entries.at(id).obj
	for _, ix := range x.indexes {
		ix.unfile(id, old)
	}
	delete(x.ids, key)
	x.entries.remove(id)
}

// Get returns the stored object with obj's key.
func (x *Indexer[T]) Get(obj T) (item T, exists bool, err error) {
	key, err := x.key(obj)
	if err != nil {
		return item, false, err
	}
	return x.GetByKey(key)
}

// GetByKey returns the object stored under key. The error is always nil;
// it is there so that GetByKey matches client-go's KeyGetter and the
// informer's KeyListerGetter.
func (x *Indexer[T]) GetByKey(key string) (item T, exists bool, err error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	id, exists := x.ids[key]
	if exists {
		item = x.entries.at(id).obj
	}
	return item, exists, nil
}

// List returns every stored object, sorted by key.
func (x *Indexer[T]) List() []T {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.entries.objects(x.sortedIDsLocked())
}

// ListKeys returns every stored key, sorted.
func (x *Indexer[T]) ListKeys() []string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return sortedKeys(x.ids)
}

// Len returns how many objects are stored.
func (x *Indexer[T]) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.ids)
}

// sortedIDsLocked returns the id of every stored object, in key order.
// Call with mu held.
func (x *Indexer[T]) sortedIDsLocked() []uint32 {
	ids := slices.AppendSeq(make([]uint32, 0, len(x.ids)), maps.Values(x.ids))
	x.entries.sortByKey(ids)
	return ids
}

// Replace makes list the whole content of the store and rebuilds every
// index, as a relist does, and records resourceVersion (the list's) as
// [Indexer.LastStoreSyncResourceVersion], as client-go's store does. When
// two objects share a key the later wins. If a key or index function
// fails, nothing changes.
func (x *Indexer[T]) Replace(list []T, resourceVersion string) error {
	keys := make([]string, len(list))
	for i, obj := range list {
		key, err := x.key(obj)
		if err != nil {
			return err
		}
		keys[i] = key
	}
	return x.ReplaceByKeys(keys, list, resourceVersion)
}

// ReplaceByKeys is [Indexer.Replace] for a caller that has keyed the
// objects already, as [Indexer.UpdateByKey] is for Update: keys[i] must be
// what the key function gives for list[i]. The informer uses it with the
// keys its FIFO made. keys and list of different lengths are an error.
func (x *Indexer[T]) ReplaceByKeys(keys []string, list []T, resourceVersion string) error {
	if len(keys) != len(list) {
		return fmt.Errorf("store: ReplaceByKeys: %d keys for %d objects", len(keys), len(list))
	}
	ids, entries := make(map[string]uint32, len(list)), newTable[T](len(list))
	for i, obj := range list {
		key := keys[i]
		if id, dup := ids[key]; dup {
			entries.at(id).obj = obj
		} else {
			ids[key] = entries.put(key, obj)
		}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	indexes := make([]*index[T], len(x.indexes))
	for i, ix := range x.indexes {
		built, err := buildIndex(ix.name, ix.fn, ids, &entries)
		if err != nil {
			return err
		}
		indexes[i] = built
	}
	x.ids, x.entries, x.indexes, x.rv = ids, entries, indexes, resourceVersion
	return nil
}

// Bookmark records rv as the newest resourceVersion the store reflects,
// like client-go's Store.Bookmark. The store cannot read resourceVersions
// itself (it knows objects only by namespace and name: [Object]), so
// whoever fills it says how far it has got: an informer with an atomic
// FIFO calls Bookmark after every change it applies and for every watch
// bookmark, and [Indexer.Replace] records the list's. rv is taken as
// given, even if it is older: the caller knows its order, the store
// does not.
func (x *Indexer[T]) Bookmark(rv string) {
	x.mu.Lock()
	x.rv = rv
	x.mu.Unlock()
}

// LastStoreSyncResourceVersion returns the newest resourceVersion the
// store reflects: the last one recorded by [Indexer.Replace] or
// [Indexer.Bookmark], "" if none was. Like client-go's
// Store.LastStoreSyncResourceVersion.
//
// It is a watermark only if the store was filled in resourceVersion
// order: then every change up to it is in the store, and a reader that
// wrote an object at a resourceVersion at most this one can trust the
// store to show that write or a later one. An informer's atomic FIFO
// (the default) keeps that promise; a DeltaFIFO does not (it applies one
// key's changes ahead of another's), so an informer on one never records
// a resourceVersion here and this stays "" — as client-go's store
// answers "" with its AtomicFIFO feature gate off.
func (x *Indexer[T]) LastStoreSyncResourceVersion() string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.rv
}

// buildIndex indexes the objects of ids, stored in entries, from scratch.
func buildIndex[T Object](name string, fn IndexFunc[T], ids map[string]uint32, entries *table[T]) (*index[T], error) {
	ix := newIndex(name, fn)
	for key, id := range ids {
		vals, err := ix.compute(key, entries.at(id).obj)
		if err != nil {
			return nil, err
		}
		ix.add(id, vals)
	}
	return ix, nil
}

// AddIndexers registers more indexes and files every stored object in
// them, like client-go v0.37 (older client-go refused once objects were
// stored). A name already in use is an error wrapping [ErrIndexConflict];
// an index function failing on a stored object is an [*IndexFuncError].
// In both cases no index is added.
func (x *Indexer[T]) AddIndexers(indexers Indexers[T]) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	var conflicts []string
	for name := range indexers {
		if x.lookupLocked(name) != nil {
			conflicts = append(conflicts, name)
		}
	}
	if len(conflicts) > 0 {
		slices.Sort(conflicts)
		return fmt.Errorf("%w: %s; pick another name", ErrIndexConflict, strings.Join(conflicts, ", "))
	}
	added := make([]*index[T], 0, len(indexers))
	for _, name := range sortedKeys(indexers) {
		if fn := indexers[name]; fn != nil {
			ix, err := buildIndex(name, fn, x.ids, &x.entries)
			if err != nil {
				return err
			}
			added = append(added, ix)
		}
	}
	x.indexes = append(x.indexes, added...)
	slices.SortFunc(x.indexes, func(a, b *index[T]) int { return strings.Compare(a.name, b.name) })
	return nil
}

// GetIndexers returns a copy of the registered index functions.
func (x *Indexer[T]) GetIndexers() Indexers[T] {
	x.mu.RLock()
	defer x.mu.RUnlock()
	out := make(Indexers[T], len(x.indexes))
	for _, ix := range x.indexes {
		out[ix.name] = ix.fn
	}
	return out
}

// lookupLocked finds an index by name, or nil. Call with mu held.
func (x *Indexer[T]) lookupLocked(name string) *index[T] {
	for _, ix := range x.indexes {
		if ix.name == name {
			return ix
		}
	}
	return nil
}
