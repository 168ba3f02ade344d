package apiserver

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// sortEntries orders as compareKeys does, in one namespace and across
// namespaces whose names sort differently from their keys ("a-b" before
// "a/..." as a key, after "a" as a namespace).
func TestSortEntriesOrdersAsCompareKeys(t *testing.T) {
	for _, namespaces := range [][]string{{"default"}, {"a", "a-b", "b", ""}} {
		var entries []*entry
		for i := range 200 {
			o := &meta.Status{}
			o.Namespace = namespaces[i%len(namespaces)]
			o.Name = []string{"x", "x-1", "x.1", "y", "a", "a-very-long-name-", "a-very-long-name-2"}[rand.N(7)] + string(rune('a'+i%26))
			entries = append(entries, &entry{obj: o})
		}
		rand.Shuffle(len(entries), func(i, j int) { entries[i], entries[j] = entries[j], entries[i] })
		want := slices.Clone(entries)
		slices.SortStableFunc(want, func(a, b *entry) int { return compareKeys(a.obj, b.obj) })
		sortEntries(entries)
		for i := range entries {
			if compareKeys(entries[i].obj, want[i].obj) != 0 {
				t.Fatalf("namespaces %q: item %d is %s/%s, want %s/%s", namespaces, i,
					entries[i].obj.GetObjectMeta().Namespace, entries[i].obj.GetObjectMeta().Name,
					want[i].obj.GetObjectMeta().Namespace, want[i].obj.GetObjectMeta().Name)
			}
		}
	}
}
