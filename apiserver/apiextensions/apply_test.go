package apiextensions_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// applyTable applies a Table's spec (YAML, indented under spec:) as
// manager.
func applyTable(t *testing.T, srv *apiserver.Server, manager, spec string, force bool) (*meta.Unstructured, error) {
	t.Helper()
	doc := "apiVersion: restaurant.example.com/v1\nkind: Table\nmetadata:\n  name: t1\nspec:\n" + spec
	out, err := srv.Resource(tables).Namespace("default").Patch(t.Context(), "t1", meta.ApplyPatchType, []byte(doc),
		meta.PatchOptions{FieldManager: manager, Force: &force})
	if err != nil {
		return nil, err
	}
	return out.(*meta.Unstructured), nil
}

// owners lists each manager's fields, as metadata.managedFields has them.
func owners(u *meta.Unstructured) map[string]string {
	out := map[string]string{}
	for _, mf := range u.ManagedFields {
		out[mf.Manager+" "+string(mf.Operation)] = string(mf.FieldsV1)
	}
	return out
}

// TestApplyMarkers: two managers apply a Table. The schema's markers say
// how its fields merge, as structured-merge-diff reads them: lines is
// keyed by name (x-kubernetes-list-type: map), each item's fields owned
// on their own; tags is a set, each value owned on its own; cloth is
// atomic (x-kubernetes-map-type: atomic), owned and replaced whole. The
// chef's apply conflicts with the waiter's fields until forced, and then
// takes them.
func TestApplyMarkers(t *testing.T) {
	srv := newServer(t)
	if _, err := applyTable(t, srv, "waiter", "  seats: 3\n  tags: [a, b]\n  lines:\n  - {name: soup, qty: 2}\n  cloth: {color: white, size: L}\n", false); err != nil {
		t.Fatal(err)
	}
	chef := "  tags: [c]\n  lines:\n  - {name: soup, qty: 3}\n  - {name: stew}\n  cloth: {color: red}\n"
	_, err := applyTable(t, srv, "chef", chef, false)
	want := "Apply failed with 2 conflicts: conflicts with \"waiter\":\n- .spec.cloth\n- .spec.lines[name=\"soup\"].qty"
	if !meta.IsConflict(err) || err.Error() != want {
		t.Fatalf("the chef's apply: got %v, want %s", err, want)
	}
	out, err := applyTable(t, srv, "chef", chef, true)
	if err != nil {
		t.Fatal(err)
	}
	wantSpec := map[string]any{"seats": int64(3), "minSeats": int64(1), "section": "hall",
		"tags":  []any{"a", "b", "c"},
		"lines": []any{map[string]any{"name": "soup", "qty": int64(3)}, map[string]any{"name": "stew", "qty": int64(1)}},
		"cloth": map[string]any{"color": "red"}}
	if diff := cmp.Diff(wantSpec, out.Content["spec"]); diff != "" {
		t.Errorf("spec after the forced apply (-want +got):\n%s", diff)
	}
	wantOwners := map[string]string{
		"waiter Apply": `{"f:spec":{"f:lines":{"k:{\"name\":\"soup\"}":{".":{},"f:name":{}}},"f:seats":{},"f:tags":{"v:\"a\"":{},"v:\"b\"":{}}}}`,
		"chef Apply":   `{"f:spec":{"f:cloth":{},"f:lines":{"k:{\"name\":\"soup\"}":{".":{},"f:name":{},"f:qty":{}},"k:{\"name\":\"stew\"}":{".":{},"f:name":{}}},"f:tags":{"v:\"c\"":{}}}}`,
	}
	if diff := cmp.Diff(wantOwners, owners(out)); diff != "" {
		t.Errorf("managedFields after the forced apply (-want +got):\n%s", diff)
	}
	// The waiter drops b (his alone) and the soup (which the chef
	// co-owns, so it stays): c and the chef's cloth stay too.
	out, err = applyTable(t, srv, "waiter", "  seats: 3\n  tags: [a]\n", false)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]any{"a", "c"}, out.Content["spec"].(map[string]any)["tags"]); diff != "" {
		t.Errorf("tags after the waiter's second apply (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantSpec["lines"], out.Content["spec"].(map[string]any)["lines"]); diff != "" {
		t.Errorf("lines after the waiter's second apply (-want +got):\n%s", diff)
	}
}

// TestFaultsOnCustomResources: a fault injected for a verb fails a
// custom resource's request as any kind's, counted, with nothing written;
// the next request goes through.
func TestFaultsOnCustomResources(t *testing.T) {
	srv := newServer(t)
	rc := srv.Resource(tables).Namespace("default")
	doc := `{"apiVersion":"restaurant.example.com/v1","kind":"Table","metadata":{"name":"t1"},"spec":{"seats":2}}`
	srv.FailNext(apiserver.VerbCreate, 1, meta.NewInternalError(errors.New("disk on fire")))
	if _, err := rc.Create(t.Context(), table(t, doc), meta.CreateOptions{}); !meta.IsInternalError(err) {
		t.Fatalf("first create: %v, want 500 InternalError", err)
	}
	if _, err := rc.Get(t.Context(), "t1", meta.GetOptions{}); !meta.IsNotFound(err) {
		t.Errorf("after the failed create: %v, want NotFound", err)
	}
	if _, err := rc.Create(t.Context(), table(t, doc), meta.CreateOptions{}); err != nil {
		t.Fatalf("second create: %v", err)
	}
	srv.FailNext(apiserver.VerbPatch, 1, meta.NewTooManyRequests("slow down", 1))
	_, err := applyTable(t, srv, "chef", "  seats: 5\n", false)
	if !meta.IsTooManyRequests(err) {
		t.Fatalf("apply: %v, want 429 TooManyRequests", err)
	}
	got, err := rc.Get(t.Context(), "t1", meta.GetOptions{})
	if seats, _ := got.(*meta.Unstructured).NestedField("spec", "seats"); err != nil || seats != int64(2) {
		t.Errorf("after the failed apply: seats %v, %v", seats, err)
	}
	srv.FailNext(apiserver.VerbList, 1, meta.NewTimeout("list", 1))
	if _, err := rc.List(t.Context(), meta.ListOptions{}); !meta.IsTimeout(err) {
		t.Errorf("list: %v, want 504 Timeout", err)
	}
	if list, err := rc.List(t.Context(), meta.ListOptions{}); err != nil || len(list.Items) != 1 {
		t.Errorf("list again: %v, %v", list, err)
	}
	gr := meta.GroupResource{Group: tables.Group, Resource: tables.Resource}
	for verb, want := range map[apiserver.Verb]int64{apiserver.VerbCreate: 2, apiserver.VerbPatch: 1, apiserver.VerbList: 2} {
		if n := srv.RequestCount(verb, gr); n != want {
			t.Errorf("%s requests counted: %d, want %d", verb, n, want)
		}
	}
}
