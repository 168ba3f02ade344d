package informer

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/trace"
)

// countingHandler closes done once it has seen want adds, and then again
// (on the second channel) want updates.
type countingHandler struct {
	want              int64
	adds, updates     atomic.Int64
	addsDone, updDone chan struct{}
}

func (h *countingHandler) OnAdd(*widget, bool) {
	if h.adds.Add(1) == h.want {
		close(h.addsDone)
	}
}
func (h *countingHandler) OnUpdate(_, _ *widget) {
	if h.updates.Add(1) == h.want {
		close(h.updDone)
	}
}
func (h *countingHandler) OnDelete(*widget, bool) {}

// BenchmarkInformerEndToEnd creates 100,000 objects on the apiserver and
// waits until a handler has received every OnAdd, then updates each once
// and waits for every OnUpdate. It reports the objects (creates plus
// updates) per second through the whole pipeline, the allocations per
// object (server and informer together), and the heap the informer holds
// per cached object (cache, indexes and queues; the server's own copy not
// counted).
func BenchmarkInformerEndToEnd(b *testing.B) { benchEndToEnd(b, nil) }

// BenchmarkInformerEndToEndTraced is [BenchmarkInformerEndToEnd] with a
// Tracer given to the server and the informer: "unheard" has no
// subscriber (the cost of a silent trace, which should be within noise of
// the untraced run), "feed" has a Feed drained by a goroutine (what a live
// view costs; records that do not fit its buffer are dropped and counted).
func BenchmarkInformerEndToEndTraced(b *testing.B) {
	b.Run("unheard", func(b *testing.B) { benchEndToEnd(b, trace.New()) })
	b.Run("feed", func(b *testing.B) {
		tr := trace.New()
		feed := tr.Feed(4096)
		drained := make(chan int)
		go func() {
			n := 0
			for range feed.C {
				n++
			}
			drained <- n
		}()
		benchEndToEnd(b, tr)
		feed.Close()
		got := <-drained
		b.ReportMetric(float64(got)/float64(b.N), "records/op")
		b.ReportMetric(float64(feed.Dropped())/float64(b.N), "dropped/op")
	})
}

func benchEndToEnd(b *testing.B, tr *trace.Tracer) {
	const n = 100_000
	var elapsed time.Duration
	var mallocs, cacheBytes, lists uint64
	for b.Loop() {
		d, m, c, l := endToEnd(b, n, tr)
		elapsed += d
		mallocs += m
		cacheBytes += c
		lists += l
	}
	iters := float64(b.N)
	b.ReportMetric(2*n*iters/elapsed.Seconds(), "objects/s")
	b.ReportMetric(float64(mallocs)/(2*n*iters), "allocs/object")
	b.ReportMetric(float64(cacheBytes)/(n*iters), "heap-bytes/cached-object")
	b.ReportMetric(float64(lists)/iters, "lists/op") // 1 unless the watch fell behind and had to relist
}

func endToEnd(b *testing.B, n int, tr *trace.Tracer) (elapsed time.Duration, mallocs, cacheBytes, lists uint64) {
	// A watch buffer that holds the whole burst: with the default (1,000
	// events) a writer this fast cuts the informer's watch off before it
	// delivers anything, and the informer relists (a very short watch, as
	// client-go would), which measures recovery rather than the pipeline.
	// lists/op shows whether that happened anyway.
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{WatchBufferSize: 2*n + 100, HistorySize: 2*n + 100, Tracer: tr})
	defer srv.CloseWatches()
	client := srv.Resource(apiservertest.WidgetsResource)
	inf := NewSharedIndexInformer[*widget](client, Options[*widget]{Tracer: tr})
	h := &countingHandler{want: int64(n), addsDone: make(chan struct{}), updDone: make(chan struct{})}
	if _, err := inf.AddEventHandler(h); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		inf.Run(ctx)
	}()
	<-inf.Synced()

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	created := make([]*widget, n)
	for i := range n {
		w := apiservertest.NewWidget("ns", "w"+itoa(i))
		got, err := client.Create(ctx, w, meta.CreateOptions{})
		if err != nil {
			b.Fatal(err)
		}
		created[i] = got.(*widget)
	}
	<-h.addsDone
	for _, w := range created {
		w.Spec.Size++
		if _, err := client.Update(ctx, w, meta.UpdateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	<-h.updDone
	elapsed = time.Since(start)
	runtime.ReadMemStats(&after)

	b.StopTimer()
	created = nil
	held := heapInUse()
	cancel()
	<-done
	inf = nil
	released := heapInUse()
	b.StartTimer()
	lists = uint64(srv.RequestCount(apiserver.VerbList, apiservertest.WidgetsResource.GroupResource()))
	return elapsed, after.Mallocs - before.Mallocs, held - min(held, released), lists
}

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func itoa(i int) string {
	var buf [12]byte
	p := len(buf)
	for {
		p--
		buf[p] = byte('0' + i%10)
		if i /= 10; i == 0 {
			return string(buf[p:])
		}
	}
}

// BenchmarkListenerDelivery measures handing one notification to a
// handler's queue (the informer's side, under its lock), while the
// handler's goroutine delivers concurrently.
func BenchmarkListenerDelivery(b *testing.B) {
	last := apiservertest.NewWidget("ns", "last")
	delivered := make(chan struct{})
	h := ResourceEventHandlerFuncs[*widget]{AddFunc: func(w *widget, _ bool) {
		if w == last {
			close(delivered)
		}
	}}
	l := newListener[*widget](h, newRegistration(nil), 0, 0, time.Now())
	done := make(chan struct{})
	go func() {
		defer close(done)
		l.run()
	}()
	w := apiservertest.NewWidget("ns", "w")
	b.ReportAllocs()
	for b.Loop() {
		l.add(notification[*widget]{kind: addNotification, newObj: w})
	}
	l.add(notification[*widget]{kind: addNotification, newObj: last})
	<-delivered
	l.shutdown()
	<-done
}
