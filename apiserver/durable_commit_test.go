package apiserver_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Writers share syncs, which happen outside the server's lock; what the
// server guarantees is that nothing leaves it before it is on the disk.
// Here 8 writers create at once while a watcher reads: every event it
// gets, and every write acknowledged, is already in a whole frame of a
// log when it arrives, and a writer's own resourceVersion is never ahead
// of what the server reports.
func TestNothingLeavesBeforeItIsOnDisk(t *testing.T) {
	dir := t.TempDir()
	srv := openDurable(t, dir, apiserver.Options{})
	ctx := context.Background()
	w, err := srv.Resource(apiservertest.WidgetsResource).Watch(ctx, meta.ListOptions{ResourceVersion: srv.ResourceVersion()})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	const writers, each = 8, 10
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			widgets := client.New[*apiservertest.Widget](srv).Namespace("ns")
			for j := range each {
				got, err := widgets.Create(ctx, apiservertest.NewWidget("ns", fmt.Sprintf("w%d-%d", i, j)), meta.CreateOptions{})
				if err != nil {
					t.Error(err)
					return
				}
				rv, _ := strconv.ParseInt(got.ResourceVersion, 10, 64)
				if !onDisk(t, dir, rv) {
					t.Errorf("create acknowledged at resourceVersion %d before it was on the disk", rv)
				}
				if now, _ := strconv.ParseInt(srv.ResourceVersion(), 10, 64); now < rv {
					t.Errorf("after a write at %d the server reports resourceVersion %d", rv, now)
				}
			}
		})
	}
	for range writers * each {
		ev := <-w.ResultChan()
		rv, _ := strconv.ParseInt(ev.Object.GetObjectMeta().ResourceVersion, 10, 64)
		if !onDisk(t, dir, rv) {
			t.Errorf("a watcher heard of resourceVersion %d before it was on the disk", rv)
		}
	}
	wg.Wait()
}

// readHead returns the first n bytes of file, or all of it.
func readHead(t *testing.T, file string, n int) []byte {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := make([]byte, n)
	got, _ := f.ReadAt(b, 0)
	return b[:got]
}

// onDisk reports whether a log in dir holds the write of resourceVersion
// rv in a whole frame with a matching checksum.
func onDisk(t *testing.T, dir string, rv int64) bool {
	t.Helper()
	logs, _ := filepath.Glob(filepath.Join(dir, "wal-*.log"))
	want := []byte(`{"rv":` + strconv.FormatInt(rv, 10) + `,`)
	for _, log := range logs {
		b := readHead(t, log, 1<<20) // the writes, not the preallocated space

		for _, at := range frameStarts(b) {
			size := int(binary.BigEndian.Uint32(b[at:]))
			if at+8+size > len(b) {
				break
			}
			payload := b[at+8 : at+8+size]
			if crc32.Checksum(payload, crc32.MakeTable(crc32.Castagnoli)) == binary.BigEndian.Uint32(b[at+4:]) &&
				(bytes.HasPrefix(payload, want) || bytes.Contains(payload, append([]byte("\n"), want...))) {
				return true
			}
		}
	}
	return false
}
