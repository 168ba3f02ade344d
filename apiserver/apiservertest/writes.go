package apiservertest

import (
	"context"
	"strconv"
	"sync"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Write names a write of [BenchmarkWrites].
type Write string

// The writes [BenchmarkWrites] measures.
const (
	// WriteCreate creates a new Widget (labels, a spec with a list).
	WriteCreate Write = "create"
	// WriteUpdate updates one Widget's spec (the resourceVersion it
	// got back from the last update, so never a conflict).
	WriteUpdate Write = "update"
	// WriteMergePatch changes one Widget's spec with a JSON merge patch.
	WriteMergePatch Write = "merge-patch"
)

// BenchmarkWrites measures the server's write path as an informer sees
// it: b.N writes through an [apiserver.ResourceClient], one at a time,
// while one watch, read by a goroutine that only counts, receives every
// event. The clock stops when the watch has had the last one. It reports
// objects/s and cpu-ns/op, the CPU time (user + system) the whole
// process used per write: writer, fan-out, reader and garbage collector.
// The server has default options, as a program or a test
// would make it: should the reader fall more than the watch buffer
// behind, it is cut off and watches again from the last resourceVersion
// it saw, as a reflector does (rewatches/op says how often; 0 normally).
// Should that resourceVersion have left the history too (410 Expired),
// it lists, as a reflector would, and counts the events it missed as
// received: they are gone, and every write is one resourceVersion.
// With the writer and the reader on two cores, wall time hides half of
// the work: compare cpu-ns/op.
func BenchmarkWrites(b *testing.B, write Write) {
	ctx := context.Background()
	srv := apiserver.NewServer(NewScheme(), apiserver.Options{})
	rc := srv.Resource(WidgetsResource).Namespace("ns")
	w := NewWidget("ns", "w")
	w.Labels = map[string]string{"app": "bench"}
	w.Spec = WidgetSpec{Color: "red", Size: 3, Tags: []string{"a", "b"}}
	var err error
	if write != WriteCreate {
		obj, err := rc.Create(ctx, w, meta.CreateOptions{})
		if err != nil {
			b.Fatal(err)
		}
		w = obj.(*Widget)
	}
	r := startCounting(b, rc, srv.ResourceVersion(), b.N)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := ProcessCPU()
	for i := range b.N {
		switch write {
		case WriteCreate:
			w.Name = "w-" + strconv.Itoa(i)
			_, err = rc.Create(ctx, w, meta.CreateOptions{})
		case WriteUpdate:
			w.Spec.Size++
			var obj meta.Object
			if obj, err = rc.Update(ctx, w, meta.UpdateOptions{}); err == nil {
				w = obj.(*Widget)
			}
		case WriteMergePatch:
			patch := `{"spec":{"size":` + strconv.Itoa(i) + `}}`
			_, err = rc.Patch(ctx, "w", meta.MergePatchType, []byte(patch), meta.PatchOptions{})
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	r.wait()
	b.StopTimer()
	b.ReportMetric(float64(ProcessCPU()-cpu)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "objects/s")
	b.ReportMetric(float64(r.rewatches)/float64(b.N), "rewatches/op")
}

// countingReader counts a resource's watch events until it has want.
type countingReader struct {
	done      sync.WaitGroup
	rewatches int
}

// startCounting watches rc from rv and counts want events on a goroutine,
// watching again from the last resourceVersion whenever the watch ends.
// An ERROR event (410: the reader fell out of the history) is not
// counted: the reader lists, and counts every resourceVersion up to the
// list's as seen.
func startCounting(b testing.TB, rc *apiserver.ResourceClient, rv string, want int) *countingReader {
	r := &countingReader{}
	start, _ := strconv.ParseInt(rv, 10, 64)
	r.done.Go(func() {
		for n := 0; n < want; r.rewatches++ {
			wi, err := rc.Watch(context.Background(), meta.ListOptions{ResourceVersion: rv})
			if err != nil {
				b.Error(err)
				return
			}
			for ev := range wi.ResultChan() {
				if ev.Type == meta.EventError {
					l, err := rc.List(context.Background(), meta.ListOptions{Limit: 1})
					if err != nil {
						b.Error(err)
						return
					}
					rv = l.ResourceVersion
					at, _ := strconv.ParseInt(rv, 10, 64)
					n = int(at - start)
					continue // the watch ends after its ERROR
				}
				if n++; n == want {
					wi.Stop()
				}
				rv = ev.Object.GetObjectMeta().ResourceVersion
			}
		}
		r.rewatches--
	})
	return r
}

func (r *countingReader) wait() { r.done.Wait() }
