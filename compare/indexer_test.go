package compare

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/store"
	"k8s.io/client-go/tools/cache"

	"github.com/kitchensync/kitchensync/compare/internal/adapt"
	"github.com/kitchensync/kitchensync/compare/internal/ops"
)

// The indexes both sides build: by namespace (each library's own
// function), by color (one value) and by tags (zero or more values).
var (
	indexNames = []string{"namespace", "color", "tags", "firsttag", "missing"}
	// indexValues are the values queried; "none" is never used.
	indexValues = []string{"hall", "terrace", "red", "green", "blue", "hot", "cold", "vegan", "spicy", "none"}
)

func ksIndexers() store.Indexers[*apiservertest.Widget] {
	return store.Indexers[*apiservertest.Widget]{
		store.NamespaceIndex: store.MetaNamespaceIndexFunc[*apiservertest.Widget],
		"color":              func(w *apiservertest.Widget) ([]string, error) { return []string{w.Spec.Color}, nil },
		"tags":               func(w *apiservertest.Widget) ([]string, error) { return w.Spec.Tags, nil },
	}
}

func cgIndexers() cache.Indexers {
	return cache.Indexers{
		cache.NamespaceIndex: cache.MetaNamespaceIndexFunc,
		"color":              func(obj any) ([]string, error) { return []string{obj.(*adapt.Widget).Spec.Color}, nil },
		"tags":               func(obj any) ([]string, error) { return obj.(*adapt.Widget).Spec.Tags, nil },
	}
}

// indexAnswers is everything asked of an indexer after one step, sorted
// where the libraries promise no order.
type indexAnswers struct {
	Keys       []string
	List       []adapt.Summary
	Values     map[string][]string // ListIndexFuncValues per index
	IndexKeys  map[string][]string // "index=value" -> keys, or "error"
	ByIndex    map[string][]adapt.Summary
	IndexProbe map[string][]string // Index(name, probe) -> keys
}

func sortSummaries(s []adapt.Summary) []adapt.Summary {
	slices.SortFunc(s, func(a, b adapt.Summary) int { return cmpString(a.Key, b.Key) })
	return s
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// askKS queries a kitchensync indexer. probe is an object whose index
// values feed Index.
func askKS(x *store.Indexer[*apiservertest.Widget], probe ops.Object) indexAnswers {
	a := indexAnswers{Values: map[string][]string{}, IndexKeys: map[string][]string{}, ByIndex: map[string][]adapt.Summary{}, IndexProbe: map[string][]string{}}
	a.Keys = x.ListKeys()
	slices.Sort(a.Keys)
	for _, w := range x.List() {
		a.List = append(a.List, adapt.SummarizeKS(w))
	}
	sortSummaries(a.List)
	for _, name := range indexNames {
		a.Values[name] = x.ListIndexFuncValues(name)
		slices.Sort(a.Values[name])
		for _, v := range indexValues {
			q := name + "=" + v
			keys, err := x.IndexKeys(name, v)
			a.IndexKeys[q] = sortedOrError(keys, err)
			objs, err := x.ByIndex(name, v)
			if err != nil {
				a.ByIndex[q] = []adapt.Summary{{Key: "error"}}
				continue
			}
			for _, w := range objs {
				a.ByIndex[q] = append(a.ByIndex[q], adapt.SummarizeKS(w))
			}
			sortSummaries(a.ByIndex[q])
		}
		objs, err := x.Index(name, adapt.KS(probe))
		var keys []string
		for _, w := range objs {
			keys = append(keys, adapt.SummarizeKS(w).Key)
		}
		a.IndexProbe[name] = sortedOrError(keys, err)
	}
	return a
}

// askCG queries a client-go indexer the same way.
func askCG(x cache.Indexer, probe ops.Object) indexAnswers {
	a := indexAnswers{Values: map[string][]string{}, IndexKeys: map[string][]string{}, ByIndex: map[string][]adapt.Summary{}, IndexProbe: map[string][]string{}}
	a.Keys = x.ListKeys()
	slices.Sort(a.Keys)
	for _, w := range x.List() {
		a.List = append(a.List, adapt.SummarizeCG(w))
	}
	sortSummaries(a.List)
	for _, name := range indexNames {
		a.Values[name] = x.ListIndexFuncValues(name)
		slices.Sort(a.Values[name])
		for _, v := range indexValues {
			q := name + "=" + v
			keys, err := x.IndexKeys(name, v)
			a.IndexKeys[q] = sortedOrError(keys, err)
			objs, err := x.ByIndex(name, v)
			if err != nil {
				a.ByIndex[q] = []adapt.Summary{{Key: "error"}}
				continue
			}
			for _, w := range objs {
				a.ByIndex[q] = append(a.ByIndex[q], adapt.SummarizeCG(w))
			}
			sortSummaries(a.ByIndex[q])
		}
		objs, err := x.Index(name, adapt.CG(probe))
		var keys []string
		for _, w := range objs {
			keys = append(keys, adapt.SummarizeCG(w).Key)
		}
		a.IndexProbe[name] = sortedOrError(keys, err)
	}
	return a
}

func sortedOrError(keys []string, err error) []string {
	if err != nil {
		return []string{"error"}
	}
	keys = slices.Clone(keys)
	slices.Sort(keys)
	return keys
}

// TestIndexerMatchesClientGo applies the same Add/Update/Delete/Replace
// steps to both indexers and, after every step, asks both every question
// (ListKeys, List, ListIndexFuncValues, IndexKeys, ByIndex and Index for
// every index, including an unknown one); halfway through, both get an
// extra index (AddIndexers on a filled store). Answers are compared sorted:
// client-go returns them in map order, kitchensync sorted.
func TestIndexerMatchesClientGo(t *testing.T) {
	for seed := range seeds(t, 300) {
		r := rand.New(rand.NewPCG(seed, 13))
		seq := ops.IndexerOps(r, 60, 8)
		ks := store.NewIndexer(store.MetaNamespaceKeyFunc, ksIndexers())
		cg := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cgIndexers())
		for i, op := range seq {
			var errKS, errCG error
			switch op.Kind {
			case ops.IAdd:
				errKS, errCG = ks.Add(adapt.KS(op.Obj)), cg.Add(adapt.CG(op.Obj))
			case ops.IUpdate:
				errKS, errCG = ks.Update(adapt.KS(op.Obj)), cg.Update(adapt.CG(op.Obj))
			case ops.IDelete:
				errKS, errCG = ks.Delete(adapt.KS(op.Obj)), cg.Delete(adapt.CG(op.Obj))
			case ops.IReplace:
				var ksList []*apiservertest.Widget
				var cgList []any
				for _, o := range op.List {
					ksList, cgList = append(ksList, adapt.KS(o)), append(cgList, adapt.CG(o))
				}
				errKS, errCG = ks.Replace(ksList, fmt.Sprint(i)), cg.Replace(cgList, fmt.Sprint(i))
			}
			if (errKS != nil) != (errCG != nil) {
				t.Fatalf("seed %d step %d %s: error kitchensync %v, client-go %v", seed, i, op, errKS, errCG)
			}
			if i == len(seq)/2 {
				addFirstTagIndex(t, ks, cg)
			}
			probe := seq[r.IntN(len(seq))].Obj
			if diff := cmp.Diff(askCG(cg, probe), askKS(ks, probe)); diff != "" {
				t.Fatalf("seed %d step %d %s: answers differ (-client-go +kitchensync):\n%s\nsequence:\n%s", seed, i, op, diff, formatOps(seq))
			}
		}
	}
}

// addFirstTagIndex adds an index to both indexers once objects are stored
// (both file the stored objects at once), and checks that re-adding an
// existing index name fails in both.
func addFirstTagIndex(t *testing.T, ks *store.Indexer[*apiservertest.Widget], cg cache.Indexer) {
	t.Helper()
	errKS := ks.AddIndexers(store.Indexers[*apiservertest.Widget]{"firsttag": func(w *apiservertest.Widget) ([]string, error) {
		return w.Spec.Tags[:min(1, len(w.Spec.Tags))], nil
	}})
	errCG := cg.AddIndexers(cache.Indexers{"firsttag": func(obj any) ([]string, error) {
		tags := obj.(*adapt.Widget).Spec.Tags
		return tags[:min(1, len(tags))], nil
	}})
	if errKS != nil || errCG != nil {
		t.Fatalf("AddIndexers: kitchensync %v, client-go %v", errKS, errCG)
	}
	errKS = ks.AddIndexers(ksIndexers())
	errCG = cg.AddIndexers(cgIndexers())
	if errKS == nil || errCG == nil {
		t.Fatalf("AddIndexers of existing names: kitchensync %v, client-go %v (want errors from both)", errKS, errCG)
	}
}
