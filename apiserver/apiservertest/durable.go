package apiservertest

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/storage"
)

// DurableValueBytes is the payload of each object [BenchmarkDurableCreates]
// writes: 1 KiB, as etcd's benchmarks put 1 KiB values.
const DurableValueBytes = 1024

// BenchmarkDurableCreates measures a durable server's writes (see
// [apiserver.Open]): writers goroutines at once create b.N [Widget]s in
// all, each carrying [DurableValueBytes] of payload (spec.color), each
// acknowledged only once it is synced to the disk. Writers that come at
// once share a sync (group commit), so the rate grows with them. It
// reports writes/s and syncs/write, counted from the log itself: every
// sync writes one frame. The data directory is the test's temporary one;
// snapshots are off, so that every frame stays to be counted.
func BenchmarkDurableCreates(b *testing.B, writers int) {
	dir := b.TempDir()
	srv, err := apiserver.Open(NewScheme(), dir, apiserver.Options{Storage: storage.Options{SnapshotBytes: 1 << 50}})
	if err != nil {
		b.Fatal(err)
	}
	widgets := client.New[*Widget](srv).Namespace("ns")
	payload := strings.Repeat("x", DurableValueBytes)
	var next atomic.Int64
	b.ResetTimer()
	var wg sync.WaitGroup
	for range writers {
		wg.Go(func() {
			ctx := context.Background()
			for i := next.Add(1); i <= int64(b.N); i = next.Add(1) {
				w := NewWidget("ns", fmt.Sprintf("w-%d", i))
				w.Spec.Color = payload
				if _, err := widgets.Create(ctx, w, meta.CreateOptions{}); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	if err := srv.Close(); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "writes/s")
	b.ReportMetric(float64(LogFrames(b, dir))/float64(b.N), "syncs/write")
}

// LogFrames counts the frames of the logs in the data directory dir: a
// durable server writes one per sync (its writers' group commit).
func LogFrames(tb testing.TB, dir string) int {
	tb.Helper()
	logs, _ := filepath.Glob(filepath.Join(dir, "wal-*.log"))
	frames := 0
	for _, log := range logs {
		b, err := os.ReadFile(log)
		if err != nil {
			tb.Fatal(err)
		}
		for at := 0; at+8 <= len(b); frames++ {
			size := int(binary.BigEndian.Uint32(b[at:]))
			if size == 0 {
				break // the room ahead
			}
			at += 8 + size
		}
	}
	return frames
}
