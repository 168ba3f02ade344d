package store

import (
	"errors"
	"maps"
	"slices"
	"sync/atomic"
)

// IndexFunc computes the values under which an object is filed in one
// index. An object may have no value, one, or several (an order for three
// dishes can be filed under each dish). An error stops the store call that
// needed the values; nothing is half-applied.
//
// An IndexFunc must be a pure function of the object: the store recomputes
// it on the stored object when that object is updated or deleted.
type IndexFunc[T Object] func(obj T) ([]string, error)

// Indexers names index functions; the name is what [Indexer.ByIndex] and
// friends take.
type Indexers[T Object] map[string]IndexFunc[T]

// NamespaceIndex is the conventional name of the index that files objects
// by namespace; register it with [MetaNamespaceIndexFunc].
const NamespaceIndex = "namespace"

// MetaNamespaceIndexFunc files an object under its namespace ("" for a
// cluster-scoped object), like client-go's cache.MetaNamespaceIndexFunc.
func MetaNamespaceIndexFunc[T Object](obj T) ([]string, error) {
	if isNil(obj) {
		return nil, errors.New("store: cannot index a nil object")
	}
	return []string{obj.GetNamespace()}, nil
}

// keySet is the set of objects filed under one index value, by id (see
// [table]). Answers come back sorted by key, so the set keeps its ids in
// key order too, sorted by the first reader after a change and dropped by
// the next change: a cache is read far more often than written, so most
// reads sort nothing.
type keySet struct {
	ids map[uint32]struct{}
	// sorted is nil after a change. Readers build it holding only the
	// Indexer's read lock, so it is swapped atomically; two readers that
	// race build the same slice, and either may win.
	sorted atomic.Pointer[[]uint32]
}

// sortedIDs returns the set's ids in the order of their keys in t. The
// slice is shared: callers must not modify it. A nil set has no ids.
func sortedIDs[T Object](set *keySet, t *table[T]) []uint32 {
	if set == nil {
		return nil
	}
	if p := set.sorted.Load(); p != nil {
		return *p
	}
	ids := slices.AppendSeq(make([]uint32, 0, len(set.ids)), maps.Keys(set.ids))
	t.sortByKey(ids)
	set.sorted.Store(&ids)
	return ids
}

// index is one named index: for each value, the ids of the objects filed
// under it. A value with no ids is removed, so that ListIndexFuncValues
// shows only values in use.
type index[T Object] struct {
	name   string
	fn     IndexFunc[T]
	values map[string]*keySet
}

// newIndex returns an empty index.
func newIndex[T Object](name string, fn IndexFunc[T]) *index[T] {
	return &index[T]{name: name, fn: fn, values: map[string]*keySet{}}
}

// compute calls the index function, wrapping its error; key names the
// object in the error.
func (ix *index[T]) compute(key string, obj T) ([]string, error) {
	vals, err := ix.fn(obj)
	if err != nil {
		return nil, &IndexFuncError{Index: ix.name, Key: key, Err: err}
	}
	return vals, nil
}

// add files id under each of vals.
func (ix *index[T]) add(id uint32, vals []string) {
	for _, v := range vals {
		set := ix.values[v]
		if set == nil {
			set = &keySet{ids: map[uint32]struct{}{}}
			ix.values[v] = set
		}
		set.ids[id] = struct{}{}
		set.sorted.Store(nil)
	}
}

// remove takes id out of each of vals, dropping values left empty.
func (ix *index[T]) remove(id uint32, vals []string) {
	for _, v := range vals {
		set := ix.values[v]
		if set == nil {
			continue
		}
		delete(set.ids, id)
		set.sorted.Store(nil)
		if len(set.ids) == 0 {
			delete(ix.values, v)
		}
	}
}

// forget takes id out of the index when its old values are not known:
// the index function failed on the stored object, which happens only if
// someone mutated it or the function is not pure. It costs a scan.
func (ix *index[T]) forget(id uint32) {
	for v, set := range ix.values {
		if _, ok := set.ids[id]; ok {
			ix.remove(id, []string{v})
		}
	}
}

// unfile removes id, whose stored object is old, from the index.
func (ix *index[T]) unfile(id uint32, old T) {
	vals, err := ix.fn(old)
	if err != nil {
		ix.forget(id)
		return
	}
	ix.remove(id, vals)
}

// refile moves id from the values of old (if had) to vals.
func (ix *index[T]) refile(id uint32, old T, had bool, vals []string) {
	if had {
		oldVals, err := ix.fn(old)
		if err != nil {
			ix.forget(id)
		} else if slices.Equal(oldVals, vals) {
			return // the common update: nothing moves
		} else {
			ix.remove(id, oldVals)
		}
	}
	ix.add(id, vals)
}

// sortedKeys returns the keys of a map in order; never nil, so that an
// empty answer compares equal to []string{}.
func sortedKeys[V any](m map[string]V) []string {
	keys := slices.AppendSeq(make([]string, 0, len(m)), maps.Keys(m))
	slices.Sort(keys)
	return keys
}
