package apiserver_test

import (
	"context"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/fieldmanager"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// owners summarises metadata.managedFields: "manager/Operation[/subresource]" -> fieldsV1.
// (Times are not checked: a manager that has changed nothing has none.)
func owners(t *testing.T, obj meta.Object) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, e := range obj.GetObjectMeta().ManagedFields {
		key := e.Manager + "/" + string(e.Operation)
		if e.Subresource != "" {
			key += "/" + e.Subresource
		}
		if e.FieldsType != "FieldsV1" {
			t.Errorf("entry %s: fieldsType %q; want FieldsV1", key, e.FieldsType)
		}
		out[key] = string(e.FieldsV1)
	}
	return out
}

func applyWidget(f *fixture, manager string, force bool, yaml string) (*apiservertest.Widget, error) {
	return f.widgets.Patch(f.ctx, "w", meta.ApplyPatchType, []byte(yaml),
		meta.PatchOptions{FieldManager: manager, Force: &force})
}

const widgetHead = "apiVersion: test.kitchensync.io/v1\nkind: Widget\nmetadata:\n  name: w\n"

func mustApply(t *testing.T, f *fixture, manager, yaml string) *apiservertest.Widget {
	t.Helper()
	w, err := applyWidget(f, manager, false, widgetHead+yaml)
	if err != nil {
		t.Fatalf("apply by %s: %v", manager, err)
	}
	return w
}

func TestApplyCreatesAndOwns(t *testing.T) {
	f := newFixture(t, apiserver.Options{})
	w := mustApply(t, f, "alice", "  labels:\n    team: red\nspec:\n  color: blue\n  size: 3\n")
	if w.Spec.Color != "blue" || w.Spec.Size != 3 || w.Labels["team"] != "red" || w.UID == "" || w.Generation != 1 {
		t.Fatalf("created %+v", w)
	}
	want := map[string]string{"alice/Apply": `{"f:metadata":{"f:labels":{"f:team":{}}},"f:spec":{"f:color":{},"f:size":{}}}`}
	if diff := cmp.Diff(want, owners(t, w)); diff != "" {
		t.Errorf("managedFields (-want +got):\n%s", diff)
	}
	if e := w.ManagedFields[0]; e.APIVersion != "test.kitchensync.io/v1" {
		t.Errorf("apiVersion %q", e.APIVersion)
	}
}

func TestApplyConflictAndForce(t *testing.T) {
	f := newFixture(t, apiserver.Options{})
	mustApply(t, f, "alice", "spec:\n  color: blue\n  size: 3\n")
	// The same value: no conflict, both own it.
	w := mustApply(t, f, "bob", "spec:\n  color: blue\n")
	want := map[string]string{
		"alice/Apply": `{"f:spec":{"f:color":{},"f:size":{}}}`,
		"bob/Apply":   `{"f:spec":{"f:color":{}}}`,
	}
	if diff := cmp.Diff(want, owners(t, w)); diff != "" {
		t.Errorf("shared (-want +got):\n%s", diff)
	}
	_, err := applyWidget(f, "bob", false, widgetHead+"spec:\n  color: green\n  size: 4\n")
	st := statusOf(t, err)
	wantMsg := "Apply failed with 2 conflicts: conflicts with \"alice\":\n- .spec.color\n- .spec.size"
	if st.Code != 409 || st.Reason != meta.StatusReasonConflict || st.Message != wantMsg {
		t.Fatalf("conflict: %d %s %q", st.Code, st.Reason, st.Message)
	}
	wantCauses := []meta.StatusCause{
		{Type: fieldmanager.CauseTypeFieldManagerConflict, Message: `conflict with "alice"`, Field: ".spec.color"},
		{Type: fieldmanager.CauseTypeFieldManagerConflict, Message: `conflict with "alice"`, Field: ".spec.size"},
	}
	if diff := cmp.Diff(wantCauses, st.Details.Causes); diff != "" {
		t.Errorf("causes (-want +got):\n%s", diff)
	}
	force := true
	w, err = f.widgets.Patch(f.ctx, "w", meta.ApplyPatchType, []byte(widgetHead+"spec:\n  color: green\n"),
		meta.PatchOptions{FieldManager: "bob", Force: &force})
	if err != nil {
		t.Fatal(err)
	}
	want = map[string]string{"alice/Apply": `{"f:spec":{"f:size":{}}}`, "bob/Apply": `{"f:spec":{"f:color":{}}}`}
	if diff := cmp.Diff(want, owners(t, w)); diff != "" || w.Spec.Color != "green" {
		t.Errorf("forced: color %q, owners (-want +got):\n%s", w.Spec.Color, diff)
	}
}

func statusOf(t *testing.T, err error) meta.Status {
	t.Helper()
	se, ok := err.(*meta.StatusError)
	if !ok {
		t.Fatalf("error %v (%T), want a StatusError", err, err)
	}
	return se.ErrStatus
}

func TestApplyRemovesFieldsNoLongerApplied(t *testing.T) {
	f := newFixture(t, apiserver.Options{})
	mustApply(t, f, "alice", "  labels:\n    a: \"1\"\n    b: \"2\"\nspec:\n  color: blue\n  size: 3\n")
	mustApply(t, f, "bob", "  labels:\n    b: \"2\"\n")
	// alice stops applying both labels and size: a and size go; b stays,
	// since bob still owns it.
	w := mustApply(t, f, "alice", "spec:\n  color: blue\n")
	if diff := cmp.Diff(map[string]string{"b": "2"}, w.Labels); diff != "" || w.Spec.Size != 0 {
		t.Errorf("size %d, labels (-want +got):\n%s", w.Spec.Size, diff)
	}
}

func TestApplyAfterUntrackedCreate(t *testing.T) {
	f := newFixture(t, apiserver.Options{})
	f.create(t, "w", "red", nil) // no field manager: not tracked
	_, err := applyWidget(f, "alice", false, widgetHead+"spec:\n  color: blue\n")
	want := `Apply failed with 1 conflict: conflict with "before-first-apply" using test.kitchensync.io/v1: .spec.color`
	if st := statusOf(t, err); st.Message != want {
		t.Fatalf("got %q\nwant %q", st.Message, want)
	}
	w := mustApply(t, f, "alice", "spec:\n  color: red\n  size: 2\n")
	want2 := map[string]string{
		"alice/Apply":               `{"f:spec":{"f:color":{},"f:size":{}}}`,
		"before-first-apply/Update": `{"f:spec":{"f:color":{}}}`,
	}
	if diff := cmp.Diff(want2, owners(t, w)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestUpdateWritersBecomeManagers(t *testing.T) {
	f := newFixture(t, apiserver.Options{})
	w := apiservertest.NewWidget("ns", "w")
	w.Spec.Color = "red"
	w, err := f.widgets.Create(f.ctx, w, meta.CreateOptions{FieldManager: "creator"})
	if err != nil {
		t.Fatal(err)
	}
	w.Spec.Size = 5
	w.Labels = map[string]string{"x": "y"}
	w, err = f.widgets.Update(f.ctx, w, meta.UpdateOptions{FieldManager: "editor"})
	if err != nil {
		t.Fatal(err)
	}
	if got := owners(t, w)["creator/Update"]; got != `{"f:spec":{"f:color":{}}}` {
		t.Errorf("creator owns %s", got)
	}
	w, err = f.widgets.Patch(f.ctx, "w", meta.MergePatchType, []byte(`{"spec":{"color":"pink"}}`),
		meta.PatchOptions{FieldManager: "patcher"})
	if err != nil {
		t.Fatal(err)
	}
	w.Status.Phase = "Ready"
	w, err = f.widgets.UpdateStatus(f.ctx, w, meta.UpdateOptions{FieldManager: "ctrl"})
	if err != nil {
		t.Fatal(err)
	}
	// The patcher took color from the creator, which then owns nothing.
	want := map[string]string{
		"editor/Update":      `{"f:metadata":{"f:labels":{".":{},"f:x":{}}},"f:spec":{"f:size":{}}}`,
		"patcher/Update":     `{"f:spec":{"f:color":{}}}`,
		"ctrl/Update/status": `{"f:status":{".":{},"f:phase":{}}}`,
	}
	if diff := cmp.Diff(want, owners(t, w)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	_, err = applyWidget(f, "alice", false, widgetHead+"spec:\n  color: blue\n")
	if st := statusOf(t, err); st.Message != `Apply failed with 1 conflict: conflict with "patcher" using test.kitchensync.io/v1: .spec.color` {
		t.Errorf("got %q", st.Message)
	}
}

func TestPatchOptionsValidated(t *testing.T) {
	f := newFixture(t, apiserver.Options{})
	_, err := applyWidget(f, "", false, widgetHead)
	if st := statusOf(t, err); st.Code != 422 || st.Message != `PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch` {
		t.Errorf("no manager: %d %q", st.Code, st.Message)
	}
	force := false
	_, err = f.widgets.Patch(f.ctx, "w", meta.MergePatchType, []byte(`{}`), meta.PatchOptions{Force: &force})
	if st := statusOf(t, err); st.Code != 422 || st.Message != `PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch` {
		t.Errorf("force on merge: %d %q", st.Code, st.Message)
	}
	for _, tc := range []struct{ name, body, want string }{
		{"wrong name", "apiVersion: test.kitchensync.io/v1\nkind: Widget\nmetadata:\n  name: v\n",
			"the name of the object (v) does not match the name on the URL (w)"},
		{"wrong version", "apiVersion: test.kitchensync.io/v2\nkind: Widget\nmetadata:\n  name: w\n",
			"Incorrect version specified in apply patch. Specified patch version: test.kitchensync.io/v2, expected: test.kitchensync.io/v1"},
		{"not yaml", "{", "error decoding patch: yaml: line 1: did not find expected node content"},
	} {
		_, err := applyWidget(f, "alice", false, tc.body)
		if st := statusOf(t, err); st.Code != 400 || st.Message != tc.want {
			t.Errorf("%s: %d %q, want 400 %q", tc.name, st.Code, st.Message, tc.want)
		}
	}
}

// Bundle has a keyed list: parts merge by name.
type Bundle struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
	Spec            struct {
		Parts []Part `json:"parts,omitempty"`
	} `json:"spec"`
}

// Part is an item of Bundle's keyed list.
type Part struct {
	Name  string `json:"name"`
	Count int    `json:"count,omitempty"`
}

func (b *Bundle) DeepCopyObject() meta.Object {
	out := *b
	out.ObjectMeta = b.ObjectMeta.DeepCopy()
	out.Spec.Parts = slices.Clone(b.Spec.Parts)
	return &out
}

func TestApplyKeyedList(t *testing.T) {
	scheme := meta.NewScheme()
	if err := scheme.Register(meta.KindInfo{Group: "test.kitchensync.io", Version: "v1", Kind: "Bundle",
		Resource: "bundles", New: func() meta.Object { return &Bundle{} },
		ListMapKeys: map[string][]string{"spec.parts": {"name"}}}); err != nil {
		t.Fatal(err)
	}
	srv := apiserver.NewServer(scheme, apiserver.Options{})
	bundles := client.New[*Bundle](srv)
	ctx := context.Background()
	apply := func(manager string, parts ...Part) *Bundle {
		t.Helper()
		b := &Bundle{ObjectMeta: meta.ObjectMeta{Name: "b"}}
		b.Spec.Parts = parts
		got, err := bundles.Apply(ctx, b, meta.ApplyOptions{FieldManager: manager})
		if err != nil {
			t.Fatalf("apply by %s: %v", manager, err)
		}
		return got
	}
	apply("alice", Part{Name: "a", Count: 1})
	b := apply("bob", Part{Name: "b", Count: 2})
	if diff := cmp.Diff([]Part{{"a", 1}, {"b", 2}}, b.Spec.Parts); diff != "" {
		t.Errorf("parts (-want +got):\n%s", diff)
	}
	want := map[string]string{
		"alice/Apply": `{"f:spec":{"f:parts":{"k:{\"name\":\"a\"}":{".":{},"f:count":{},"f:name":{}}}}}`,
		"bob/Apply":   `{"f:spec":{"f:parts":{"k:{\"name\":\"b\"}":{".":{},"f:count":{},"f:name":{}}}}}`,
	}
	if diff := cmp.Diff(want, owners(t, b)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	b = apply("alice")
	if diff := cmp.Diff([]Part{{"b", 2}}, b.Spec.Parts); diff != "" {
		t.Errorf("after alice let go (-want +got):\n%s", diff)
	}
}

func TestApplyRefusesUndeclaredFields(t *testing.T) {
	f := newFixture(t, apiserver.Options{})
	_, err := applyWidget(f, "alice", false, widgetHead+"spec:\n  colour: blue\n")
	want := `failed to create typed patch object (ns/w; test.kitchensync.io/v1, Kind=Widget): .spec.colour: field not declared in schema`
	if st := statusOf(t, err); st.Code != 400 || st.Message != want {
		t.Errorf("got %d %q\nwant 400 %q", st.Code, st.Message, want)
	}
	// metadata is the server's: its schema lists no fields, so any passes.
	mustApply(t, f, "alice", "  annotations: {a: b}\nspec:\n  tags: [x]\n")
}

// As on kube-apiserver: applying the same configuration again changes
// nothing at all — same resourceVersion, no event, the manager's time as
// it was — however much later it comes. A second manager applying the
// same values becomes a co-owner (a write), with no time of its own, as
// structured-merge-diff leaves it.
func TestApplyNoOpWritesNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		const config = "  labels:\n    team: red\nspec:\n  color: blue\n"
		first := mustApply(t, f, "alice", config)
		w := f.watch(t, meta.ListOptions{ResourceVersion: first.ResourceVersion})
		time.Sleep(time.Minute)
		again := mustApply(t, f, "alice", config)
		if diff := cmp.Diff(first, again); diff != "" {
			t.Errorf("re-apply changed the object (-first +again):\n%s", diff)
		}
		diffEvents(t, w, nil)

		time.Sleep(time.Minute)
		shared := mustApply(t, f, "bob", "spec:\n  color: blue\n")
		if shared.ResourceVersion == first.ResourceVersion {
			t.Errorf("a new co-owner wrote nothing: resourceVersion %s", shared.ResourceVersion)
		}
		times := map[string]*meta.Time{}
		for _, e := range shared.ManagedFields {
			times[e.Manager] = e.Time
		}
		if want := first.ManagedFields[0].Time; times["bob"] != nil || !times["alice"].Equal(want.Time) {
			t.Errorf("times: bob %v, alice %v; want none and %v", times["bob"], times["alice"], want)
		}
		diffEvents(t, w, []string{"MODIFIED ns/w rv=" + shared.ResourceVersion})
	})
}
