package informer

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/store"
)

const dfBenchN = 100_000

func dfBenchWidgets(n int) []*dfWidget {
	out := make([]*dfWidget, n)
	for i := range out {
		out[i] = dfW(fmt.Sprintf("ns-%d/w-%d", i%100, i), i)
	}
	return out
}

func dfHeapAlloc() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkDeltaFIFOAddPop adds 100,000 objects to a DeltaFIFO, then pops
// them all, per iteration.
func BenchmarkDeltaFIFOAddPop(b *testing.B) {
	ws := dfBenchWidgets(dfBenchN)
	ctx := b.Context()
	noop := func(string, Deltas[*dfWidget], bool) error { return nil }
	for b.Loop() {
		f := NewDeltaFIFO(DeltaFIFOOptions[*dfWidget]{})
		for _, o := range ws {
			if err := f.Add(o); err != nil {
				b.Fatal(err)
			}
		}
		for range dfBenchN {
			if _, err := f.Pop(ctx, noop); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(dfBenchN*b.N)/b.Elapsed().Seconds(), "objects/s")
}

// BenchmarkDeltaFIFOReplace relists 100,000 cached objects of which 10%
// are gone: 90,000 Replaced deltas and 10,000 tombstones per iteration.
// B/object is the FIFO's heap growth per cached object.
func BenchmarkDeltaFIFOReplace(b *testing.B) {
	ws := dfBenchWidgets(dfBenchN)
	cache := store.NewIndexer[*dfWidget](nil, nil)
	if err := cache.Replace(ws, "1"); err != nil {
		b.Fatal(err)
	}
	var list []meta.Object
	for i, o := range ws {
		if i%10 != 0 {
			list = append(list, o)
		}
	}
	var bytesPerObj float64
	for b.Loop() {
		b.StopTimer()
		f := NewDeltaFIFO(DeltaFIFOOptions[*dfWidget]{KnownObjects: cache})
		before := dfHeapAlloc()
		b.StartTimer()
		if err := f.Replace(list, "2"); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if f.Len() != dfBenchN {
			b.Fatalf("queued %d, want %d", f.Len(), dfBenchN)
		}
		bytesPerObj = float64(dfHeapAlloc()-before) / dfBenchN
		runtime.KeepAlive(f)
		b.StartTimer()
	}
	b.ReportMetric(float64(dfBenchN*b.N)/b.Elapsed().Seconds(), "objects/s")
	b.ReportMetric(bytesPerObj, "B/object")
}
