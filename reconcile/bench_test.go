package reconcile_test

import (
	"context"
	"fmt"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kitchensync/kitchensync/reconcile"
)

// BenchmarkControllerThroughput measures the controller's own overhead:
// b.N distinct keys through the default priority queue to a reconciler
// that does nothing.
func BenchmarkControllerThroughput(b *testing.B) {
	for _, workers := range []int{1, 4} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			reqs := make([]reconcile.Request, b.N)
			for i := range reqs {
				reqs[i] = reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "bench", Name: strconv.Itoa(i)}}
			}
			var n atomic.Int64
			done := make(chan struct{})
			r := reconcile.ReconcilerFunc(func(context.Context, reconcile.Request) (reconcile.Result, error) {
				if n.Add(1) == int64(b.N) {
					close(done)
				}
				return reconcile.Result{}, nil
			})
			c, err := reconcile.NewController("bench", r, reconcile.Options{MaxConcurrentReconciles: workers})
			if err != nil {
				b.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			errc := make(chan error, 1)
			go func() { errc <- c.Start(ctx) }()
			b.ReportAllocs()
			b.ResetTimer()
			start := time.Now()
			for _, req := range reqs {
				c.Queue().Add(req)
			}
			<-done
			elapsed := time.Since(start)
			b.StopTimer()
			cancel()
			if err := <-errc; err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "reconciles/s")
		})
	}
}
