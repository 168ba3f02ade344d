package apiextensions_test

import (
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Table is a Go type of one's own for the Table kind that
// testdata/tables.yaml defines.
type Table struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
	Spec            struct {
		Seats   int    `json:"seats"`
		Section string `json:"section,omitempty"`
	} `json:"spec"`
	Status struct {
		Seated int `json:"seated,omitempty"`
	} `json:"status,omitzero"`
}

func (t *Table) DeepCopyObject() meta.Object {
	out := *t
	out.ObjectMeta = t.ObjectMeta.DeepCopy()
	return &out
}

// TestTypedAndDynamicClients reaches one custom kind both ways: with a Go
// type the server does not know, and as unstructured objects.
func TestTypedAndDynamicClients(t *testing.T) {
	srv := newServer(t)
	typed := client.ForResource[*Table](srv, tables).Namespace("default")
	in := &Table{ObjectMeta: meta.ObjectMeta{Name: "t1"}}
	in.Spec.Seats = 4
	out, err := typed.Create(t.Context(), in, meta.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if out.Spec.Section != "hall" || out.Kind != "Table" || out.Generation != 1 {
		t.Errorf("created: %+v", out)
	}
	out.Status.Seated = 3
	if out, err = typed.UpdateStatus(t.Context(), out, meta.UpdateOptions{}); err != nil || out.Status.Seated != 3 {
		t.Fatalf("UpdateStatus: %+v, %v", out, err)
	}
	dynamic := client.ForResource[*meta.Unstructured](srv, tables).Namespace("default")
	u, err := dynamic.Get(t.Context(), "t1", meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if seated, _ := u.NestedField("status", "seated"); seated != int64(3) {
		t.Errorf("status.seated through the dynamic client: %v", seated)
	}
	list, _, err := typed.List(t.Context(), meta.ListOptions{FieldSelector: "spec.section=hall"})
	if err != nil || len(list) != 1 || list[0].Name != "t1" {
		t.Errorf("list by field selector: %v, %v", list, err)
	}
}
