package apiserver_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/storage"
)

// openDurable opens a durable server on dir and closes it at the end.
func openDurable(t testing.TB, dir string, opts apiserver.Options) *apiserver.Server {
	t.Helper()
	srv, err := apiserver.Open(apiservertest.NewScheme(), dir, opts)
	if err != nil {
		t.Fatalf("Open(%s): %v", dir, err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// widgetsOf lists every widget with its resourceVersion, uid and color.
func widgetsOf(t *testing.T, srv *apiserver.Server) []string {
	t.Helper()
	list, _, err := client.New[*apiservertest.Widget](srv).List(context.Background(), meta.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, w := range list {
		out = append(out, w.Namespace+"/"+w.Name+" rv="+w.ResourceVersion+" uid="+string(w.UID)+" color="+w.Spec.Color)
	}
	return out
}

// writeSome creates a, b and c, updates a, and deletes b.
func writeSome(t testing.TB, srv *apiserver.Server) {
	t.Helper()
	ctx := context.Background()
	widgets := client.New[*apiservertest.Widget](srv).Namespace("ns")
	var a *apiservertest.Widget
	for _, name := range []string{"a", "b", "c"} {
		w, err := widgets.Create(ctx, apiservertest.NewWidget("ns", name), meta.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if name == "a" {
			a = w
		}
	}
	a.Spec.Color = "blue"
	if _, err := widgets.Update(ctx, a, meta.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := widgets.Delete(ctx, "b", meta.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
}

// A durable server opened again holds the same objects at the same
// resourceVersions; a watch from before the restart gets 410, a new
// write the next resourceVersion.
func TestOpenAgainHoldsEveryWrite(t *testing.T) {
	dir := t.TempDir()
	first := openDurable(t, dir, apiserver.Options{})
	writeSome(t, first)
	want, wantRV := widgetsOf(t, first), first.ResourceVersion()
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := client.New[*apiservertest.Widget](first).Namespace("ns").
		Create(context.Background(), apiservertest.NewWidget("ns", "late"), meta.CreateOptions{}); !meta.IsInternalError(err) {
		t.Errorf("a write to a closed server: %v, want 500 InternalError", err)
	}

	again := openDurable(t, dir, apiserver.Options{})
	if diff := cmp.Diff(want, widgetsOf(t, again)); diff != "" {
		t.Errorf("after reopening (-before +after):\n%s", diff)
	}
	if got := again.ResourceVersion(); got != wantRV {
		t.Errorf("resourceVersion after reopening: %s, want %s", got, wantRV)
	}
	w, err := again.Resource(apiservertest.WidgetsResource).Watch(context.Background(), meta.ListOptions{ResourceVersion: "3"})
	if err != nil {
		t.Fatal(err)
	}
	if ev := <-w.ResultChan(); ev.Type != meta.EventError {
		t.Errorf("a watch from before the restart got %s, want ERROR 410", ev.Type)
	}
	w.Stop()
	got, err := client.New[*apiservertest.Widget](again).Create(context.Background(), apiservertest.NewWidget("ns", "d"), meta.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.ResourceVersion != "7" {
		t.Errorf("the first write after reopening at rv %s got rv %s, want 7", wantRV, got.ResourceVersion)
	}
}

// Every SnapshotEvery writes the server writes a snapshot and drops the
// logs it covers; reopening reads the snapshot and the newer log.
func TestSnapshotReplacesOldLogs(t *testing.T) {
	dir := t.TempDir()
	srv := openDurable(t, dir, apiserver.Options{Storage: storage.Options{SnapshotEvery: 2}})
	writeSome(t, srv) // five writes: snapshots after the 2nd and the 4th
	want := widgetsOf(t, srv)
	srv.Close()
	names, _ := filepath.Glob(filepath.Join(dir, "*"))
	for i := range names {
		names[i] = filepath.Base(names[i])
	}
	if diff := cmp.Diff([]string{"LOCK", "snapshot", "wal-00000000000000000006.log"}, names); diff != "" {
		t.Errorf("files in the data directory (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, widgetsOf(t, openDurable(t, dir, apiserver.Options{}))); diff != "" {
		t.Errorf("after reopening (-before +after):\n%s", diff)
	}
}

// A record cut short at the end of the log is a write that was never
// acknowledged: it is dropped, and the log goes on after it.
func TestTornWriteIsDropped(t *testing.T) {
	dir := t.TempDir()
	srv := openDurable(t, dir, apiserver.Options{})
	writeSome(t, srv)
	want := widgetsOf(t, srv)
	srv.Close()
	logFile := filepath.Join(dir, "wal-00000000000000000002.log")
	whole, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, cut := range []int{3, 8, 40} { // in the header, after it, in the payload
		torn := append(bytes.Clone(whole), whole[:cut]...)
		if err := os.WriteFile(logFile, torn, 0o600); err != nil {
			t.Fatal(err)
		}
		again := openDurable(t, dir, apiserver.Options{})
		if diff := cmp.Diff(want, widgetsOf(t, again)); diff != "" {
			t.Errorf("cut at %d: (-acknowledged +reopened):\n%s", cut, diff)
		}
		again.Close()
		if got, _ := os.ReadFile(logFile); !bytes.Equal(got, whole) {
			t.Errorf("cut at %d: the log was not cut back to its last whole record (%d bytes, want %d)", cut, len(got), len(whole))
		}
	}
}

// Damage that is not a crash's cut (a flipped byte in the middle of the
// last log, an unknown kind) is refused with a StorageError naming the
// file and the byte, and what to do; storage.Recover keeps the writes
// before it.
func TestDamagedDataIsRefused(t *testing.T) {
	dir := t.TempDir()
	srv := openDurable(t, dir, apiserver.Options{})
	writeSome(t, srv) // five writes, five frames
	srv.Close()
	log := filepath.Join(dir, "wal-00000000000000000002.log")
	whole, _ := os.ReadFile(log)
	third := bytes.Index(whole, []byte(`{"rv":4,`)) - 8 // the third frame
	damaged := bytes.Clone(whole)
	damaged[third+40] ^= 0x20
	if err := os.WriteFile(log, damaged, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := apiserver.Open(apiservertest.NewScheme(), dir, apiserver.Options{})
	var se *storage.StorageError
	if !errors.As(err, &se) || se.Path != log || se.Offset != int64(third) || !strings.Contains(err.Error(), "storage.Recover") {
		t.Errorf("Open of a damaged directory: %v, want a StorageError at %s byte %d", err, log, third)
	}
	if _, err := storage.Recover(dir); err != nil {
		t.Fatal(err)
	}
	again := openDurable(t, dir, apiserver.Options{})
	if got := again.ResourceVersion(); got != "3" {
		t.Errorf("after the recovery the server is at resourceVersion %s, want 3 (the writes before the damage)", got)
	}

	other := t.TempDir()
	srv = openDurable(t, other, apiserver.Options{})
	writeSome(t, srv)
	srv.Close()
	_, err = apiserver.Open(meta.NewScheme(), other, apiserver.Options{})
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "register every kind the data holds") {
		t.Errorf("Open without the kinds: %v", err)
	}
}

// A snapshot restores to the same objects at the same resourceVersions;
// with a higher ResourceVersionStart the restored server counts on from
// there, and every older resourceVersion is expired.
func TestSnapshotAndRestore(t *testing.T) {
	srv := apiservertest.NewServer(t)
	writeSome(t, srv)
	var backup bytes.Buffer
	rv, err := srv.Snapshot(&backup)
	if err != nil || rv != srv.ResourceVersion() {
		t.Fatalf("Snapshot: rv %s, %v; want %s", rv, err, srv.ResourceVersion())
	}
	restored, err := apiserver.Restore(apiservertest.NewScheme(), bytes.NewReader(backup.Bytes()), apiserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(widgetsOf(t, srv), widgetsOf(t, restored)); diff != "" {
		t.Errorf("restored (-saved +restored):\n%s", diff)
	}
	bumped, err := apiserver.Restore(apiservertest.NewScheme(), bytes.NewReader(backup.Bytes()), apiserver.Options{ResourceVersionStart: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if got := bumped.ResourceVersion(); got != "1000" {
		t.Errorf("restored with ResourceVersionStart 1000: at %s", got)
	}
	_, err = apiserver.Restore(apiservertest.NewScheme(), strings.NewReader("not a snapshot"), apiserver.Options{})
	var se *storage.StorageError
	if !errors.As(err, &se) {
		t.Errorf("Restore of garbage: %v, want a StorageError", err)
	}
}
