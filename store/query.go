package store

import (
	"maps"
	"slices"
)

// Index returns the stored objects that share at least one value of the
// named index with obj (obj itself need not be stored), sorted by key.
func (x *Indexer[T]) Index(name string, obj T) ([]T, error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	ix := x.lookupLocked(name)
	if ix == nil {
		return nil, unknownIndex(name)
	}
	vals, err := ix.fn(obj)
	if err != nil {
		return nil, &IndexFuncError{Index: name, Err: err}
	}
	if len(vals) == 1 {
		return x.entries.objects(sortedIDs(ix.values[vals[0]], &x.entries)), nil
	}
	union := map[uint32]struct{}{}
	for _, v := range vals {
		if set := ix.values[v]; set != nil {
			maps.Copy(union, set.ids)
		}
	}
	ids := slices.AppendSeq(make([]uint32, 0, len(union)), maps.Keys(union))
	x.entries.sortByKey(ids)
	return x.entries.objects(ids), nil
}

// IndexKeys returns the keys filed under value in the named index, sorted.
// A value nobody has gives an empty list, not an error.
func (x *Indexer[T]) IndexKeys(name, value string) ([]string, error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	ix := x.lookupLocked(name)
	if ix == nil {
		return nil, unknownIndex(name)
	}
	return x.entries.keys(sortedIDs(ix.values[value], &x.entries)), nil
}

// ByIndex returns the objects filed under value in the named index, sorted
// by key: "every order for the grill section". A value nobody has gives an
// empty list, not an error. Unlike client-go, whose answer comes in map
// order, the order is fixed; the sorted keys are kept between calls until
// the value's set changes, so a cache that is read more than written
// sorts almost never.
func (x *Indexer[T]) ByIndex(name, value string) ([]T, error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	ix := x.lookupLocked(name)
	if ix == nil {
		return nil, unknownIndex(name)
	}
	return x.entries.objects(sortedIDs(ix.values[value], &x.entries)), nil
}

// ListIndexFuncValues returns the values in use in the named index,
// sorted; an unknown index has none (this method has no error, as in
// client-go).
func (x *Indexer[T]) ListIndexFuncValues(name string) []string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	ix := x.lookupLocked(name)
	if ix == nil {
		return []string{}
	}
	return sortedKeys(ix.values)
}
