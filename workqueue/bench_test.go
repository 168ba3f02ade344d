package workqueue

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/kitchensync/kitchensync/trace"
)

const benchKeys = 10_000

// worker is the shape of a queue's consumer side.
type worker[T any] interface {
	Get() (T, bool)
	Done(T)
}

// startWorkers runs n workers that Get and Done until shutdown.
func startWorkers[T any](q worker[T], n int) *sync.WaitGroup {
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			for {
				item, shutdown := q.Get()
				if shutdown {
					return
				}
				q.Done(item)
			}
		})
	}
	return &wg
}

// produce splits b.N adds over producers; producer p adds keys in a stride
// that revisits each of the benchKeys keys, so adds collapse and re-add
// while processing.
func produce(b *testing.B, producers int, add func(op, key int)) {
	var wg sync.WaitGroup
	for p := range producers {
		wg.Go(func() {
			for i := p; i < b.N; i += producers {
				add(i, (i*7919)%benchKeys)
			}
		})
	}
	wg.Wait()
}

func reportItems(b *testing.B) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "items/s")
}

// BenchmarkQueue measures Add/Get/Done with 1, 4 and 16 producers against
// 2 workers over 10,000 keys. One op is one Add.
func BenchmarkQueue(b *testing.B) {
	for _, producers := range []int{1, 4, 16} {
		b.Run(fmt.Sprintf("producers=%d", producers), func(b *testing.B) {
			q := New[int]()
			workers := startWorkers[int](q, 2)
			b.ReportAllocs()
			b.ResetTimer()
			produce(b, producers, func(_, key int) { q.Add(key) })
			q.ShutDownWithDrain()
			workers.Wait()
			reportItems(b)
		})
	}
}

// BenchmarkPriorityQueue is BenchmarkQueue for the priority queue with
// three priorities.
func BenchmarkPriorityQueue(b *testing.B) {
	priorities := []int{0, 1, 2}
	opts := []AddOpts{{Priority: &priorities[0]}, {Priority: &priorities[1]}, {Priority: &priorities[2]}}
	for _, producers := range []int{1, 4, 16} {
		b.Run(fmt.Sprintf("producers=%d", producers), func(b *testing.B) {
			q := NewPriorityQueue[int](nil, QueueConfig{})
			workers := startWorkers[int](q, 2)
			b.ReportAllocs()
			b.ResetTimer()
			produce(b, producers, func(op, key int) { q.AddWithOpts(opts[op%3], key) })
			q.ShutDownWithDrain()
			workers.Wait()
			reportItems(b)
		})
	}
}

// BenchmarkAddAfter measures AddAfter while 100,000 items are pending.
// "earlier" moves a pending item's ready time earlier (a heap fix);
// "due" adds items that are due at once, through the timer goroutine to a
// worker, while the 100,000 others keep waiting.
func BenchmarkAddAfter(b *testing.B) {
	const pending = 100_000
	setup := func() *DelayingQueue[int] {
		q := NewDelaying[int]()
		for i := range pending {
			q.AddAfter(i, time.Hour+time.Duration(i)*time.Millisecond)
		}
		return q
	}
	b.Run("earlier", func(b *testing.B) {
		q := setup()
		defer q.ShutDown()
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			q.AddAfter(i%pending, time.Hour-time.Duration(i)*time.Nanosecond)
		}
		reportItems(b)
	})
	b.Run("due", func(b *testing.B) {
		q := setup()
		workers := startWorkers[int](q, 2)
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			q.AddAfter(pending+i%benchKeys, time.Nanosecond)
		}
		q.ShutDown()
		workers.Wait()
		reportItems(b)
	})
}

// BenchmarkAddRateLimitedForget measures a failure (AddRateLimited with the
// default controller limiter) followed by a success (Forget), over 10,000
// keys, with 2 workers draining the queue.
func BenchmarkAddRateLimitedForget(b *testing.B) {
	q := NewRateLimiting[int](nil, QueueConfig{})
	workers := startWorkers[int](q, 2)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		key := (i * 7919) % benchKeys
		q.AddRateLimited(key)
		q.Forget(key)
	}
	q.ShutDown()
	workers.Wait()
	reportItems(b)
}

// BenchmarkTraceCost runs one Add, Get and Done of a PriorityQueue from a
// single goroutine (no contention, so the trace's share is as large as it
// gets): without a tracer, with a tracer nobody listens to (should be
// within noise of the first), and with a subscriber (three records per
// op).
func BenchmarkTraceCost(b *testing.B) {
	heard := trace.New()
	n := 0
	defer heard.Subscribe(func(trace.Record) { n++ })()
	for _, bc := range []struct {
		name string
		tr   *trace.Tracer
	}{{"nil", nil}, {"unheard", trace.New()}, {"heard", heard}} {
		b.Run(bc.name, func(b *testing.B) {
			q := NewPriorityQueue[int](nil, QueueConfig{Name: "bench", Tracer: bc.tr})
			defer q.ShutDown()
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				q.Add(i & 1023)
				item, _ := q.Get()
				q.Done(item)
			}
		})
	}
}
