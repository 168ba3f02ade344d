package apiservertest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// FanOutChannelSize is the capacity of each reader's channel in
// [BenchmarkBareFanOut]: that of a watch's channel.
const FanOutChannelSize = 128

// BenchmarkFanOut measures the server's watch fan-out: one writer makes
// b.N updates of one [Widget] while each of watchers watches receive
// every one of them. It reports events delivered per second, across all
// watchers. The history and watch buffer are big enough that no watcher
// is cut off: this measures throughput, not the slow-watcher policy.
//
// [BenchmarkBareFanOut] is its floor, with the same readers; the
// apiserver's benchmarks and the compare module's side-by-side table
// both run the two.
func BenchmarkFanOut(b *testing.B, watchers int) {
	ctx := context.Background()
	srv := apiserver.NewServer(NewScheme(), apiserver.Options{WatchBufferSize: b.N + 1, HistorySize: b.N + 1})
	widgets := client.New[*Widget](srv).Namespace("ns")
	w, err := widgets.Create(ctx, NewWidget("ns", "w"), meta.CreateOptions{})
	if err != nil {
		b.Fatal(err)
	}
	var wg sync.WaitGroup
	delivered := make([]int, watchers)
	for i := range watchers {
		wi, err := widgets.Watch(ctx, meta.ListOptions{ResourceVersion: w.ResourceVersion})
		if err != nil {
			b.Fatal(err)
		}
		wg.Go(func() { delivered[i] = readFanOut(wi.ResultChan(), b.N, wi.Stop) })
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := ProcessCPU()
	for range b.N {
		w.Spec.Size++
		if w, err = widgets.Update(ctx, w, meta.UpdateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	wg.Wait()
	b.StopTimer()
	reportFanOut(b, delivered, ProcessCPU()-cpu)
}

// BenchmarkBareFanOut is the floor for [BenchmarkFanOut]: one writer
// sends the same event b.N times to each of readers buffered channels
// ([FanOutChannelSize]), waiting whenever one is full; each reader does
// what a watcher's reader does in [BenchmarkFanOut].
func BenchmarkBareFanOut(b *testing.B, readers int) {
	ev := meta.Event{Type: meta.EventModified, Object: NewWidget("ns", "w")}
	chans := make([]chan meta.Event, readers)
	var wg sync.WaitGroup
	delivered := make([]int, readers)
	for i := range chans {
		chans[i] = make(chan meta.Event, FanOutChannelSize)
		wg.Go(func() { delivered[i] = readFanOut(chans[i], b.N, nil) })
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := ProcessCPU()
	for range b.N {
		for _, ch := range chans {
			ch <- ev
		}
	}
	for _, ch := range chans {
		close(ch)
	}
	wg.Wait()
	b.StopTimer()
	reportFanOut(b, delivered, ProcessCPU()-cpu)
}

// readFanOut is a reader of the fan-out benchmarks: it counts the events
// until the channel closes, calling stop (if not nil) at the want-th.
func readFanOut(ch <-chan meta.Event, want int, stop func()) int {
	n := 0
	for range ch {
		if n++; n == want && stop != nil {
			stop()
		}
	}
	return n
}

// reportFanOut checks that every reader got every event and reports
// events/s, and cpu-ns/event: the process's CPU time (writer, fan-out,
// readers, garbage collector) per event delivered, which, unlike a rate,
// hardly depends on what else the machine runs.
func reportFanOut(b *testing.B, delivered []int, cpu time.Duration) {
	total := 0
	for _, n := range delivered {
		total += n
	}
	if total != b.N*len(delivered) {
		b.Fatalf("delivered %d events, want %d", total, b.N*len(delivered))
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(cpu)/float64(total), "cpu-ns/event")
}
