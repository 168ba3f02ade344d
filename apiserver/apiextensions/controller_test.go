package apiextensions_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiextensions"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

var tables = meta.GroupVersionResource{Group: "restaurant.example.com", Version: "v1", Resource: "tables"}

// newServer returns a server that serves CustomResourceDefinitions, with
// testdata/tables.yaml applied.
func newServer(t testing.TB) *apiserver.Server {
	t.Helper()
	srv := apiserver.NewServer(meta.NewScheme(), apiserver.Options{})
	if _, err := apiextensions.Install(srv); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("testdata/tables.yaml")
	if err != nil {
		t.Fatal(err)
	}
	crds, err := apiextensions.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := apiextensions.Apply(t.Context(), srv, crds...); err != nil {
		t.Fatal(err)
	}
	return srv
}

// table is a Table object from JSON.
func table(t *testing.T, doc string) *meta.Unstructured {
	t.Helper()
	u := &meta.Unstructured{}
	if err := json.Unmarshal([]byte(doc), u); err != nil {
		t.Fatal(err)
	}
	return u
}

func TestEstablished(t *testing.T) {
	srv := newServer(t)
	crd, err := srv.Resource(apiextensions.Resource).Get(t.Context(), "tables.restaurant.example.com", meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range crd.(*apiextensions.CustomResourceDefinition).Status.Conditions {
		got = append(got, string(c.Type)+"="+string(c.Status)+" "+c.Reason)
	}
	want := []string{"NamesAccepted=True NoConflicts", "Established=True InitialNamesAccepted"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("conditions (-want +got):\n%s", diff)
	}
	info, ok := srv.Scheme().KindForResource(tables)
	if !ok || info.Kind != "Table" || !info.Namespaced || !info.StatusSubresource {
		t.Errorf("kind served: %+v, %v", info, ok)
	}
}

func TestCreateDefaultsAndPrunes(t *testing.T) {
	srv := newServer(t)
	rc := srv.Resource(tables).Namespace("default")
	out, err := rc.Create(context.Background(), table(t, `{"apiVersion":"restaurant.example.com/v1","kind":"Table",
		"metadata":{"name":"t1"},"spec":{"seats":4,"colour":"red","lines":[{"name":"a"}],"note":null,"tags":null},
		"status":{"seated":2},"bogus":1}`), meta.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"spec": map[string]any{"seats": int64(4), "minSeats": int64(1), "section": "hall",
		"lines": []any{map[string]any{"name": "a", "qty": int64(1)}}, "note": nil}}
	if diff := cmp.Diff(want, out.(*meta.Unstructured).Content); diff != "" {
		t.Errorf("stored content (-want +got):\n%s", diff)
	}
}

func TestInvalid(t *testing.T) {
	srv := newServer(t)
	rc := srv.Resource(tables).Namespace("default")
	_, err := rc.Create(t.Context(), table(t, `{"apiVersion":"restaurant.example.com/v1","kind":"Table",
		"metadata":{"name":"t1"},"spec":{"seats":99,"name":"X","tags":["a","a"],"section":"roof","port":true}}`), meta.CreateOptions{})
	want := `Table.restaurant.example.com "t1" is invalid: [spec.name: Invalid value: "X": spec.name in body should be at least 2 chars long, ` +
		`spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean", ` +
		`spec.seats: Invalid value: 99: spec.seats in body should be less than or equal to 12, ` +
		`spec.section: Unsupported value: "roof": supported values: "terrace", "hall", "vip", ` +
		`spec.tags[1]: Duplicate value: "a", ` +
		`<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]`
	if err == nil || err.Error() != want {
		t.Errorf("create: got\n%v\nwant\n%s", err, want)
	}
}

func TestCELRules(t *testing.T) {
	srv := newServer(t)
	rc := srv.Resource(tables).Namespace("default")
	_, err := rc.Create(t.Context(), table(t, `{"apiVersion":"restaurant.example.com/v1","kind":"Table",
		"metadata":{"name":"t1"},"spec":{"seats":2,"minSeats":3}}`), meta.CreateOptions{})
	if want := `Table.restaurant.example.com "t1" is invalid: spec: Invalid value: seats must be at least minSeats`; err == nil || err.Error() != want {
		t.Errorf("create: got %v, want %s", err, want)
	}
	out, err := rc.Create(t.Context(), table(t, `{"apiVersion":"restaurant.example.com/v1","kind":"Table",
		"metadata":{"name":"t1"},"spec":{"seats":2,"section":"vip"}}`), meta.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	u := out.(*meta.Unstructured)
	u.SetNestedField("terrace", "spec", "section")
	_, err = rc.Update(t.Context(), u, meta.UpdateOptions{})
	if want := `Table.restaurant.example.com "t1" is invalid: spec: Invalid value: section is immutable`; err == nil || err.Error() != want {
		t.Errorf("update: got %v, want %s", err, want)
	}
}

func TestStatusSubresource(t *testing.T) {
	srv := newServer(t)
	rc := srv.Resource(tables).Namespace("default")
	out, err := rc.Create(t.Context(), table(t, `{"apiVersion":"restaurant.example.com/v1","kind":"Table",
		"metadata":{"name":"t1"},"spec":{"seats":2}}`), meta.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	u := out.(*meta.Unstructured)
	u.SetNestedField(int64(2), "status", "seated")
	u.SetNestedField(int64(3), "spec", "seats")
	st, err := rc.UpdateStatus(t.Context(), u, meta.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := st.(*meta.Unstructured); got.Generation != 1 || got.Content["spec"].(map[string]any)["seats"] != int64(2) ||
		got.Content["status"].(map[string]any)["seated"] != int64(2) {
		t.Errorf("after UpdateStatus: generation %d, content %v", got.Generation, got.Content)
	}
	st.(*meta.Unstructured).SetNestedField(int64(5), "spec", "seats")
	st.(*meta.Unstructured).SetNestedField(int64(9), "status", "seated")
	up, err := rc.Update(t.Context(), st, meta.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := up.(*meta.Unstructured); got.Generation != 2 || got.Content["status"].(map[string]any)["seated"] != int64(2) {
		t.Errorf("after Update: generation %d, content %v", got.Generation, got.Content)
	}
}

func TestDeleteDefinition(t *testing.T) {
	srv := newServer(t)
	rc := srv.Resource(tables).Namespace("default")
	for _, doc := range []string{
		`{"apiVersion":"restaurant.example.com/v1","kind":"Table","metadata":{"name":"t1"},"spec":{"seats":2}}`,
		`{"apiVersion":"restaurant.example.com/v1","kind":"Table","metadata":{"name":"t2","finalizers":["example.com/hold"]},"spec":{"seats":2}}`,
	} {
		if _, err := rc.Create(t.Context(), table(t, doc), meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	crds := srv.Resource(apiextensions.Resource)
	if err := crds.Delete(t.Context(), "tables.restaurant.example.com", meta.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	crd, err := crds.Get(t.Context(), "tables.restaurant.example.com", meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c := crd.(*apiextensions.CustomResourceDefinition).Condition(apiextensions.Terminating); c == nil || c.Reason != "InstanceDeletionInProgress" {
		t.Errorf("Terminating condition: %+v", c)
	}
	_, err = rc.Create(t.Context(), table(t, `{"apiVersion":"restaurant.example.com/v1","kind":"Table","metadata":{"name":"t3"},"spec":{"seats":2}}`), meta.CreateOptions{})
	if want := `tables.restaurant.example.com "t3" is forbidden: create not allowed while custom resource definition is terminating`; err == nil || err.Error() != want {
		t.Errorf("create while terminating: got %v, want %s", err, want)
	}
	if _, err := rc.Patch(t.Context(), "t2", meta.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), meta.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := crds.Get(t.Context(), "tables.restaurant.example.com", meta.GetOptions{}); !meta.IsNotFound(err) {
		t.Errorf("definition after its last object went: %v", err)
	}
	if _, ok := srv.Scheme().KindForResource(tables); ok {
		t.Error("kind still served")
	}
}
