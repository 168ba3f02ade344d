package bench

import (
	"context"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
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

// realFIFOReplace calls Replace with Scale objects on a new atomic
// RealFIFO. It is not the same work on both sides: client-go queues the
// list as it is and keys each object only when the informer processes
// it; kitchensync checks and keys every object in Replace, so that a
// list with an object it cannot key fails where it is read, and the
// informer does not key them again. InformerEndToEnd100k has both
// halves on both sides.
func realFIFOReplaceKS(b *testing.B) {
	objs, _ := objects(Scale)
	list := make([]meta.Object, len(objs))
	for i, o := range objs {
		list[i] = o
	}
	b.ReportAllocs()
	for b.Loop() {
		f := newAtomicKS()
		_ = f.Replace(list, "1")
	}
	perObject(b, Scale)
}

func realFIFOReplaceCG(b *testing.B) {
	_, objs := objects(Scale)
	list := make([]any, len(objs))
	for i, o := range objs {
		list[i] = o
	}
	b.ReportAllocs()
	for b.Loop() {
		f := newAtomicCG()
		_ = f.Replace(list, "1")
	}
	perObject(b, Scale)
}
