package apiextensions_test

import (
	"fmt"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// BenchmarkCreate compares a create of a custom resource (unstructured,
// defaulted, pruned and validated by testdata/tables.yaml's schema and
// CEL rules) with a create of a Go kind (apiservertest's Widget).
// Compare the two sub-benchmarks' ns/op in one run.
func BenchmarkCreate(b *testing.B) {
	b.Run("crd", func(b *testing.B) {
		srv := newServer(b)
		rc := srv.Resource(tables).Namespace("default")
		proto := meta.NewUnstructured(meta.GroupVersionKind{Group: tables.Group, Version: "v1", Kind: "Table"})
		proto.SetNestedField(int64(4), "spec", "seats")
		proto.SetNestedField([]any{map[string]any{"name": "soup"}}, "spec", "lines")
		b.ReportAllocs()
		for i := range b.N {
			u := proto.DeepCopy()
			u.Name = fmt.Sprintf("t%d", i)
			if _, err := rc.Create(b.Context(), u, meta.CreateOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("go-kind", func(b *testing.B) {
		srv := apiservertest.NewServer(b)
		rc := srv.Resource(apiservertest.WidgetsResource).Namespace("default")
		b.ReportAllocs()
		for i := range b.N {
			w := apiservertest.NewWidget("default", fmt.Sprintf("w%d", i))
			w.Spec.Color = "red"
			if _, err := rc.Create(b.Context(), w, meta.CreateOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
