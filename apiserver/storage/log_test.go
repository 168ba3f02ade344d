package storage_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// three are three writes to one key.
var three = []storage.Record{rec(1, "ADDED", "ns/a", `{"n":1}`), rec(2, "MODIFIED", "ns/a", `{"n":2}`), rec(3, "DELETED", "ns/a", "")}

// open opens dir, loads it and returns the log, ready for appending, and
// what it held.
func open(t *testing.T, dir string, opts storage.Options) (*storage.Log, []storage.Record) {
	t.Helper()
	l, err := storage.Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	var got []storage.Record
	last, err := l.Load(func(r storage.Record) error { got = append(got, r); return nil })
	if err != nil {
		l.Close()
		t.Fatal(err)
	}
	if err := l.Start(last, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l, got
}

// load opens dir and returns what it holds, or the error Load returns.
func load(t *testing.T, dir string) ([]storage.Record, []storage.Repair, error) {
	t.Helper()
	l, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var got []storage.Record
	_, err = l.Load(func(r storage.Record) error { got = append(got, r); return nil })
	return got, l.Repairs(), err
}

// write appends recs to a new data directory, one sync each, and closes
// it; it returns the directory and its one log.
func write(t *testing.T, recs ...storage.Record) (dir, log string) {
	t.Helper()
	dir = t.TempDir()
	l, _ := open(t, dir, storage.Options{})
	for _, r := range recs {
		if err := l.Append(r); err != nil {
			t.Fatal(err)
		}
		if err := l.Wait(r.RV); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "wal-*.log"))
	return dir, logs[0]
}

// TestLogRoundTrip: what is appended is loaded back, in order, and a
// closed log refuses writes.
func TestLogRoundTrip(t *testing.T) {
	dir, _ := write(t, three...)
	got, repairs, err := load(t, dir)
	if err != nil || len(repairs) > 0 {
		t.Fatalf("Load: %v, repairs %v", err, repairs)
	}
	if diff := cmp.Diff(three, got); diff != "" {
		t.Errorf("loaded (-want +got):\n%s", diff)
	}
	l, _ := open(t, dir, storage.Options{})
	l.Close()
	if err := l.Append(rec(4, "ADDED", "ns/b", `{}`)); err != storage.ErrClosed {
		t.Errorf("Append after Close = %v, want ErrClosed", err)
	}
}

// TestGroupCommit: writes appended before one Wait share its sync, and
// its frame: the owner hears of one sync, and the log holds one frame.
func TestGroupCommit(t *testing.T) {
	dir := t.TempDir()
	l, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var syncs []int64
	if err := l.Start(0, func(rv int64) { syncs = append(syncs, rv) }); err != nil {
		t.Fatal(err)
	}
	for _, r := range three {
		l.Append(r)
	}
	for _, r := range slices.Backward(three) { // the last writer's Wait syncs them all
		if err := l.Wait(r.RV); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	if diff := cmp.Diff([]int64{3}, syncs); diff != "" {
		t.Errorf("syncs (-want +got):\n%s", diff)
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "wal-*.log"))
	b, _ := os.ReadFile(logs[0])
	if frames := frameCount(b); frames != 1 {
		t.Errorf("the log holds %d frames, want the 3 writes in 1", frames)
	}
	got, _, err := load(t, dir)
	if diff := cmp.Diff(three, got); diff != "" || err != nil {
		t.Errorf("loaded (-want +got):\n%s\n%v", diff, err)
	}
}

// frameCount counts the frames of a log by their lengths.
func frameCount(b []byte) int {
	n := 0
	for len(b) >= 8 {
		size := int(b[0])<<24 | int(b[1])<<16 | int(b[2])<<8 | int(b[3])
		b = b[min(8+size, len(b)):]
		n++
	}
	return n
}

// TestRotate: once a snapshot is due, Rotate starts a new log and its
// snapshot replaces the old logs; loading gives the snapshot's objects
// and the writes after it.
func TestRotate(t *testing.T) {
	dir := t.TempDir()
	l, _ := open(t, dir, storage.Options{SnapshotEvery: 2})
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
	if err := l.Wait(3); err != nil {
		t.Fatal(err)
	}
	snap := []storage.Record{rec(1, "ADDED", "ns/a", `{"n":1}`), rec(2, "ADDED", "ns/b", `{"n":2}`)}
	if err := r.Write(slices.Values(snap)); err != nil {
		t.Fatal(err)
	}
	l.Close()
	logs, _ := filepath.Glob(filepath.Join(dir, "wal-*.log"))
	if len(logs) != 1 || filepath.Base(logs[0]) != "wal-00000000000000000003.log" {
		t.Errorf("logs after the snapshot: %v, want only the one from 3", logs)
	}
	got, _, err := load(t, dir)
	want := append(snap, rec(3, "MODIFIED", "ns/a", `{"n":3}`))
	if diff := cmp.Diff(want, got); diff != "" || err != nil {
		t.Errorf("loaded (-want +got):\n%s\n%v", diff, err)
	}
}

// TestSnapshotDueAcrossRestarts: the writes counted toward a snapshot
// survive a restart, so a process that never lives long still snapshots.
func TestSnapshotDueAcrossRestarts(t *testing.T) {
	dir := t.TempDir()
	for rv := int64(1); rv <= 3; rv++ {
		l, _ := open(t, dir, storage.Options{SnapshotEvery: 3})
		l.Append(rec(rv, "ADDED", "ns/"+string(rune('a'+rv)), `{}`))
		r := l.Rotate(rv)
		if got, want := r != nil, rv == 3; got != want {
			t.Fatalf("after write %d (one per process): snapshot due %t, want %t", rv, got, want)
		}
		if err := l.Wait(rv); err != nil {
			t.Fatal(err)
		}
		l.Close()
	}
}

// TestSecondOpenIsRefused: a data directory is open in one place at a
// time; the refusal says who has it.
func TestSecondOpenIsRefused(t *testing.T) {
	dir := t.TempDir()
	first, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = storage.Open(dir, storage.Options{})
	var se *storage.StorageError
	if !errors.As(err, &se) || !errors.Is(err, storage.ErrLocked) || !strings.Contains(err.Error(), "this process") {
		t.Fatalf("second Open: %v, want ErrLocked naming this process", err)
	}
	first.Close()
	again, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	again.Close()
}
