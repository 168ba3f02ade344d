package store

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// modelSnapshot is the snapshot an Indexer with testIndexers should show
// for the objects in model, computed without an Indexer.
func modelSnapshot(model map[string]*widget) snapshot {
	s := snapshot{Keys: sortedKeys(model), Indexes: map[string]map[string][]string{}}
	for name, fn := range testIndexers() {
		vals := map[string][]string{}
		for _, k := range s.Keys {
			vs, _ := fn(model[k])
			for _, v := range vs {
				if !slices.Contains(vals[v], k) {
					vals[v] = append(vals[v], k)
				}
			}
		}
		s.Indexes[name] = vals
	}
	return s
}

// TestIndexerAgainstModel runs a long seeded mix of adds, updates,
// deletes and relists over more objects than one table chunk holds, so
// that ids are freed, reused and spread over chunks, and compares the
// Indexer with a plain map after every batch.
func TestIndexerAgainstModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 17))
	x := NewIndexer(nil, testIndexers())
	model := map[string]*widget{}
	random := func() *widget {
		i := rng.IntN(3 * chunkSize)
		tags := []string{"t" + fmt.Sprint(rng.IntN(4)), "t" + fmt.Sprint(rng.IntN(4))}
		return newWidget(fmt.Sprint("ns-", i%7), fmt.Sprint("w-", i), fmt.Sprint("c", rng.IntN(5)), tags...)
	}
	for batch := range 40 {
		for range 500 {
			w := random()
			key, _ := MetaNamespaceKeyFunc(w)
			switch op := rng.IntN(10); {
			case op < 6:
				mustDo(t, x.Add(w))
				model[key] = w
			case op < 9:
				mustDo(t, x.Delete(w))
				delete(model, key)
			default:
				x.DeleteByKey(key)
				delete(model, key)
			}
		}
		if batch%10 == 9 { // a relist keeps about half, with duplicates
			var list []*widget
			for _, k := range sortedKeys(model) {
				if rng.IntN(2) == 0 {
					list = append(list, model[k], model[k])
				}
			}
			mustDo(t, x.Replace(list, "1"))
			model = map[string]*widget{}
			for _, w := range list {
				key, _ := MetaNamespaceKeyFunc(w)
				model[key] = w
			}
		}
		checkIndexer(t, x)
		if diff := cmp.Diff(modelSnapshot(model), snap(t, x)); diff != "" {
			t.Fatalf("batch %d: Indexer differs from the model (-want +got):\n%s", batch, diff)
		}
	}
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
