package apiserver_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
)

func BenchmarkCreate(b *testing.B) {
	ctx := context.Background()
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{})
	widgets := apiserver.NewClient[*apiservertest.Widget](srv).Namespace("ns")
	w := apiservertest.NewWidget("ns", "")
	w.Labels = map[string]string{"app": "bench"}
	w.Spec = apiservertest.WidgetSpec{Color: "red", Size: 3, Tags: []string{"a", "b"}}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		w.Name = fmt.Sprintf("w-%d", i)
		i++
		if _, err := widgets.Create(ctx, w, apiserver.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "objects/s")
}

func BenchmarkUpdate(b *testing.B) {
	ctx := context.Background()
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{})
	widgets := apiserver.NewClient[*apiservertest.Widget](srv).Namespace("ns")
	w := apiservertest.NewWidget("ns", "w")
	w.Spec = apiservertest.WidgetSpec{Color: "red", Tags: []string{"a", "b"}}
	w, err := widgets.Create(ctx, w, apiserver.CreateOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		w.Spec.Size++
		if w, err = widgets.Update(ctx, w, apiserver.UpdateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "objects/s")
}

// BenchmarkWatchFanOut compares the server's fan-out with the same
// fan-out over bare buffered channels (one writer sending one pointer per
// event to every reader's channel), in one run: compare the two rows'
// events/s.
func BenchmarkWatchFanOut(b *testing.B) {
	for _, watchers := range []int{100, 1000} {
		b.Run(fmt.Sprintf("watchers=%d", watchers), func(b *testing.B) {
			b.Run("kitchensync", func(b *testing.B) { benchmarkFanOut(b, watchers) })
			b.Run("bare-channels", func(b *testing.B) { benchmarkBareFanOut(b, watchers) })
		})
	}
}

// benchmarkBareFanOut is the floor for benchmarkFanOut: one writer sends
// b.N pointers to each of the readers' buffered channels.
func benchmarkBareFanOut(b *testing.B, readers int) {
	obj := apiservertest.NewWidget("ns", "w")
	chans := make([]chan apiserver.Event, readers)
	var wg sync.WaitGroup
	for i := range chans {
		chans[i] = make(chan apiserver.Event, 128)
		wg.Go(func() {
			for range chans[i] {
			}
		})
	}
	b.ResetTimer()
	for range b.N {
		for _, ch := range chans {
			ch <- apiserver.Event{Type: apiserver.EventModified, Object: obj}
		}
	}
	for _, ch := range chans {
		close(ch)
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(b.N*readers)/b.Elapsed().Seconds(), "events/s")
}

// benchmarkFanOut has one writer make b.N updates while every watcher
// receives each of them; it reports events delivered per
// second across all watchers. The buffers are big enough that nobody is
// cut off: this measures throughput, not the slow-watcher policy.
func benchmarkFanOut(b *testing.B, watchers int) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{WatchBufferSize: b.N + 1, HistorySize: b.N + 1})
	widgets := apiserver.NewClient[*apiservertest.Widget](srv).Namespace("ns")
	w, err := widgets.Create(ctx, apiservertest.NewWidget("ns", "w"), apiserver.CreateOptions{})
	if err != nil {
		b.Fatal(err)
	}
	var wg sync.WaitGroup
	delivered := make([]int, watchers)
	for i := range watchers {
		wi, err := widgets.Watch(ctx, apiserver.ListOptions{ResourceVersion: w.ResourceVersion})
		if err != nil {
			b.Fatal(err)
		}
		wg.Go(func() {
			for range wi.ResultChan() {
				if delivered[i]++; delivered[i] == b.N {
					wi.Stop()
				}
			}
		})
	}
	b.ResetTimer()
	for range b.N {
		w.Spec.Size++
		if w, err = widgets.Update(ctx, w, apiserver.UpdateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	wg.Wait()
	b.StopTimer()
	total := 0
	for _, n := range delivered {
		total += n
	}
	if total != b.N*watchers {
		b.Fatalf("delivered %d events, want %d", total, b.N*watchers)
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "events/s")
}
