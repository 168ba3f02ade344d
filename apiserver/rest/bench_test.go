package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/rest"
	"github.com/kitchensync/kitchensync/informer"
)

// countingWriter counts the bytes of response bodies.
type countingWriter struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (w countingWriter) Write(b []byte) (int, error) {
	w.n.Add(int64(len(b)))
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController flush the underlying writer.
func (w countingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// benchServer serves srv over loopback HTTP, counting response bytes.
func benchServer(b *testing.B, srv *apiserver.Server) (*rest.Client, *atomic.Int64) {
	b.Helper()
	var n atomic.Int64
	api := httpapi.NewHandler(srv)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		api.ServeHTTP(countingWriter{w, &n}, r)
	}))
	b.Cleanup(ts.Close)
	c, err := rest.New(&rest.Config{Host: ts.URL, QPS: -1}, srv.Scheme())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(c.CloseIdleConnections)
	return c, &n
}

// fill creates n widgets, spread over 10 namespaces.
func fill(b *testing.B, srv *apiserver.Server, n int) {
	b.Helper()
	c := srv.Resource(apiservertest.WidgetsResource)
	for i := range n {
		w := apiservertest.NewWidget(fmt.Sprintf("ns%d", i%10), fmt.Sprintf("w%06d", i))
		w.Labels = map[string]string{"app": "bench"}
		w.Spec = apiservertest.WidgetSpec{Color: "red", Size: i}
		if _, err := c.Create(b.Context(), w, meta.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInformerInitialSyncOverHTTP measures an informer's initial
// sync of 100,000 objects over loopback HTTP (one list, then the watch):
// objects per second from Run to HasSynced, the response bytes per object
// on the wire, and the heap the informer holds per cached object.
//
//	go test ./apiserver/rest/ -run '^$' -bench InitialSync -benchtime 3x
func BenchmarkInformerInitialSyncOverHTTP(b *testing.B) {
	const n = 100_000
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{})
	b.Cleanup(srv.CloseWatches)
	fill(b, srv, n)
	c, wire := benchServer(b, srv)
	var elapsed time.Duration
	var heap uint64
	for b.Loop() {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		wire.Store(0)
		start := time.Now()
		inf := informer.NewSharedIndexInformer(c.Resource(apiservertest.WidgetsResource), informer.Options[*apiservertest.Widget]{})
		ctx, cancel := context.WithCancel(b.Context())
		done := make(chan struct{})
		go func() { defer close(done); inf.Run(ctx) }()
		if !informer.WaitForCacheSync(ctx, inf) || len(inf.GetIndexer().List()) != n {
			b.Fatal("the informer did not sync all objects")
		}
		elapsed += time.Since(start)
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap += after.HeapAlloc - min(before.HeapAlloc, after.HeapAlloc)
		cancel()
		<-done
		runtime.KeepAlive(inf)
	}
	b.ReportMetric(float64(n*b.N)/elapsed.Seconds(), "objects/s")
	b.ReportMetric(float64(wire.Load())/n, "wire-bytes/object")
	b.ReportMetric(float64(heap)/float64(n*b.N), "heap-bytes/cached-object")
}

// BenchmarkWatchOverHTTP measures watch events per second delivered over
// loopback HTTP to 1 and to 100 clients, each with its own watch: the
// writer creates objects in batches of 500 and waits until every client
// has decoded each batch. Each b.N is one object created; events/s counts
// deliveries (clients × objects).
//
//	go test ./apiserver/rest/ -run '^$' -bench WatchOverHTTP -benchtime 20000x
func BenchmarkWatchOverHTTP(b *testing.B) {
	for _, clients := range []int{1, 100} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) { benchWatch(b, clients) })
	}
}

func benchWatch(b *testing.B, clients int) {
	const batch = 500
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{WatchBufferSize: 2 * batch})
	b.Cleanup(srv.CloseWatches)
	c, _ := benchServer(b, srv)
	ctx, cancel := context.WithCancel(b.Context())
	defer cancel()
	var received atomic.Int64
	var wg sync.WaitGroup
	for range clients {
		w, err := c.Resource(apiservertest.WidgetsResource).Watch(ctx, meta.ListOptions{ResourceVersion: srv.ResourceVersion()})
		if err != nil {
			b.Fatal(err)
		}
		wg.Go(func() {
			for range w.ResultChan() {
				received.Add(1)
			}
		})
	}
	writer := srv.Resource(apiservertest.WidgetsResource)
	i := 0
	start := time.Now()
	for b.Loop() {
		w := apiservertest.NewWidget("bench", fmt.Sprintf("w%07d", i))
		if _, err := writer.Create(ctx, w, meta.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
		if i++; i%batch == 0 {
			waitFor(b, &received, int64(i*clients))
		}
	}
	waitFor(b, &received, int64(i*clients))
	elapsed := time.Since(start)
	cancel()
	wg.Wait()
	b.ReportMetric(float64(i*clients)/elapsed.Seconds(), "events/s")
}

// waitFor spins (yielding) until n events have been received; a
// benchmark may watch the clock, a test never does.
func waitFor(b *testing.B, received *atomic.Int64, n int64) {
	deadline := time.Now().Add(time.Minute)
	for received.Load() < n {
		if time.Now().After(deadline) {
			b.Fatalf("received %d events of %d after a minute: a watch was cut?", received.Load(), n)
		}
		runtime.Gosched()
	}
}
