package trace_test

import (
	"testing"

	"github.com/kitchensync/kitchensync/trace"
)

// emit is what every emitter does: build the record only if heard.
func emit(tr *trace.Tracer, key string, depth int) {
	if tr.Enabled() {
		tr.Emit(trace.Record{Component: trace.Workqueue, Name: "orders", Action: trace.Added, Key: key, Depth: depth})
	}
}

// BenchmarkEmit measures one hand-off: with a nil Tracer, with a Tracer
// nobody listens to, with one quick subscriber, and with a Feed that a
// reader drains.
func BenchmarkEmit(b *testing.B) {
	b.Run("nil", func(b *testing.B) {
		var tr *trace.Tracer
		for i := 0; b.Loop(); i++ {
			emit(tr, "default/table-7", i)
		}
	})
	b.Run("unheard", func(b *testing.B) {
		tr := trace.New()
		for i := 0; b.Loop(); i++ {
			emit(tr, "default/table-7", i)
		}
	})
	b.Run("subscriber", func(b *testing.B) {
		tr := trace.New()
		var n int
		defer tr.Subscribe(func(r trace.Record) { n += r.Depth })()
		for i := 0; b.Loop(); i++ {
			emit(tr, "default/table-7", i)
		}
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
		for i := 0; b.Loop(); i++ {
			emit(tr, "default/table-7", i)
		}
		feed.Close()
		<-done
		b.ReportMetric(float64(feed.Dropped())/float64(b.N), "dropped/op")
	})
}
