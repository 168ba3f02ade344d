package apiserver_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/storage"
)

// FuzzRestore reads arbitrary bytes as a snapshot: no panic, and either a
// *StorageError or a server whose own snapshot reads back the same.
//
//	go test -run '^$' -fuzz FuzzRestore -fuzztime 10m ./apiserver/
func FuzzRestore(f *testing.F) {
	srv := apiservertest.NewServer(f)
	writeSome(f, srv)
	var good bytes.Buffer
	if _, err := srv.Snapshot(&good); err != nil {
		f.Fatal(err)
	}
	f.Add(good.Bytes())
	f.Add(good.Bytes()[:good.Len()/2])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		restored, err := apiserver.Restore(apiservertest.NewScheme(), bytes.NewReader(data), apiserver.Options{})
		if err != nil {
			var se *storage.StorageError
			if !errors.As(err, &se) {
				t.Fatalf("Restore: %T %v, want a *StorageError", err, err)
			}
			return
		}
		var again bytes.Buffer
		if _, err := restored.Snapshot(&again); err != nil {
			t.Fatal(err)
		}
		if _, err := apiserver.Restore(apiservertest.NewScheme(), &again, apiserver.Options{}); err != nil {
			t.Fatalf("a restored server's own snapshot does not restore: %v", err)
		}
	})
}

// FuzzOpen opens a data directory of an arbitrary snapshot and an
// arbitrary log: no panic; either a *StorageError, or a server, and then
// never a silent loss: the only bytes Open may cut off the log are its
// end, with no whole frame in them, and it must say so (a repair logged
// with what it dropped). The snapshot is never changed.
//
//	go test -run '^$' -fuzz FuzzOpen -fuzztime 10m ./apiserver/
func FuzzOpen(f *testing.F) {
	dir := f.TempDir()
	srv := openDurable(f, dir, apiserver.Options{})
	writeSome(f, srv)
	var snap bytes.Buffer
	srv.Snapshot(&snap)
	srv.Close()
	log, _ := os.ReadFile(filepath.Join(dir, "wal-00000000000000000002.log"))
	f.Add(snap.Bytes(), log)
	f.Add([]byte{}, log)
	f.Add([]byte{}, log[:len(log)-5])
	f.Add([]byte{}, append(bytes.Clone(log), make([]byte, 100)...))
	f.Add(snap.Bytes(), []byte{})
	f.Fuzz(func(t *testing.T, snapshot, log []byte) {
		dir := t.TempDir()
		logPath := filepath.Join(dir, "wal-00000000000000000002.log")
		if len(snapshot) > 0 {
			os.WriteFile(filepath.Join(dir, "snapshot"), snapshot, 0o600)
		}
		os.WriteFile(logPath, log, 0o600)
		var repairs repairLog
		srv, err := apiserver.Open(apiservertest.NewScheme(), dir,
			apiserver.Options{Storage: storage.Options{Logger: slog.New(&repairs)}})
		var se *storage.StorageError
		switch {
		case err != nil && !errors.As(err, &se):
			t.Fatalf("Open: %T %v, want a *StorageError", err, err)
		case err == nil:
			srv.Close()
		}
		if got, _ := os.ReadFile(filepath.Join(dir, "snapshot")); len(snapshot) > 0 && !bytes.Equal(got, snapshot) {
			t.Fatal("Open changed the snapshot")
		}
		kept, _ := os.ReadFile(logPath)
		switch {
		case len(kept) > len(log) || !bytes.Equal(kept, log[:len(kept)]):
			t.Fatalf("Open rewrote the log (%d bytes, now %d)", len(log), len(kept))
		case len(kept) < len(log) && repairs.dropped != int64(len(log)-len(kept)):
			t.Fatalf("Open cut %d bytes off the log and reported %d", len(log)-len(kept), repairs.dropped)
		case hasWholeFrame(log[len(kept):]):
			t.Fatalf("Open cut a whole frame off the log (at byte %d on)", len(kept))
		}
	})
}

// repairLog is a slog handler that adds up the bytes the repairs it is
// told of dropped.
type repairLog struct{ dropped int64 }

func (r *repairLog) Enabled(context.Context, slog.Level) bool { return true }
func (r *repairLog) WithAttrs([]slog.Attr) slog.Handler       { return r }
func (r *repairLog) WithGroup(string) slog.Handler            { return r }
func (r *repairLog) Handle(_ context.Context, rec slog.Record) error {
	rec.Attrs(func(a slog.Attr) bool {
		if a.Key == "dropped_bytes" {
			r.dropped += a.Value.Int64()
		}
		return true
	})
	return nil
}

// hasWholeFrame reports whether a frame of records (its payload starts
// one) with a matching checksum starts anywhere in b.
func hasWholeFrame(b []byte) bool {
	for at := 0; at+8 < len(b); at++ {
		size := int(binary.BigEndian.Uint32(b[at:]))
		if size == 0 || size > len(b)-at-8 || b[at+8] != '{' {
			continue
		}
		if crc32.Checksum(b[at+8:at+8+size], crc32.MakeTable(crc32.Castagnoli)) == binary.BigEndian.Uint32(b[at+4:]) {
			return true
		}
	}
	return false
}
