package apiserver_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/storage"
)

func BenchmarkCreate(b *testing.B) {
	ctx := context.Background()
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{})
	widgets := client.New[*apiservertest.Widget](srv).Namespace("ns")
	w := apiservertest.NewWidget("ns", "")
	w.Labels = map[string]string{"app": "bench"}
	w.Spec = apiservertest.WidgetSpec{Color: "red", Size: 3, Tags: []string{"a", "b"}}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		w.Name = fmt.Sprintf("w-%d", i)
		i++
		if _, err := widgets.Create(ctx, w, meta.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "objects/s")
}

func BenchmarkUpdate(b *testing.B) {
	ctx := context.Background()
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{})
	widgets := client.New[*apiservertest.Widget](srv).Namespace("ns")
	w := apiservertest.NewWidget("ns", "w")
	w.Spec = apiservertest.WidgetSpec{Color: "red", Tags: []string{"a", "b"}}
	w, err := widgets.Create(ctx, w, meta.CreateOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		w.Spec.Size++
		if w, err = widgets.Update(ctx, w, meta.UpdateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "objects/s")
}

// BenchmarkWatchFanOut compares the server's fan-out with the same
// fan-out over bare buffered channels, in one run: compare the two rows'
// events/s. The compare module's side-by-side table runs the same pair.
func BenchmarkWatchFanOut(b *testing.B) {
	for _, watchers := range []int{100, 1000} {
		b.Run(fmt.Sprintf("watchers=%d", watchers), func(b *testing.B) {
			b.Run("kitchensync", func(b *testing.B) { apiservertest.BenchmarkFanOut(b, watchers) })
			b.Run("bare-channels", func(b *testing.B) { apiservertest.BenchmarkBareFanOut(b, watchers) })
		})
	}
}

// BenchmarkWrites is the write path with one watch draining it (see
// [apiservertest.BenchmarkWrites]); compare cpu-ns/op.
func BenchmarkWrites(b *testing.B) {
	for _, w := range []apiservertest.Write{apiservertest.WriteCreate, apiservertest.WriteUpdate, apiservertest.WriteMergePatch} {
		b.Run(string(w), func(b *testing.B) { apiservertest.BenchmarkWrites(b, w) })
	}
}

func BenchmarkDurableCreates(b *testing.B) {
	for _, writers := range []int{1, 4, 16} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) { apiservertest.BenchmarkDurableCreates(b, writers) })
	}
}

// BenchmarkRestart opens a data directory holding n objects of 1 KiB
// (apiservertest.DurableValueBytes) each: from a snapshot alone (what a
// restart reads right after a snapshot), and from the snapshot and a log
// as big as it (the most a restart reads: a snapshot is due once the
// logs are as big as it). It reports the wall time of a restart and the
// CPU time (every thread's: the load decodes on every core), which moves
// less with what else a shared machine runs. 1M objects with
// KITCHENSYNC_LONG=1 (about 3 GiB of memory):
//
//	go test -run '^$' -bench Restart -benchtime 3x ./apiserver/
//	KITCHENSYNC_LONG=1 go test -run '^$' -bench Restart/objects=1000000 -benchtime 1x -timeout 60m ./apiserver/
func BenchmarkRestart(b *testing.B) {
	sizes := []int{10_000, 100_000}
	if os.Getenv("KITCHENSYNC_LONG") != "" {
		sizes = append(sizes, 1_000_000)
	}
	for _, n := range sizes {
		dir := restartDir(b, n)
		for _, withLog := range []bool{false, true} {
			name := fmt.Sprintf("objects=%d/snapshot", n)
			if withLog {
				name += "+log"
				addLog(b, dir, n)
			}
			b.Run(name, func(b *testing.B) {
				cpu := apiservertest.ProcessCPU()
				for b.Loop() {
					srv, err := apiserver.Open(apiservertest.NewScheme(), dir, apiserver.Options{})
					if err != nil {
						b.Fatal(err)
					}
					srv.Close()
				}
				b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/restart")
				b.ReportMetric((apiservertest.ProcessCPU()-cpu).Seconds()/float64(b.N), "cpu-s/restart")
			})
		}
	}
}

// restartDir returns a data directory whose snapshot holds n widgets
// with a 1 KiB spec each, written by a server that made them.
func restartDir(b *testing.B, n int) string {
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{})
	widgets := client.New[*apiservertest.Widget](srv).Namespace("ns")
	payload := strings.Repeat("x", apiservertest.DurableValueBytes)
	for i := range n {
		w := apiservertest.NewWidget("ns", fmt.Sprintf("w-%d", i))
		w.Spec.Color = payload
		if _, err := widgets.Create(context.Background(), w, meta.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	dir := b.TempDir()
	f, err := os.Create(filepath.Join(dir, "snapshot"))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := srv.Snapshot(f); err != nil {
		b.Fatal(err)
	}
	f.Close()
	return dir
}

// addLog updates each of the n widgets of dir once, through a durable
// server: a log about as big as the snapshot.
func addLog(b *testing.B, dir string, n int) {
	srv, err := apiserver.Open(apiservertest.NewScheme(), dir, apiserver.Options{Storage: storage.Options{SnapshotBytes: 1 << 50}})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	var wg sync.WaitGroup
	var next atomic.Int64
	for range 16 {
		wg.Go(func() {
			patch := []byte(`{"spec":{"size":1}}`)
			widgets := srv.Resource(apiservertest.WidgetsResource).Namespace("ns")
			for i := next.Add(1) - 1; i < int64(n); i = next.Add(1) - 1 {
				if _, err := widgets.Patch(context.Background(), fmt.Sprintf("w-%d", i), meta.MergePatchType, patch, meta.PatchOptions{}); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// BenchmarkHeapPerObject creates 100,000 widgets, each with a 1 KiB
// annotation of its own (about one kilobyte of payload, as objects
// decoded from requests carry), and reports the live heap the server
// holds per object, after a collection.
func BenchmarkHeapPerObject(b *testing.B) {
	const n = 100_000
	payload := strings.Repeat("0123456789abcdef", 64)
	for b.Loop() {
		before := liveHeap()
		srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{})
		rc := srv.Resource(apiservertest.WidgetsResource).Namespace("ns")
		w := apiservertest.NewWidget("ns", "")
		w.Labels = map[string]string{"app": "bench"}
		w.Spec = apiservertest.WidgetSpec{Color: "red", Size: 3}
		for i := range n {
			w.Name = fmt.Sprintf("w-%d", i)
			w.Annotations = map[string]string{"payload": w.Name + payload[len(w.Name):]}
			if _, err := rc.Create(context.Background(), w, meta.CreateOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(liveHeap()-before)/n, "heap-B/object")
		runtime.KeepAlive(srv)
	}
}

// liveHeap is the heap in use after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
