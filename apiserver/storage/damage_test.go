package storage_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/storage"
)

// ten are ten writes, each synced alone: ten frames.
func ten() []storage.Record {
	var recs []storage.Record
	for rv := int64(1); rv <= 10; rv++ {
		recs = append(recs, rec(rv, "ADDED", fmt.Sprintf("ns/w%d", rv), fmt.Sprintf(`{"n":%d,"pad":"%s"}`, rv, strings.Repeat("x", 100))))
	}
	return recs
}

// frameStarts returns where each frame of a log starts.
func frameStarts(b []byte) []int {
	var out []int
	for at := 0; at+8 <= len(b); {
		out = append(out, at)
		at += 8 + (int(b[at])<<24 | int(b[at+1])<<16 | int(b[at+2])<<8 | int(b[at+3]))
	}
	return out
}

// A crash cuts off, or leaves as zeros, only the end of the last frame of
// the last log: Load drops it, cuts the log back to its last good frame,
// and reports what it dropped. Every write before it is there.
func TestTornTailIsRepaired(t *testing.T) {
	recs := ten()
	dir, log := write(t, recs[:9]...)
	good, _ := os.ReadFile(log)
	_, last := write(t, recs...)
	whole, _ := os.ReadFile(last)
	frame := whole[len(good):] // the tenth write's frame
	tests := []struct {
		name, what string
		tail       []byte
	}{
		{"half a header", "a frame header cut short (4 of 8 bytes)", frame[:4]},
		{"half a frame", "a frame cut short", frame[:len(frame)/2]},
		{"a zero-filled 4 KiB tail", "4096 zero bytes", make([]byte, 4096)},
		{"half a frame, then zeros (preallocated)", "a frame partly written", append(bytes.Clone(frame[:len(frame)/2]), make([]byte, 4096)...)},
		{"a frame whose last bytes are zeros", "a frame partly written", append(bytes.Clone(frame[:len(frame)-3]), 0, 0, 0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(log, append(bytes.Clone(good), tt.tail...), 0o600); err != nil {
				t.Fatal(err)
			}
			got, repairs, err := load(t, dir)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if diff := cmp.Diff(recs[:9], got, ignoreTime); diff != "" {
				t.Errorf("loaded (-want +got):\n%s", diff)
			}
			if len(repairs) != 1 || repairs[0].Offset != int64(len(good)) || repairs[0].Dropped != int64(len(tt.tail)) ||
				!strings.Contains(repairs[0].What, tt.what) {
				t.Errorf("repairs: %+v, want one at %d dropping %d bytes: %s", repairs, len(good), len(tt.tail), tt.what)
			}
			if b, _ := os.ReadFile(log); !bytes.Equal(b, good) {
				t.Errorf("the log is %d bytes after Load, want it cut back to %d", len(b), len(good))
			}
		})
	}
}

// Damage that no crash makes is refused, naming the file and the frame,
// and saying what to do; nothing is cut off.
func TestDamageIsRefused(t *testing.T) {
	recs := ten()
	_, log := write(t, recs...)
	whole, _ := os.ReadFile(log)
	starts := frameStarts(whole)
	mid, lastFrame := starts[4], starts[9]
	flip := func(at int) []byte { b := bytes.Clone(whole); b[at] ^= 0x10; return b }
	tests := []struct {
		name string
		data []byte
		at   int
		why  string
	}{
		{"a flipped byte in a middle frame", flip(mid + 30), mid, "with a good frame after it"},
		{"a garbled length (longer) in a middle frame", flip(mid + 2), mid, "with a good frame after it"},
		{"a garbled length (shorter) in a middle frame", flip(mid + 3), mid, "with a good frame after it"},
		{"a zeroed middle frame", append(append(bytes.Clone(whole[:mid]), make([]byte, starts[5]-mid)...), whole[starts[5]:]...), mid, "with a good frame after it"},
		{"a flipped byte in the last frame", flip(lastFrame + 30), lastFrame, "the frame's bytes changed after they were written"},
		{"a length past the maximum", append(bytes.Clone(whole[:lastFrame]), 0x7f, 0xff, 0xff, 0xff, 1, 2, 3, 4, '{'), lastFrame, "a frame length of"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, filepath.Base(log))
			if err := os.WriteFile(path, tt.data, 0o600); err != nil {
				t.Fatal(err)
			}
			_, _, err := load(t, dir)
			var se *storage.StorageError
			if !errors.As(err, &se) || se.Path != path || se.Offset != int64(tt.at) ||
				!strings.Contains(err.Error(), tt.why) || !strings.Contains(err.Error(), "storage.Recover") {
				t.Errorf("Load: %v\nwant a StorageError at %s byte %d: %s, saying what to do", err, path, tt.at, tt.why)
			}
			if b, _ := os.ReadFile(path); !bytes.Equal(b, tt.data) {
				t.Errorf("the damaged log was changed")
			}
		})
	}
}

// A write cut short in a log with a newer log after it that holds data
// is not a crash's work (a sync finishes the older log before the newer
// one is written): damage.
func TestTornOlderLogIsRefused(t *testing.T) {
	recs := ten()
	_, log := write(t, recs[:5]...)
	whole, _ := os.ReadFile(log)
	dir := t.TempDir()
	older := filepath.Join(dir, "wal-00000000000000000001.log")
	os.WriteFile(older, whole[:len(whole)-5], 0o600)
	_, newer := write(t, recs[5:]...)
	b, _ := os.ReadFile(newer)
	os.WriteFile(filepath.Join(dir, "wal-00000000000000000006.log"), b, 0o600)
	_, _, err := load(t, dir)
	var se *storage.StorageError
	if !errors.As(err, &se) || se.Path != older || !strings.Contains(err.Error(), "with newer logs after it") {
		t.Errorf("Load: %v, want a StorageError for the cut in %s", err, older)
	}
}

// Records must be newer than the one before them: two processes writing
// at once (which the lock prevents) would make the same resourceVersion
// twice, and Load refuses rather than skip one.
func TestRecordsOutOfOrderAreRefused(t *testing.T) {
	recs := ten()
	_, a := write(t, recs[:5]...)
	_, b := write(t, recs[3:8]...)
	ab, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	dir := t.TempDir()
	path := filepath.Join(dir, filepath.Base(a))
	os.WriteFile(path, append(ab, bb...), 0o600)
	_, _, err := load(t, dir)
	var se *storage.StorageError
	if !errors.As(err, &se) || se.Path != path || se.Offset != int64(len(ab)) ||
		!strings.Contains(err.Error(), "a write at resourceVersion 4 after one at 5") {
		t.Errorf("Load: %v, want a StorageError at byte %d naming both resourceVersions", err, len(ab))
	}
}

// Recover keeps what comes before the damage and moves the damaged log,
// as it was, aside; the directory loads again.
func TestRecover(t *testing.T) {
	recs := ten()
	dir, log := write(t, recs...)
	whole, _ := os.ReadFile(log)
	at := frameStarts(whole)[6]
	damaged := bytes.Clone(whole)
	damaged[at+20] ^= 1
	os.WriteFile(log, damaged, 0o600)

	r, err := storage.Recover(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.Damage == nil || r.Damage.Path != log || r.Damage.Offset != int64(at) || r.Kept != 6 {
		t.Errorf("Recover: %+v, want the damage at %s byte %d found and resourceVersion 6 kept", r, log, at)
	}
	if moved, _ := os.ReadFile(filepath.Join(r.MovedTo, filepath.Base(log))); !bytes.Equal(moved, damaged) {
		t.Errorf("the damaged log was not kept as it was in %s", r.MovedTo)
	}
	got, _, err := load(t, dir)
	if diff := cmp.Diff(recs[:6], got, ignoreTime); diff != "" || err != nil {
		t.Errorf("after Recover (-want +got):\n%s\n%v", diff, err)
	}
	if r, err := storage.Recover(dir); err != nil || r.Damage != nil {
		t.Errorf("Recover of a sound directory: %+v, %v; want nothing done", r, err)
	}
}
