package store

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
	union := keySet{}
	for _, v := range vals {
		for k := range ix.values[v] {
			union[k] = struct{}{}
		}
	}
	return x.objectsLocked(sortedKeys(union)), nil
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
	return sortedKeys(ix.values[value]), nil
}

// ByIndex returns the objects filed under value in the named index, sorted
// by key: "every order for the grill section". A value nobody has gives an
// empty list, not an error.
func (x *Indexer[T]) ByIndex(name, value string) ([]T, error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	ix := x.lookupLocked(name)
	if ix == nil {
		return nil, unknownIndex(name)
	}
	return x.objectsLocked(sortedKeys(ix.values[value])), nil
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
