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

// keySet is the set of keys filed under one index value. Answers come
// back sorted, so the set keeps a sorted copy of its keys, made by the
// first reader after a change and dropped by the next change: a cache is
// read far more often than written, so most reads sort nothing.
type keySet struct {
	keys map[string]struct{}
	// sorted is nil after a change. Readers build it holding only the
	// Indexer's read lock, so it is swapped atomically; two readers that
	// race build the same slice, and either may win.
	sorted atomic.Pointer[[]string]
}

// sortedKeys returns the set's keys in order. The slice is shared: callers
// must not modify it. A nil set has no keys.
func (set *keySet) sortedKeys() []string {
	if set == nil {
		return []string{}
	}
	if p := set.sorted.Load(); p != nil {
		return *p
	}
	keys := sortedKeys(set.keys)
	set.sorted.Store(&keys)
	return keys
}

// index is one named index: for each value, the keys of the objects filed
// under it. A value with no keys is removed, so that ListIndexFuncValues
// shows only values in use.
type index[T Object] struct {
	name   string
	fn     IndexFunc[T]
	values map[string]*keySet
}

// compute calls the index function, wrapping its error.
func (ix *index[T]) compute(key string, obj T) ([]string, error) {
	vals, err := ix.fn(obj)
	if err != nil {
		return nil, &IndexFuncError{Index: ix.name, Key: key, Err: err}
	}
	return vals, nil
}

// add files key under each of vals.
func (ix *index[T]) add(key string, vals []string) {
	for _, v := range vals {
		set := ix.values[v]
		if set == nil {
			set = &keySet{keys: map[string]struct{}{}}
			ix.values[v] = set
		}
		set.keys[key] = struct{}{}
		set.sorted.Store(nil)
	}
}

// remove takes key out of each of vals, dropping values left empty.
func (ix *index[T]) remove(key string, vals []string) {
	for _, v := range vals {
		set := ix.values[v]
		if set == nil {
			continue
		}
		delete(set.keys, key)
		set.sorted.Store(nil)
		if len(set.keys) == 0 {
			delete(ix.values, v)
		}
	}
}

// forget takes key out of the index when its old values are not known:
// the index function failed on the stored object, which happens only if
// someone mutated it or the function is not pure. It costs a scan.
func (ix *index[T]) forget(key string) {
	for v, set := range ix.values {
		if _, ok := set.keys[key]; ok {
			ix.remove(key, []string{v})
		}
	}
}

// unfile removes key, whose stored object is old, from the index.
func (ix *index[T]) unfile(key string, old T) {
	vals, err := ix.fn(old)
	if err != nil {
		ix.forget(key)
		return
	}
	ix.remove(key, vals)
}

// refile moves key from the values of old (if had) to vals.
func (ix *index[T]) refile(key string, old T, had bool, vals []string) {
	if had {
		oldVals, err := ix.fn(old)
		if err != nil {
			ix.forget(key)
		} else if slices.Equal(oldVals, vals) {
			return // the common update: nothing moves
		} else {
			ix.remove(key, oldVals)
		}
	}
	ix.add(key, vals)
}

// sortedKeys returns the keys of a map in order; never nil, so that an
// empty answer compares equal to []string{}.
func sortedKeys[V any](m map[string]V) []string {
	keys := slices.AppendSeq(make([]string, 0, len(m)), maps.Keys(m))
	slices.Sort(keys)
	return keys
}
