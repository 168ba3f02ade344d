package storage_test

import (
	"errors"
	"fmt"
	"iter"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kitchensync/kitchensync/apiserver/storage"
)

func rec(rv int64, typ, key, obj string) storage.Record {
	r := storage.Record{RV: rv, Type: typ, APIVersion: "v1", Kind: "Widget", Key: key}
	if obj != "" {
		r.Object = []byte(obj)
	}
	return r
}

// ignoreTime compares records without the time the log keeps with the
// first write after a snapshot (see TestSnapshotAgeAcrossRestarts).
var ignoreTime = cmpopts.IgnoreFields(storage.Record{}, "Time")

// three are three writes to one key.
var three = []storage.Record{rec(1, "ADDED", "ns/a", `{"n":1}`), rec(2, "MODIFIED", "ns/a", `{"n":2}`), rec(3, "DELETED", "ns/a", "")}

// open opens dir, loads it and returns the log, ready for appending, and
// what it held.
func open(t testing.TB, dir string, opts storage.Options) (*storage.Log, []storage.Record) {
	t.Helper()
	l, err := storage.Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	var got []storage.Record
	last, err := l.Load(storage.Loader{Apply: func(r storage.Record, _ any) error { got = append(got, r); return nil }})
	if err != nil {
		l.Close()
		t.Fatal(err)
	}
	if err := l.Start(last, nil, nil); err != nil {
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
	_, err = l.Load(storage.Loader{Apply: func(r storage.Record, _ any) error { got = append(got, r); return nil }})
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
	if diff := cmp.Diff(three, got, ignoreTime); diff != "" {
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
	if err := l.Start(0, func(rv int64) { syncs = append(syncs, rv) }, nil); err != nil {
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
	if diff := cmp.Diff(three, got, ignoreTime); diff != "" || err != nil {
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

// owner is a log's owner for the tests: the objects it holds, by key.
type owner struct {
	rv      int64
	objects map[string]storage.Record
}

func (o *owner) write(t *testing.T, l *storage.Log, r storage.Record) {
	t.Helper()
	if err := l.Append(r); err != nil {
		t.Fatal(err)
	}
	o.rv = r.RV
	if r.Type == "DELETED" {
		delete(o.objects, r.Key)
	} else {
		r.Type = "ADDED"
		o.objects[r.Key] = r
	}
	if err := l.Wait(r.RV); err != nil {
		t.Fatal(err)
	}
}

func (o *owner) state() (int64, iter.Seq[storage.Record]) {
	return o.rv, func(yield func(storage.Record) bool) {
		for _, k := range slices.Sorted(maps.Keys(o.objects)) {
			if !yield(o.objects[k]) {
				return
			}
		}
	}
}

// openOwned opens dir for an owner that starts with what dir holds.
func openOwned(t *testing.T, dir string, opts storage.Options) (*storage.Log, *owner) {
	t.Helper()
	l, err := storage.Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	o := &owner{objects: map[string]storage.Record{}}
	last, err := l.Load(storage.Loader{Apply: func(r storage.Record, _ any) error {
		if r.Type == "DELETED" {
			delete(o.objects, r.Key)
		} else {
			r.Type = "ADDED"
			o.objects[r.Key] = r
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	o.rv = last
	if err := l.Start(last, nil, o.state); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l, o
}

// files lists the data directory's files.
func files(dir string) []string {
	names, _ := filepath.Glob(filepath.Join(dir, "*"))
	for i := range names {
		names[i] = filepath.Base(names[i])
	}
	return names
}

// TestSnapshot: once a snapshot is due, the write that makes it due ends
// the log, the writer writes the snapshot when its write is synced, and
// the snapshot replaces the logs before; loading gives the snapshot's
// objects and the writes after it.
func TestSnapshot(t *testing.T) {
	dir := t.TempDir()
	l, o := openOwned(t, dir, storage.Options{SnapshotEvery: 2})
	o.write(t, l, rec(1, "ADDED", "ns/a", `{"n":1}`))
	if diff := cmp.Diff([]string{"LOCK", "wal-00000000000000000001.log"}, files(dir)); diff != "" {
		t.Errorf("after 1 write (-want +got):\n%s", diff)
	}
	o.write(t, l, rec(2, "ADDED", "ns/b", `{"n":2}`))
	if diff := cmp.Diff([]string{"LOCK", "snapshot", "wal-00000000000000000003.log"}, files(dir)); diff != "" {
		t.Errorf("after 2 writes (-want +got):\n%s", diff)
	}
	o.write(t, l, rec(3, "MODIFIED", "ns/a", `{"n":3}`))
	l.Close()
	got, _, err := load(t, dir)
	want := []storage.Record{rec(1, "ADDED", "ns/a", `{"n":1}`), rec(2, "ADDED", "ns/b", `{"n":2}`), rec(3, "MODIFIED", "ns/a", `{"n":3}`)}
	if diff := cmp.Diff(want, got, ignoreTime); diff != "" || err != nil {
		t.Errorf("loaded (-want +got):\n%s\n%v", diff, err)
	}
}

// TestSnapshotDueAcrossRestarts: the writes counted toward a snapshot
// survive a restart, so a process that never lives long still snapshots.
func TestSnapshotDueAcrossRestarts(t *testing.T) {
	dir := t.TempDir()
	for rv := int64(1); rv <= 3; rv++ {
		l, o := openOwned(t, dir, storage.Options{SnapshotEvery: 3})
		o.write(t, l, rec(rv, "ADDED", fmt.Sprintf("ns/w%d", rv), `{}`))
		l.Close()
		_, err := os.Stat(filepath.Join(dir, "snapshot"))
		if got, want := err == nil, rv == 3; got != want {
			t.Fatalf("after write %d (one per process): a snapshot %t, want %t", rv, got, want)
		}
	}
	got, _, err := load(t, dir)
	if len(got) != 3 || err != nil {
		t.Errorf("loaded %v, %v; want the 3 writes", got, err)
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
