package apiserver_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/trace"
)

// TestTraceRecordsEveryCommittedWrite follows one widget through every
// kind of write, a no-op and a failed one, and the two watch faults.
func TestTraceRecordsEveryCommittedWrite(t *testing.T) {
	tr := trace.New()
	rec := trace.NewRecorder(tr)
	f := newFixture(t, apiserver.Options{Tracer: tr})
	w := f.create(t, "a", "red", nil)
	w.Spec.Color = "blue"
	w = f.update(t, w)
	f.update(t, w.DeepCopyObject().(*apiservertest.Widget)) // a no-op: no record
	w.Status.Phase = "Painted"
	w, err := f.widgets.UpdateStatus(f.ctx, w, meta.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.widgets.Create(f.ctx, apiservertest.NewWidget("ns", "a"), meta.CreateOptions{}); !meta.IsAlreadyExists(err) {
		t.Fatalf("second Create: %v, want AlreadyExists", err) // a failed write: no record
	}
	w.Finalizers = []string{"example.com/paint"}
	f.update(t, w)
	if err := f.widgets.Delete(f.ctx, "a", meta.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	w, err = f.widgets.Get(f.ctx, "a", meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w.Finalizers = nil
	f.update(t, w)
	f.watch(t, meta.ListOptions{})
	f.srv.CloseWatches()
	f.srv.CompactHistory()

	want := []string{
		"apiserver created Widget ns/a rv=2",
		"apiserver updated Widget ns/a rv=3 detail=spec",
		"apiserver updated Widget ns/a rv=4 detail=status",
		"apiserver updated Widget ns/a rv=5 detail=metadata",
		"apiserver updated Widget ns/a rv=6 detail=deletion started",
		"apiserver deleted Widget ns/a rv=7",
		"apiserver watches-closed count=1",
		"apiserver compacted rv=7",
	}
	if diff := cmp.Diff(want, lines(rec.Records())); diff != "" {
		t.Errorf("trace (-want +got):\n%s", diff)
	}
}

// TestTraceSilentWithoutSubscribers checks that a tracer nobody listens
// to, or none at all, changes nothing.
func TestTraceSilentWithoutSubscribers(t *testing.T) {
	for _, tr := range []*trace.Tracer{nil, trace.New()} {
		f := newFixture(t, apiserver.Options{Tracer: tr})
		f.create(t, "a", "red", nil)
		if tr.Enabled() {
			t.Error("enabled without subscribers")
		}
	}
}

func lines(recs []trace.Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.String()
	}
	return out
}

// TestTraceRecordsARefusedConflict: an update carrying a resourceVersion
// the object has moved past is refused with 409, and the trace says so
// (with the stale version and the current one); nothing is written.
func TestTraceRecordsARefusedConflict(t *testing.T) {
	tr := trace.New()
	rec := trace.NewRecorder(tr)
	f := newFixture(t, apiserver.Options{Tracer: tr})
	w := f.create(t, "a", "red", nil)
	stale := w.DeepCopyObject().(*apiservertest.Widget)
	w.Spec.Color = "blue"
	f.update(t, w)
	stale.Spec.Color = "green"
	if _, err := f.widgets.Update(f.ctx, stale, meta.UpdateOptions{}); !meta.IsConflict(err) {
		t.Fatalf("stale Update: %v, want Conflict", err)
	}
	want := []string{
		"apiserver created Widget ns/a rv=2",
		"apiserver updated Widget ns/a rv=3 detail=spec",
		"apiserver conflict Widget ns/a rv=2 detail=now at rv 3",
	}
	if diff := cmp.Diff(want, lines(rec.Records())); diff != "" {
		t.Errorf("trace (-want +got):\n%s", diff)
	}
}
