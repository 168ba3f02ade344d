package store

import (
	"slices"
	"strings"
)

// The Indexer gives every stored object a small integer id, and its
// indexes file ids, not keys. A set of ids costs a quarter of a set of
// key strings (4 bytes a slot instead of a 16-byte string header), and an
// index answer maps each id straight to its object, with no second lookup
// by key. client-go files key strings; for a cache with two indexes this
// is most of the difference in bytes per object.

// chunkBits sets the chunk size of a table: 1,024 entries.
const chunkBits = 10

const (
	chunkSize = 1 << chunkBits
	chunkMask = chunkSize - 1
)

// entry is one stored object and its key: the key is kept here once, and
// index answers read it to sort.
type entry[T Object] struct {
	key string
	obj T
}

// table holds the entries by id. It is chunked instead of one growing
// slice, so that growing never copies what is stored (a relist of a
// million objects allocates each entry once) and a big table holds no
// slack beyond its last chunk. The first chunk grows like a slice, so
// that a small store stays small. The ids of removed entries are reused.
// A table is guarded by its Indexer's lock.
type table[T Object] struct {
	chunks [][]entry[T] // all full except the last
	free   []uint32     // ids of removed entries, reused first
}

// at returns the entry with id.
func (t *table[T]) at(id uint32) *entry[T] {
	return &t.chunks[id>>chunkBits][id&chunkMask]
}

// newTable returns an empty table whose first chunk has room for n
// entries (a whole chunk at most).
func newTable[T Object](n int) table[T] {
	return table[T]{chunks: [][]entry[T]{make([]entry[T], 0, min(max(n, 8), chunkSize))}}
}

// put stores an entry and returns its id.
func (t *table[T]) put(key string, obj T) uint32 {
	e := entry[T]{key: key, obj: obj}
	if n := len(t.free); n > 0 {
		id := t.free[n-1]
		t.free = t.free[:n-1]
		*t.at(id) = e
		return id
	}
	if len(t.chunks) == 0 {
		*t = newTable[T](0)
	}
	last := len(t.chunks) - 1
	c := t.chunks[last]
	switch {
	case len(c) == chunkSize: // full: start the next chunk, whole
		c = make([]entry[T], 0, chunkSize)
		t.chunks = append(t.chunks, c)
		last++
	case len(c) == cap(c): // the first chunk, still small: double it
		c = append(make([]entry[T], 0, min(2*cap(c), chunkSize)), c...)
	}
	t.chunks[last] = append(c, e)
	return uint32(last<<chunkBits + len(c))
}

// remove clears the entry with id, so that the table does not keep its
// object alive, and frees the id for reuse.
func (t *table[T]) remove(id uint32) {
	*t.at(id) = entry[T]{}
	t.free = append(t.free, id)
}

// sortByKey sorts ids by the keys of their entries.
func (t *table[T]) sortByKey(ids []uint32) {
	slices.SortFunc(ids, func(a, b uint32) int { return strings.Compare(t.at(a).key, t.at(b).key) })
}

// keys returns the keys of ids, in order.
func (t *table[T]) keys(ids []uint32) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = t.at(id).key
	}
	return out
}

// objects returns the objects of ids, in order.
func (t *table[T]) objects(ids []uint32) []T {
	out := make([]T, len(ids))
	for i, id := range ids {
		out[i] = t.at(id).obj
	}
	return out
}
