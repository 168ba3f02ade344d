package apiserver

import (
	"cmp"
	"encoding/binary"
	"slices"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// sortEntries sorts entries by namespace, then name, as compareKeys
// orders their objects: sorting is most of the server's work for a large
// list. It reads each key once, instead of twice per comparison through
// the object's interface, and keeps the first 16 bytes of each name
// beside it, so that most comparisons read no string (names are spread
// over the heap: reading them is what costs); when all are in one
// namespace (a namespaced list) it compares names only.
func sortEntries(entries []*entry) {
	keys := make([]sortKey, len(entries))
	oneNamespace := true
	for i, e := range entries {
		m := e.obj.GetObjectMeta()
		keys[i] = newSortKey(m.Namespace, m.Name, e)
		oneNamespace = oneNamespace && m.Namespace == keys[0].ns
	}
	if oneNamespace {
		slices.SortFunc(keys, compareNames)
	} else {
		slices.SortFunc(keys, func(a, b sortKey) int {
			if c := strings.Compare(a.ns, b.ns); c != 0 {
				return c
			}
			return compareNames(a, b)
		})
	}
	for i, k := range keys {
		entries[i] = k.e
	}
}

// sortKey is an entry with its key; hi and lo hold the first 16 bytes of
// the name, big-endian, zero-padded.
type sortKey struct {
	hi, lo   uint64
	ns, name string
	e        *entry
}

func newSortKey(ns, name string, e *entry) sortKey {
	var b [16]byte
	copy(b[:], name)
	return sortKey{binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:]), ns, name, e}
}

// compareNames orders by name: by the first 16 bytes, then, if they are
// equal, by the whole names. (Zero padding sorts a shorter name first, as
// strings.Compare does: names hold no zero byte.)
func compareNames(a, b sortKey) int {
	if c := cmp.Compare(a.hi, b.hi); c != 0 {
		return c
	}
	if c := cmp.Compare(a.lo, b.lo); c != 0 {
		return c
	}
	return strings.Compare(a.name, b.name)
}

// compareKeys orders objects by namespace, then name, as lists are sorted.
func compareKeys(a, b meta.Object) int {
	am, bm := a.GetObjectMeta(), b.GetObjectMeta()
	if c := strings.Compare(am.Namespace, bm.Namespace); c != 0 {
		return c
	}
	return strings.Compare(am.Name, bm.Name)
}
