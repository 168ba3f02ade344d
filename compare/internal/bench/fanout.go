package bench

import (
	"context"
	"sync"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
)

// The fan-out workload: one writer, n watchers that each receive every
// event. There is no client-go counterpart (client-go has no server), so
// the reference column is the floor: the same fan-out over bare buffered
// channels, one pointer per event sent to every reader's channel. The
// kitchensync side updates one object b.N times through the apiserver,
// every watcher reading each event (selectors checked, the object
// shared). Reported: ns per event (all watchers), events/s delivered.

func fanOutKS(watchers int) func(*testing.B) {
	return func(b *testing.B) {
		ctx := context.Background()
		srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{WatchBufferSize: b.N + 1, HistorySize: b.N + 1})
		widgets := apiserver.NewClient[*apiservertest.Widget](srv).Namespace("ns")
		w, err := widgets.Create(ctx, apiservertest.NewWidget("ns", "w"), apiserver.CreateOptions{})
		if err != nil {
			b.Fatal(err)
		}
		var wg sync.WaitGroup
		for range watchers {
			wi, err := widgets.Watch(ctx, apiserver.ListOptions{ResourceVersion: w.ResourceVersion})
			if err != nil {
				b.Fatal(err)
			}
			wg.Go(func() {
				n := 0
				for range wi.ResultChan() {
					if n++; n == b.N {
						wi.Stop()
					}
				}
			})
		}
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			w.Spec.Size++
			if w, err = widgets.Update(ctx, w, apiserver.UpdateOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		wg.Wait()
		b.StopTimer()
		b.ReportMetric(float64(b.N*watchers)/b.Elapsed().Seconds(), "events/s")
	}
}

func fanOutBare(readers int) func(*testing.B) {
	return func(b *testing.B) {
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
		b.ReportAllocs()
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
}
