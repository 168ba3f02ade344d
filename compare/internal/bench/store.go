package bench

import (
	"context"
	"strconv"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/store"
	"k8s.io/client-go/tools/cache"

	"github.com/kitchensync/kitchensync/compare/internal/adapt"
	"github.com/kitchensync/kitchensync/compare/internal/ops"
)

type widget = apiservertest.Widget

// objects returns n objects spread over 100 namespaces and 3 colors, as
// both libraries' types (same data).
func objects(n int) ([]*widget, []*adapt.Widget) {
	colors := []string{"red", "green", "blue"}
	ks, cg := make([]*widget, n), make([]*adapt.Widget, n)
	for i := range n {
		o := ops.Object{Namespace: "ns-" + strconv.Itoa(i%100), Name: "w-" + strconv.Itoa(i), RV: i + 1, Color: colors[i%3]}
		ks[i], cg[i] = adapt.KS(o), adapt.CG(o)
	}
	return ks, cg
}

func perObject(b *testing.B, n int) {
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "objects/s")
}

// fifoAddPop adds Scale objects (distinct keys) to a new DeltaFIFO and
// pops them all.
func fifoAddPopKS(b *testing.B) {
	objs, _ := objects(Scale)
	b.ReportAllocs()
	for b.Loop() {
		f := informer.NewDeltaFIFO(informer.DeltaFIFOOptions[*widget]{})
		for _, o := range objs {
			_ = f.Add(o)
		}
		for range objs {
			_, _ = f.Pop(context.Background(), nil)
		}
	}
	perObject(b, Scale)
}

func fifoAddPopCG(b *testing.B) {
	_, objs := objects(Scale)
	b.ReportAllocs()
	noop := func(any, bool) error { return nil }
	for b.Loop() {
		f := cache.NewDeltaFIFOWithOptions(cache.DeltaFIFOOptions{EmitDeltaTypeReplaced: true})
		for _, o := range objs {
			_ = f.Add(o)
		}
		for range objs {
			_, _ = f.Pop(noop)
		}
	}
	perObject(b, Scale)
}

// fifoReplace calls Replace with Scale objects on a new DeltaFIFO whose
// known objects (an empty indexer) are consulted for tombstones.
func fifoReplaceKS(b *testing.B) {
	objs, _ := objects(Scale)
	list := make([]meta.Object, len(objs))
	for i, o := range objs {
		list[i] = o
	}
	b.ReportAllocs()
	for b.Loop() {
		known := store.NewIndexer[*widget](store.MetaNamespaceKeyFunc, nil)
		f := informer.NewDeltaFIFO(informer.DeltaFIFOOptions[*widget]{KnownObjects: known})
		_ = f.Replace(list, "1")
	}
	perObject(b, Scale)
}

func fifoReplaceCG(b *testing.B) {
	_, objs := objects(Scale)
	list := make([]any, len(objs))
	for i, o := range objs {
		list[i] = o
	}
	b.ReportAllocs()
	for b.Loop() {
		known := cache.NewIndexer(cache.DeletionHandlingMetaNamespaceKeyFunc, cache.Indexers{})
		f := cache.NewDeltaFIFOWithOptions(cache.DeltaFIFOOptions{KnownObjects: known, EmitDeltaTypeReplaced: true})
		_ = f.Replace(list, "1")
	}
	perObject(b, Scale)
}

func ksIndexers() store.Indexers[*widget] {
	return store.Indexers[*widget]{
		store.NamespaceIndex: store.MetaNamespaceIndexFunc[*widget],
		"color":              func(w *widget) ([]string, error) { return []string{w.Spec.Color}, nil },
	}
}

func cgIndexers() cache.Indexers {
	return cache.Indexers{
		cache.NamespaceIndex: cache.MetaNamespaceIndexFunc,
		"color":              func(obj any) ([]string, error) { return []string{obj.(*adapt.Widget).Spec.Color}, nil },
	}
}

// indexerAdd adds Scale objects to a new indexer with two indexes
// (namespace and color).
func indexerAddKS(b *testing.B) {
	objs, _ := objects(Scale)
	b.ReportAllocs()
	for b.Loop() {
		x := store.NewIndexer(store.MetaNamespaceKeyFunc, ksIndexers())
		for _, o := range objs {
			_ = x.Add(o)
		}
	}
	perObject(b, Scale)
}

func indexerAddCG(b *testing.B) {
	_, objs := objects(Scale)
	b.ReportAllocs()
	for b.Loop() {
		x := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cgIndexers())
		for _, o := range objs {
			_ = x.Add(o)
		}
	}
	perObject(b, Scale)
}

// byIndex asks an indexer of Scale objects for one namespace's objects
// (Scale/100 of them) per op.
func byIndexKS(b *testing.B) {
	objs, _ := objects(Scale)
	x := store.NewIndexer(store.MetaNamespaceKeyFunc, ksIndexers())
	for _, o := range objs {
		_ = x.Add(o)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		_, _ = x.ByIndex(store.NamespaceIndex, "ns-"+strconv.Itoa(i%100))
		i++
	}
}

func byIndexCG(b *testing.B) {
	_, objs := objects(Scale)
	x := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cgIndexers())
	for _, o := range objs {
		_ = x.Add(o)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		_, _ = x.ByIndex(cache.NamespaceIndex, "ns-"+strconv.Itoa(i%100))
		i++
	}
}
