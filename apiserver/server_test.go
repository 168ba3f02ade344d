package apiserver_test

import (
	"encoding/json"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

func TestCreateSetsServerFields(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		in := apiservertest.NewWidget("", "a")
		in.Status.Phase = "Ready" // create cannot set status
		got, err := f.widgets.Create(f.ctx, in, meta.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		m := got.ObjectMeta
		if m.Namespace != "ns" || m.UID == "" || m.ResourceVersion != "2" || m.Generation != 1 ||
			m.CreationTimestamp.IsZero() || got.Status.Phase != "" {
			t.Errorf("created %+v, status %+v", m, got.Status)
		}
		if in.ResourceVersion != "" || in.Namespace != "" {
			t.Errorf("Create modified its argument: %+v", in.ObjectMeta)
		}
		if _, err := f.widgets.Create(f.ctx, in, meta.CreateOptions{}); !meta.IsAlreadyExists(err) ||
			err.Error() != `widgets.test.kitchensync.io "a" already exists` {
			t.Errorf("second create: %v", err)
		}
		if got, _ := f.widgets.Get(f.ctx, "a", meta.GetOptions{}); got.UID != m.UID {
			t.Errorf("Get uid = %q, want %q", got.UID, m.UID)
		}
	})
}

func TestCreateGenerateName(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		seen := map[string]bool{}
		for range 5 {
			w := apiservertest.NewWidget("ns", "")
			w.GenerateName = "w-"
			got, err := f.widgets.Create(f.ctx, w, meta.CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Name) != len("w-")+5 || got.Name[:2] != "w-" || seen[got.Name] {
				t.Errorf("generated name %q", got.Name)
			}
			seen[got.Name] = true
		}
	})
}

func TestGetReturnsCopies(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		f.create(t, "a", "red", map[string]string{"k": "v"})
		got, _ := f.widgets.Get(f.ctx, "a", meta.GetOptions{})
		got.Labels["k"] = "mutated"
		got.Spec.Color = "mutated"
		again, _ := f.widgets.Get(f.ctx, "a", meta.GetOptions{})
		if again.Labels["k"] != "v" || again.Spec.Color != "red" {
			t.Errorf("the server's object changed through a returned copy: %+v", again)
		}
		if _, err := f.widgets.Get(f.ctx, "zz", meta.GetOptions{}); !meta.IsNotFound(err) ||
			err.Error() != `widgets.test.kitchensync.io "zz" not found` {
			t.Errorf("Get(missing) = %v", err)
		}
	})
}

func TestUpdateStaleRVIsConflict(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		a := f.create(t, "a", "red", nil)
		stale := a.DeepCopyObject().(*apiservertest.Widget)
		a.Spec.Size = 1
		f.update(t, a)
		stale.Spec.Size = 2
		_, err := f.widgets.Update(f.ctx, stale, meta.UpdateOptions{})
		const want = `Operation cannot be fulfilled on widgets.test.kitchensync.io "a": the object has been modified; please apply your changes to the latest version and try again`
		if !meta.IsConflict(err) || err.Error() != want {
			t.Errorf("err = %v, want %s", err, want)
		}
	})
}

func TestUpdateWithoutRVIsInvalid(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		a := f.create(t, "a", "red", nil)
		a.ResourceVersion = ""
		_, err := f.widgets.Update(f.ctx, a, meta.UpdateOptions{})
		const want = `widgets.test.kitchensync.io "a" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update`
		if !meta.IsInvalid(err) || err.Error() != want {
			t.Errorf("err = %v, want %s", err, want)
		}
	})
}

func TestNoOpUpdateMakesNoEventAndKeepsRV(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		a := f.create(t, "a", "red", nil)
		w := f.watch(t, meta.ListOptions{ResourceVersion: "2"})
		got := f.update(t, a)
		if got.ResourceVersion != "2" || f.srv.ResourceVersion() != "2" {
			t.Errorf("no-op update: rv %s, server rv %s, want 2", got.ResourceVersion, f.srv.ResourceVersion())
		}
		a.Status.Phase = "ignored by Update"
		f.update(t, a)
		diffEvents(t, w, nil)
	})
}

func TestGenerationBumpsOnlyOnSpecChanges(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		a := f.create(t, "a", "red", nil)
		steps := []struct {
			name    string
			mutate  func(w *apiservertest.Widget)
			status  bool
			wantGen int64
			wantRV  string
		}{
			{"label change", func(w *apiservertest.Widget) { w.Labels = map[string]string{"x": "y"} }, false, 1, "3"},
			{"spec change", func(w *apiservertest.Widget) { w.Spec.Size = 3 }, false, 2, "4"},
			{"status write", func(w *apiservertest.Widget) { w.Status.Phase = "Ready" }, true, 2, "5"},
			{"annotation change", func(w *apiservertest.Widget) { w.Annotations = map[string]string{"a": "b"} }, false, 2, "6"},
			{"spec list change", func(w *apiservertest.Widget) { w.Spec.Tags = []string{"t"} }, false, 3, "7"},
			{"client-set generation is ignored", func(w *apiservertest.Widget) { w.Generation = 42 }, false, 3, "7"},
		}
		for _, st := range steps {
			st.mutate(a)
			var err error
			if st.status {
				a, err = f.widgets.UpdateStatus(f.ctx, a, meta.UpdateOptions{})
			} else {
				a, err = f.widgets.Update(f.ctx, a, meta.UpdateOptions{})
			}
			if err != nil {
				t.Fatalf("%s: %v", st.name, err)
			}
			if a.Generation != st.wantGen || a.ResourceVersion != st.wantRV {
				t.Errorf("%s: generation %d rv %s, want %d and %s", st.name, a.Generation, a.ResourceVersion, st.wantGen, st.wantRV)
			}
		}
	})
}

// The generation a spec change moves is the one in the JSON the server
// keeps (which GetJSON writes), also when its digits grow in number; a
// spec that encodes as before (an empty list for none) moves nothing.
func TestGenerationInStoredJSONFollowsSpec(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		a := f.create(t, "a", "red", nil)
		for range 9 { // generation 10: one more digit
			a.Spec.Size++
			var err error
			if a, err = f.widgets.Update(f.ctx, a, meta.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		a.Labels = map[string]string{"x": "y"}
		a.Spec.Tags = []string{} // encodes as no tags at all
		b, err := f.widgets.Update(f.ctx, a, meta.UpdateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if b.Generation != 10 || b.ResourceVersion == a.ResourceVersion {
			t.Errorf("generation %d rv %s, want 10 and a new rv", b.Generation, b.ResourceVersion)
		}
		raw, err := f.res.Namespace("ns").GetJSON(f.ctx, "a", meta.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(b)
		if diff := cmp.Diff(string(want), string(raw)); diff != "" {
			t.Errorf("stored JSON (-want +got):\n%s", diff)
		}
	})
}

func TestStatusSubresourceRules(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		a := f.create(t, "a", "red", nil)
		// UpdateStatus writes only status: spec and metadata changes are dropped.
		a.Status.Phase = "Ready"
		a.Spec.Color = "blue"
		a.Labels = map[string]string{"dropped": "yes"}
		got, err := f.widgets.UpdateStatus(f.ctx, a, meta.UpdateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := apiservertest.WidgetStatus{Phase: "Ready"}
		if diff := cmp.Diff(want, got.Status); diff != "" || got.Spec.Color != "red" || got.Labels != nil {
			t.Errorf("after UpdateStatus: spec %+v labels %v status diff %s", got.Spec, got.Labels, diff)
		}
		// Update keeps the stored status.
		got.Status.Phase = "Lost"
		got.Spec.Color = "green"
		got = f.update(t, got)
		if got.Status.Phase != "Ready" || got.Spec.Color != "green" {
			t.Errorf("after Update: status %+v spec %+v", got.Status, got.Spec)
		}
		// UpdateStatus still checks the resourceVersion.
		a.ResourceVersion = "2"
		if _, err := f.widgets.UpdateStatus(f.ctx, a, meta.UpdateOptions{}); !meta.IsConflict(err) {
			t.Errorf("stale UpdateStatus: %v", err)
		}
		// A kind without Status has no status subresource.
		g, err := client.New[*apiservertest.Gadget](f.srv).Create(f.ctx, apiservertest.NewGadget("g"), meta.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = client.New[*apiservertest.Gadget](f.srv).UpdateStatus(f.ctx, g, meta.UpdateOptions{})
		if !meta.IsNotFound(err) || err.Error() != "the server could not find the requested resource" {
			t.Errorf("UpdateStatus on a kind without status: %v", err)
		}
	})
}

func TestFinalizerFlow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		w := apiservertest.NewWidget("ns", "a")
		w.Finalizers = []string{"example.com/one", "example.com/two"}
		if _, err := f.widgets.Create(f.ctx, w, meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		watch := f.watch(t, meta.ListOptions{ResourceVersion: "2"})
		if err := f.widgets.Delete(f.ctx, "a", meta.DeleteOptions{}); err != nil { // rv 3
			t.Fatal(err)
		}
		if err := f.widgets.Delete(f.ctx, "a", meta.DeleteOptions{}); err != nil { // no-op
			t.Fatalf("second delete: %v", err)
		}
		got, _ := f.widgets.Get(f.ctx, "a", meta.GetOptions{})
		if got.DeletionTimestamp == nil {
			t.Fatal("deletionTimestamp not set")
		}
		if got.Generation != 2 { // marking for deletion bumps it once; the no-op second delete does not
			t.Errorf("generation after delete = %d, want 2", got.Generation)
		}
		// No new finalizers once deleting.
		add := got.DeepCopyObject().(*apiservertest.Widget)
		add.Finalizers = append(add.Finalizers, "example.com/three")
		_, err := f.widgets.Update(f.ctx, add, meta.UpdateOptions{})
		const want = `Widget.test.kitchensync.io "a" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers ["example.com/three"]`
		if !meta.IsInvalid(err) || err.Error() != want {
			t.Errorf("adding a finalizer: %v\nwant %s", err, want)
		}
		got.Finalizers = got.Finalizers[1:]
		got = f.update(t, got) // rv 4
		got.Finalizers = nil
		final := f.update(t, got) // rv 5: deletes
		// As kube-apiserver answers: the object as updated, with the
		// resourceVersion it had (the update itself is never stored).
		if final.ResourceVersion != "4" || final.DeletionTimestamp == nil || len(final.Finalizers) != 0 {
			t.Errorf("final state %+v", final.ObjectMeta)
		}
		if _, err := f.widgets.Get(f.ctx, "a", meta.GetOptions{}); !meta.IsNotFound(err) {
			t.Errorf("Get after the last finalizer: %v", err)
		}
		diffEvents(t, watch, []string{"MODIFIED ns/a rv=3", "MODIFIED ns/a rv=4", "DELETED ns/a rv=5"})
	})
}

// TestLastFinalizerEvent pins what kube-apiserver does when an update
// removes the last finalizer: the update is never stored, so the DELETED
// event carries the last stored state, finalizer, spec and generation as
// they were, and the caller gets what it asked for with the old
// resourceVersion.
func TestLastFinalizerEvent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		w := apiservertest.NewWidget("ns", "a")
		w.Finalizers = []string{"example.com/hold"}
		if _, err := f.widgets.Create(f.ctx, w, meta.CreateOptions{}); err != nil { // rv 2
			t.Fatal(err)
		}
		if err := f.widgets.Delete(f.ctx, "a", meta.DeleteOptions{}); err != nil { // rv 3
			t.Fatal(err)
		}
		watch := f.watch(t, meta.ListOptions{ResourceVersion: "3"})
		got, _ := f.widgets.Get(f.ctx, "a", meta.GetOptions{})
		got.Finalizers = nil
		got.Spec.Size = 7
		answer := f.update(t, got) // rv 4: deletes
		type state struct {
			RV         string
			Finalizers []string
			Generation int64
			Size       int
		}
		want := state{RV: "3", Generation: 3, Size: 7}
		if diff := cmp.Diff(want, state{answer.ResourceVersion, answer.Finalizers, answer.Generation, answer.Spec.Size}); diff != "" {
			t.Errorf("answer (-want +got):\n%s", diff)
		}
		synctest.Wait()
		ev := <-watch.ResultChan()
		last := ev.Object.(*apiservertest.Widget)
		want = state{RV: "4", Finalizers: []string{"example.com/hold"}, Generation: 2}
		if diff := cmp.Diff(want, state{last.ResourceVersion, last.Finalizers, last.Generation, last.Spec.Size}); ev.Type != meta.EventDeleted || diff != "" {
			t.Errorf("%s event (-want +got):\n%s", ev.Type, diff)
		}
	})
}

func TestDeletePreconditions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		a := f.create(t, "a", "red", nil)
		tests := []struct {
			name string
			pre  meta.Preconditions
			want string
		}{
			{"uid", meta.Preconditions{UID: ptr("other")},
				`Operation cannot be fulfilled on Widget.test.kitchensync.io "a": the UID in the precondition (other) does not match the UID in record (` + a.UID + `). The object might have been deleted and then recreated`},
			{"rv", meta.Preconditions{ResourceVersion: ptr("7")},
				`Operation cannot be fulfilled on Widget.test.kitchensync.io "a": the ResourceVersion in the precondition (7) does not match the ResourceVersion in record (2). The object might have been modified`},
		}
		for _, tt := range tests {
			err := f.widgets.Delete(f.ctx, "a", meta.DeleteOptions{Preconditions: &tt.pre})
			if !meta.IsConflict(err) || err.Error() != tt.want {
				t.Errorf("%s: err = %v, want %s", tt.name, err, tt.want)
			}
		}
		ok := meta.Preconditions{UID: &a.UID, ResourceVersion: &a.ResourceVersion}
		if err := f.widgets.Delete(f.ctx, "a", meta.DeleteOptions{Preconditions: &ok}); err != nil {
			t.Errorf("delete with matching preconditions: %v", err)
		}
		if err := f.widgets.Delete(f.ctx, "a", meta.DeleteOptions{}); !meta.IsNotFound(err) {
			t.Errorf("delete of a missing object: %v", err)
		}
	})
}

func TestMergePatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		w := apiservertest.NewWidget("ns", "a")
		w.Spec = apiservertest.WidgetSpec{Color: "red", Size: 1, Tags: []string{"x"}}
		if _, err := f.widgets.Create(f.ctx, w, meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		got, err := f.widgets.Patch(f.ctx, "a", meta.MergePatchType,
			[]byte(`{"spec":{"size":null,"tags":["y","z"]},"status":{"phase":"ignored"},"metadata":{"labels":{"k":"v"}}}`),
			meta.PatchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := apiservertest.WidgetSpec{Color: "red", Tags: []string{"y", "z"}}
		if diff := cmp.Diff(want, got.Spec); diff != "" || got.Status.Phase != "" || got.Labels["k"] != "v" || got.Generation != 2 {
			t.Errorf("patched: spec diff %s status %+v labels %v gen %d", diff, got.Status, got.Labels, got.Generation)
		}
		// A resourceVersion in the patch is a precondition.
		_, err = f.widgets.Patch(f.ctx, "a", meta.MergePatchType, []byte(`{"metadata":{"resourceVersion":"2"},"spec":{"size":5}}`), meta.PatchOptions{})
		if !meta.IsConflict(err) {
			t.Errorf("patch with stale rv: %v", err)
		}
		if _, err := f.widgets.Patch(f.ctx, "zz", meta.MergePatchType, []byte(`{}`), meta.PatchOptions{}); !meta.IsNotFound(err) {
			t.Errorf("patch of a missing object: %v", err)
		}
	})
}

func TestDryRunStoresNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		if _, err := f.widgets.Create(f.ctx, apiservertest.NewWidget("ns", "dry"), meta.CreateOptions{DryRun: true}); err != nil {
			t.Fatal(err)
		}
		a := f.create(t, "a", "red", nil)
		a.Spec.Size = 9
		if _, err := f.widgets.Update(f.ctx, a, meta.UpdateOptions{DryRun: true}); err != nil {
			t.Fatal(err)
		}
		if err := f.widgets.Delete(f.ctx, "a", meta.DeleteOptions{DryRun: true}); err != nil {
			t.Fatal(err)
		}
		items, om, _ := f.widgets.List(f.ctx, meta.ListOptions{})
		if len(items) != 1 || items[0].Spec.Size != 0 || om.ResourceVersion != "2" {
			t.Errorf("after dry runs: %d items, size %d, rv %s", len(items), items[0].Spec.Size, om.ResourceVersion)
		}
	})
}
