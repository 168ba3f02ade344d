package bench

import (
	"context"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/kitchensync/kitchensync/compare/internal/adapt"
)

// The informer workload: a kitchensync apiserver holds Scale Widgets; an
// informer with one handler starts and the clock runs until the handler
// has had OnAdd for every object (list, or watch-list stream, then FIFO,
// cache and handler queue); then every object is updated once on the
// server and the clock runs until the handler has had every OnUpdate.
// Both informers keep the namespace index: kitchensync's always has one,
// and client-go's generated informers (its informer factory's) register
// it too, so both sides file every object alike. Both read the same
// server; client-go's through the adapter in internal/adapt, which
// converts each object to a metav1-based Widget (a cost kitchensync does
// not pay, but far smaller than the JSON or protobuf decoding a real
// client-go pays instead).
//
// Reported: ns/op for both phases together, objects/s through the
// pipeline, the heap the informer holds per cached object (what is freed
// when the informer is dropped, divided by Scale), lists/op, and
// cpu-ms/op: the process's CPU time (user + system, every thread) in the
// same timed region as ns/op. Wall time on a busy machine swings with
// how the list, watch and writer goroutines share the cores; CPU time
// counts the work done. It covers the whole process on both sides alike:
// the informer, the server's writer and watch fan-out, client-go's
// adapter, and the garbage collector's share of it all (the forced
// collections that measure the held heap run outside the region), and
// gc/op, the garbage collections that finished in that region: the
// largest single swing in cpu-ms/op is whether one more happened.

// counter closes addsDone at the want-th OnAdd and updDone at the
// want-th OnUpdate.
type counter struct {
	want              int64
	adds, updates     atomic.Int64
	addsDone, updDone chan struct{}
}

func newCounter(n int) *counter {
	return &counter{want: int64(n), addsDone: make(chan struct{}), updDone: make(chan struct{})}
}

func (c *counter) add() {
	if c.adds.Add(1) == c.want {
		close(c.addsDone)
	}
}

func (c *counter) update() {
	if c.updates.Add(1) == c.want {
		close(c.updDone)
	}
}

// cgCounter is the client-go handler.
type cgCounter struct{ *counter }

func (c cgCounter) OnAdd(any, bool)       { c.add() }
func (c cgCounter) OnUpdate(_, _ any)     { c.update() }
func (c cgCounter) OnDelete(any)          {}
func (c *counter) OnAdd(*widget, bool)    { c.add() }
func (c *counter) OnUpdate(_, _ *widget)  { c.update() }
func (c *counter) OnDelete(*widget, bool) {}

var (
	serverOnce sync.Map // Scale -> *apiserver.Server
)

// benchServer returns a server holding Scale Widgets, built once per
// Scale and shared by both sides (each run updates every object once).
func benchServer(b *testing.B) *apiserver.Server {
	if s, ok := serverOnce.Load(Scale); ok {
		return s.(*apiserver.Server)
	}
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{WatchBufferSize: 2*Scale + 100})
	rc := srv.Resource(apiservertest.WidgetsResource)
	for i := range Scale {
		w := apiservertest.NewWidget("ns-"+strconv.Itoa(i%100), "w-"+strconv.Itoa(i))
		if _, err := rc.Create(context.Background(), w, meta.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	serverOnce.Store(Scale, srv)
	return srv
}

// informerRun is one side's informer: start it with handler c; stop it
// and wait for its goroutines.
type informerRun func(lw *apiserver.ResourceClient, c *counter) (stop func())

func informerBench(b *testing.B, run informerRun) {
	srv := benchServer(b)
	rc := srv.Resource(apiservertest.WidgetsResource)
	list, err := rc.List(context.Background(), meta.ListOptions{})
	if err != nil {
		b.Fatal(err)
	}
	var heldBytes uint64
	var cpu time.Duration
	var gcs uint64
	lists0 := srv.RequestCount(apiserver.VerbList, apiservertest.WidgetsResource.GroupResource())
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		cpu0, gc0 := ProcessCPU(), gcCycles()
		c := newCounter(Scale)
		stop := run(rc, c)
		<-c.addsDone
		for i, obj := range list.Items {
			w := obj.(*widget)
			w.Spec.Size++
			got, err := rc.Update(context.Background(), w, meta.UpdateOptions{})
			if err != nil {
				b.Fatal(err)
			}
			list.Items[i] = got
		}
		<-c.updDone
		cpu += ProcessCPU() - cpu0
		gcs += gcCycles() - gc0
		b.StopTimer()
		held := heapAlloc()
		stop()
		heldBytes += held - min(held, heapAlloc())
		b.StartTimer()
	}
	n := float64(b.N)
	b.ReportMetric(2*float64(Scale)*n/b.Elapsed().Seconds(), "objects/s")
	b.ReportMetric(float64(heldBytes)/(float64(Scale)*n), "heap-B/object")
	lists := srv.RequestCount(apiserver.VerbList, apiservertest.WidgetsResource.GroupResource()) - lists0
	b.ReportMetric(float64(lists)/n, "lists/op")
	b.ReportMetric(float64(cpu)/1e6/n, CPUUnit)
	b.ReportMetric(float64(gcs)/n, "gc/op")
}

// gcCycles returns how many garbage collections have finished, read
// without stopping the world.
func gcCycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// CPUUnit is the metric of process CPU time per operation, in
// milliseconds, that the informer pairs report.
const CPUUnit = "cpu-ms/op"

func heapAlloc() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func informerKS(opts informer.Options[*widget]) func(*testing.B) {
	return func(b *testing.B) {
		informerBench(b, func(rc *apiserver.ResourceClient, c *counter) func() {
			inf := informer.NewSharedIndexInformer[*widget](rc, opts)
			if _, err := inf.AddEventHandler(c); err != nil {
				b.Fatal(err)
			}
			return start(inf.Run)
		})
	}
}

func informerCG(b *testing.B) {
	klog.LogToStderr(false)
	inf := func(rc *apiserver.ResourceClient, c *counter) func() {
		// The namespace index, as client-go's generated informers (the
		// factory's) register it, and as every kitchensync informer has.
		indexers := cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}
		i := cache.NewSharedIndexInformer(adapt.ClientGoListWatch(rc), &adapt.Widget{}, 0, indexers)
		if _, err := i.AddEventHandler(cgCounter{c}); err != nil {
			b.Fatal(err)
		}
		return start(i.RunWithContext)
	}
	informerBench(b, inf)
}

// start runs run(ctx) on a goroutine and returns a stop function that
// cancels ctx, waits for run to return and lets stragglers finish.
func start(run func(context.Context)) func() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		run(ctx)
	}()
	return func() {
		cancel()
		<-done
		time.Sleep(10 * time.Millisecond) // handler goroutines unwind
	}
}
