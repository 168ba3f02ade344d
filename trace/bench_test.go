package trace_test

import (
	"testing"

	"github.com/kitchensync/kitchensync/trace"
)

// loop emits one record per iteration as every emitter does, building the
// record only if heard. The guard is written inline, as at the emitters.
func loop(b *testing.B, tr *trace.Tracer) {
	for i := 0; b.Loop(); i++ {
		if tr.Enabled() {
			tr.Emit(trace.Record{Component: trace.Workqueue, Name: "orders", Action: trace.Added, Key: "default/table-7", Depth: i})
		}
	}
}

// BenchmarkEmit measures one hand-off: the loop alone, with a nil
// Tracer, with a Tracer nobody listens to, with one quick subscriber, and
// with a Feed that a reader drains. The first three should be equal.
func BenchmarkEmit(b *testing.B) {
	b.Run("baseline", func(b *testing.B) { // the loop alone, for comparison
		var n int
		for i := 0; b.Loop(); i++ {
			n += i
		}
		_ = n
	})
	b.Run("nil", func(b *testing.B) {
		var tr *trace.Tracer
		loop(b, tr)
	})
	b.Run("unheard", func(b *testing.B) {
		tr := trace.New()
		loop(b, tr)
	})
	b.Run("subscriber", func(b *testing.B) {
		tr := trace.New()
		var n int
		defer tr.Subscribe(func(r trace.Record) { n += r.Depth })()
		loop(b, tr)
	})
	b.Run("feed", func(b *testing.B) {
		tr := trace.New()
		feed := tr.Feed(1024)
		done := make(chan struct{})
		go func() {
			for range feed.C {
			}
			close(done)
		}()
		loop(b, tr)
		feed.Close()
		<-done
		b.ReportMetric(float64(feed.Dropped())/float64(b.N), "dropped/op")
	})
}
