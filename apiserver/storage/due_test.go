package storage_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/storage"
)

// snapshotRV returns the resourceVersion of dir's snapshot, or 0 if it
// has none.
func snapshotRV(t *testing.T, dir string) int64 {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "snapshot"))
	if os.IsNotExist(err) {
		return 0
	} else if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rv, err := storage.ReadSnapshot(f, "snapshot", storage.Loader{Apply: func(storage.Record, any) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	return rv
}

// oneWrite is a process that lives for one write: it opens dir, makes
// write rv (an object of size bytes) and closes. It returns the
// resourceVersion of the snapshot dir then holds (0: none).
func oneWrite(t *testing.T, dir string, opts storage.Options, rv int64, size int) int64 {
	t.Helper()
	l, o := openOwned(t, dir, opts)
	o.write(t, l, rec(rv, "ADDED", fmt.Sprintf("ns/w%d", rv), `{"v":"`+strings.Repeat("x", size)+`"}`))
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return snapshotRV(t, dir)
}

// TestSnapshotBytesAcrossRestarts: the bytes logged toward a snapshot
// survive a restart: processes that make one write each snapshot once
// the logs hold SnapshotBytes, as one long-lived process would.
func TestSnapshotBytesAcrossRestarts(t *testing.T) {
	dir := t.TempDir()
	opts := storage.Options{SnapshotBytes: 1500} // each write logs about 600 bytes
	var got []int64
	for rv := int64(1); rv <= 7; rv++ {
		got = append(got, oneWrite(t, dir, opts, rv, 500))
	}
	// The third write passes 1,500 bytes; then the logs must grow as big
	// as the snapshot of 3 objects (1,866 bytes): three writes are 1,831.
	want := []int64{0, 0, 3, 3, 3, 3, 7}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("snapshot after each write (one process each): %v, want %v", got, want)
	}
}

// TestSnapshotAgeAcrossRestarts: the age of the oldest write no snapshot
// holds is kept in the log with that write, so that processes that
// never live an hour still snapshot an hour after it; and it is counted
// from that write, not from the snapshot before it, so that a write
// after a long quiet does not snapshot at once.
func TestSnapshotAgeAcrossRestarts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		opts := storage.Options{SnapshotAge: time.Hour}
		steps := []struct {
			wait   time.Duration // before the process starts
			want   int64         // the snapshot's resourceVersion after its write
			reason string
		}{
			{0, 0, "the first write"},
			{40 * time.Minute, 0, "40 minutes after the first write"},
			{40 * time.Minute, 3, "80 minutes after the first write, in a third process"},
			{2 * time.Hour, 3, "a write after two quiet hours is the first of a new count"},
			{59 * time.Minute, 3, "59 minutes after it"},
			{2 * time.Minute, 6, "61 minutes after it"},
		}
		for i, s := range steps {
			time.Sleep(s.wait)
			if got := oneWrite(t, dir, opts, int64(i+1), 10); got != s.want {
				t.Errorf("write %d (%s): snapshot at %d, want %d", i+1, s.reason, got, s.want)
			}
		}
	})
}

// TestSnapshotAgeInOneProcess: in a process that lives on, the count
// starts again at the first write after a snapshot, not at the snapshot,
// and that write keeps its time for the next process.
func TestSnapshotAgeInOneProcess(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		opts := storage.Options{SnapshotAge: time.Hour}
		l, o := openOwned(t, dir, opts)
		for i, s := range []struct {
			wait time.Duration
			want int64
		}{{0, 0}, {61 * time.Minute, 2}, {2 * time.Hour, 2}, {59 * time.Minute, 2}} {
			time.Sleep(s.wait)
			o.write(t, l, rec(int64(i+1), "ADDED", fmt.Sprintf("ns/w%d", i+1), `{}`))
			if got := snapshotRV(t, dir); got != s.want {
				t.Errorf("write %d, %v after the one before: snapshot at %d, want %d", i+1, s.wait, got, s.want)
			}
		}
		l.Close()
		time.Sleep(2 * time.Minute)
		if got := oneWrite(t, dir, opts, 5, 10); got != 5 {
			t.Errorf("write 5, in the next process 61 minutes after write 3: snapshot at %d, want 5", got)
		}
	})
}

// TestSnapshotAgeSkipsWhatTheSnapshotHolds: a log that a crash left
// beside the snapshot that replaced it (between the snapshot and the
// removal) holds only writes the snapshot has: their time counts for
// nothing, and the next write starts the count.
func TestSnapshotAgeSkipsWhatTheSnapshotHolds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		opts := storage.Options{SnapshotEvery: 3}
		oneWrite(t, dir, opts, 1, 10)
		oneWrite(t, dir, opts, 2, 10)
		old := filepath.Join(dir, "wal-00000000000000000001.log")
		kept, err := os.ReadFile(old)
		if err != nil {
			t.Fatal(err)
		}
		if got := oneWrite(t, dir, opts, 3, 10); got != 3 {
			t.Fatalf("write 3: snapshot at %d, want 3", got)
		}
		if err := os.WriteFile(old, kept, 0o600); err != nil { // as if the removal never came
			t.Fatal(err)
		}
		time.Sleep(2 * time.Hour)
		opts = storage.Options{SnapshotAge: time.Hour}
		if got := oneWrite(t, dir, opts, 4, 10); got != 3 {
			t.Errorf("write 4, two hours after writes 1 and 2 (in the snapshot): snapshot at %d, want none new", got)
		}
	})
}

// TestSnapshotAgeOfAnOlderLog: a log that an older version wrote keeps
// no time; its age is counted from the next write, which keeps one,
// though it is not the oldest write no snapshot holds.
func TestSnapshotAgeOfAnOlderLog(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, log := write(t, three[:2]...) // write 1 keeps a time, write 2 none
		b, _ := os.ReadFile(log)
		first, rest := b[:frameStarts(b)[1]], b[frameStarts(b)[1]:]
		if !bytes.Contains(first, []byte(`"time":"2000-01-01T00:00:00.000000Z"`)) || bytes.Contains(rest, []byte(`"time"`)) {
			t.Fatalf("the log %q: want a time on write 1 (the bubble's start) and none on write 2", b)
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "wal-00000000000000000002.log"), rest, 0o600); err != nil {
			t.Fatal(err)
		}
		opts := storage.Options{SnapshotAge: time.Hour}
		time.Sleep(2 * time.Hour)
		if got := oneWrite(t, dir, opts, 3, 10); got != 0 {
			t.Errorf("write 3, after a log with no time: snapshot at %d, want none", got)
		}
		time.Sleep(61 * time.Minute)
		if got := oneWrite(t, dir, opts, 4, 10); got != 4 {
			t.Errorf("write 4, 61 minutes after write 3: snapshot at %d, want 4", got)
		}
	})
}
