package storage_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/storage"
)

func rec(rv int64, typ, key, obj string) storage.Record {
	r := storage.Record{RV: rv, Type: typ, APIVersion: "v1", Kind: "Widget", Key: key}
	if obj != "" {
		r.Object = []byte(obj)
	}
	return r
}

// load opens dir and returns what it holds.
func load(t *testing.T, dir string) ([]storage.Record, int64) {
	t.Helper()
	l, err := storage.Open(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []storage.Record
	last, err := l.Load(func(r storage.Record) error { got = append(got, r); return nil })
	if err != nil {
		t.Fatal(err)
	}
	return got, last
}

// TestLogRoundTrip: what is appended is loaded back, in order; a record
// cut short at the end of the last log is dropped and cut off the file.
func TestLogRoundTrip(t *testing.T) {
	dir := t.TempDir()
	l, err := storage.Open(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Start(0); err != nil {
		t.Fatal(err)
	}
	want := []storage.Record{rec(1, "ADDED", "ns/a", `{"n":1}`), rec(2, "MODIFIED", "ns/a", `{"n":2}`), rec(3, "DELETED", "ns/a", "")}
	for _, r := range want {
		if err := l.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Append(rec(4, "ADDED", "ns/b", `{}`)); err != storage.ErrClosed {
		t.Errorf("Append after Close = %v, want ErrClosed", err)
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "wal-*.log"))
	f, err := os.OpenFile(logs[0], os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := f.Stat()
	f.Write([]byte{0, 0, 0, 40, 1, 2}) // a crash in the middle of a header
	f.Close()

	got, last := load(t, dir)
	if diff := cmp.Diff(want, got); diff != "" || last != 3 {
		t.Errorf("loaded (-want +got):\n%s\nlast %d, want 3", diff, last)
	}
	after, _ := os.Stat(logs[0])
	if after.Size() != before.Size() {
		t.Errorf("log is %d bytes after load, want the torn record cut off (%d)", after.Size(), before.Size())
	}
}

// TestRotate: after every writes, Rotate starts a new log and its
// snapshot replaces the old logs; loading gives the snapshot's objects
// and the writes after it.
func TestRotate(t *testing.T) {
	dir := t.TempDir()
	l, _ := storage.Open(dir, 2)
	if err := l.Start(0); err != nil {
		t.Fatal(err)
	}
	l.Append(rec(1, "ADDED", "ns/a", `{"n":1}`))
	if r := l.Rotate(1); r != nil {
		t.Fatalf("Rotate after 1 write = %v, want nil", r)
	}
	l.Append(rec(2, "ADDED", "ns/b", `{"n":2}`))
	r := l.Rotate(2)
	if r == nil || r.RV != 2 {
		t.Fatalf("Rotate after 2 writes = %v, want a rotation at 2", r)
	}
	l.Append(rec(3, "MODIFIED", "ns/a", `{"n":3}`))
	snap := []storage.Record{rec(1, "ADDED", "ns/a", `{"n":1}`), rec(2, "ADDED", "ns/b", `{"n":2}`)}
	if err := r.Write(slices.Values(snap)); err != nil {
		t.Fatal(err)
	}
	l.Close()
	logs, _ := filepath.Glob(filepath.Join(dir, "wal-*.log"))
	if len(logs) != 1 || filepath.Base(logs[0]) != "wal-00000000000000000003.log" {
		t.Errorf("logs after the snapshot: %v, want only the one from 3", logs)
	}
	got, last := load(t, dir)
	want := append(snap, rec(3, "MODIFIED", "ns/a", `{"n":3}`))
	if diff := cmp.Diff(want, got); diff != "" || last != 3 {
		t.Errorf("loaded (-want +got):\n%s\nlast %d, want 3", diff, last)
	}
}
