package storage_test

import (
	"strings"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/storage"
)

// BenchmarkAppendWait: one writer appends a 1 KiB record and waits for
// its sync, b.N times: the log's own cost of a durable write, without a
// server in front of it.
func BenchmarkAppendWait(b *testing.B) {
	l, _ := open(b, b.TempDir(), storage.Options{SnapshotBytes: 1 << 50})
	obj := `{"spec":{"color":"` + strings.Repeat("x", 1024) + `"}}`
	b.ResetTimer()
	for i := range b.N {
		rv := int64(i + 1)
		if err := l.Append(rec(rv, "ADDED", "ns/w", obj)); err != nil {
			b.Fatal(err)
		}
		if err := l.Wait(rv); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	l.Close()
}
