package bench

import (
	"context"
	"fmt"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/store"
	"k8s.io/client-go/tools/cache"
)

// The RealFIFO rows: the DeltaFIFO rows' workloads on the queue informers
// use by default in both libraries — a RealFIFO with atomic events,
// unlocked processing and bookmark deltas (client-go v0.37's AtomicFIFO,
// UnlockWhileProcessingFIFO and EmitDeltaTypeBookmark).

func newAtomicKS() *informer.RealFIFO[*widget] {
	return informer.NewRealFIFO(informer.RealFIFOOptions[*widget]{AtomicEvents: true, UnlockWhileProcessing: true})
}

func newAtomicCG() *cache.RealFIFO {
	return cache.NewRealFIFOWithOptions(cache.RealFIFOOptions{AtomicEvents: true, UnlockWhileProcessing: true, EmitDeltaTypeBookmark: true})
}

// realFIFOAddPop adds Scale objects (distinct keys) to a new atomic
// RealFIFO and pops them all, one Pop each.
func realFIFOAddPopKS(b *testing.B) {
	objs, _ := objects(Scale)
	b.ReportAllocs()
	for b.Loop() {
		f := newAtomicKS()
		for _, o := range objs {
			_ = f.Add(o)
		}
		for range objs {
			_, _ = f.Pop(context.Background(), nil)
		}
	}
	perObject(b, Scale)
}

func realFIFOAddPopCG(b *testing.B) {
	_, objs := objects(Scale)
	b.ReportAllocs()
	noop := func(any, bool) error { return nil }
	for b.Loop() {
		f := newAtomicCG()
		for _, o := range objs {
			_ = f.Add(o)
		}
		for range objs {
			_, _ = f.Pop(noop)
		}
	}
	perObject(b, Scale)
}

// realFIFOReplacePop calls Replace with Scale objects on a new atomic
// RealFIFO, then Pops the one entry the list becomes (ReplacedAll) and
// applies it to an empty indexer with a namespace index, as each
// library's informer does with a list: the whole of a list's way from the
// reflector to the cache, without handlers. (Replace alone is not the
// same work on both sides: client-go only queues the list and keys it
// when the informer processes it; kitchensync keys and checks every
// object in Replace, so that a list with an object it cannot key fails
// where it is read.)
//
// kitchensync's side applies the list with Indexer.Replace, which keys
// the objects again; its informer hands the indexer the keys the FIFO
// made (ReplaceByKeys, not exported through the FIFO), so the row charges
// kitchensync one keying per object that its informer does not pay.
func realFIFOReplacePopKS(b *testing.B) {
	objs, _ := objects(Scale)
	list := make([]meta.Object, len(objs))
	for i, o := range objs {
		list[i] = o
	}
	b.ReportAllocs()
	for b.Loop() {
		f := newAtomicKS()
		x := store.NewIndexer(store.MetaNamespaceKeyFunc, store.Indexers[*widget]{store.NamespaceIndex: store.MetaNamespaceIndexFunc[*widget]})
		_ = f.Replace(list, "1")
		_, err := f.Pop(context.Background(), func(_ string, deltas informer.Deltas[*widget], _ bool) error {
			d := deltas.Newest()
			if d.Type != informer.ReplacedAll {
				return fmt.Errorf("popped %s, want ReplacedAll", d.Type)
			}
			return x.Replace(d.Info.Objects, d.Info.ResourceVersion)
		})
		if err != nil || x.Len() != Scale {
			b.Fatalf("Pop: %v; %d cached, want %d", err, x.Len(), Scale)
		}
	}
	perObject(b, Scale)
}

func realFIFOReplacePopCG(b *testing.B) {
	_, objs := objects(Scale)
	list := make([]any, len(objs))
	for i, o := range objs {
		list[i] = o
	}
	b.ReportAllocs()
	for b.Loop() {
		f := newAtomicCG()
		indexer := cache.NewIndexer(cache.DeletionHandlingMetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
		_ = f.Replace(list, "1")
		_, err := f.Pop(func(obj any, _ bool) error {
			deltas, ok := obj.(cache.Deltas)
			if !ok || len(deltas) != 1 || deltas[0].Type != cache.ReplacedAll {
				return fmt.Errorf("popped %#v, want one ReplacedAll", obj)
			}
			return applyReplacedAllCG(indexer, deltas[0].Object.(cache.ReplacedAllInfo))
		})
		if err != nil || len(indexer.ListKeys()) != Scale {
			b.Fatalf("Pop: %v; %d cached, want %d", err, len(indexer.ListKeys()), Scale)
		}
	}
	perObject(b, Scale)
}

// applyReplacedAllCG does to indexer what client-go's informer does with
// a ReplacedAll (processReplacedAllInfo, not exported) when nobody
// listens: it keys the list and looks for cached objects the list lacks
// (reconcileReplacement), reads each listed object's cached state, to
// tell OnUpdate from OnAdd, then replaces the store's content.
func applyReplacedAllCG(indexer cache.Indexer, info cache.ReplacedAllInfo) error {
	listed := make(map[string]struct{}, len(info.Objects))
	for _, obj := range info.Objects {
		key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
		if err != nil {
			return err
		}
		listed[key] = struct{}{}
	}
	for _, key := range indexer.ListKeys() {
		if _, ok := listed[key]; !ok {
			_, _, _ = indexer.GetByKey(key) // a tombstone's last state
		}
	}
	for _, obj := range info.Objects {
		_, _, _ = indexer.Get(obj)
	}
	return indexer.Replace(info.Objects, info.ResourceVersion)
}
