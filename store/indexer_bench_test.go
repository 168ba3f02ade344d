package store

import (
	"fmt"
	"runtime"
	"testing"
)

// benchWidgets makes n widgets in 100 namespaces with 10 colors.
func benchWidgets(n int) []*widget {
	out := make([]*widget, n)
	for i := range out {
		out[i] = newWidget(fmt.Sprintf("ns-%d", i%100), fmt.Sprintf("w-%d", i), fmt.Sprintf("color-%d", i%10))
	}
	return out
}

func heapAlloc() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkIndexerAdd adds 100,000 widgets to an Indexer with two indexes
// (color, namespace) per iteration, and reports the Indexer's own heap
// bytes per object (the objects themselves are made beforehand).
func BenchmarkIndexerAdd(b *testing.B) {
	const n = 100_000
	objs := benchWidgets(n)
	idx := Indexers[*widget]{"color": colorIndex, NamespaceIndex: MetaNamespaceIndexFunc[*widget]}
	var bytesPerObj float64
	for b.Loop() {
		b.StopTimer()
		before := heapAlloc()
		b.StartTimer()
		x := NewIndexer(nil, idx)
		for _, o := range objs {
			if err := x.Add(o); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		bytesPerObj = float64(heapAlloc()-before) / n
		runtime.KeepAlive(x)
		b.StartTimer()
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "objects/s")
	b.ReportMetric(bytesPerObj, "B/object")
}

// BenchmarkIndexerByIndex asks for one namespace's 1,000 widgets in a
// store of 100,000.
func BenchmarkIndexerByIndex(b *testing.B) {
	x := NewIndexer(nil, Indexers[*widget]{"color": colorIndex, NamespaceIndex: MetaNamespaceIndexFunc[*widget]})
	if err := x.Replace(benchWidgets(100_000), "1"); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		got, err := x.ByIndex(NamespaceIndex, "ns-42")
		if err != nil || len(got) != 1000 {
			b.Fatalf("got %d, %v", len(got), err)
		}
	}
	b.ReportMetric(float64(1000*b.N)/b.Elapsed().Seconds(), "objects/s")
}
