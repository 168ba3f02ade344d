package apiextensions_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiextensions"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// TestEmbeddedResources: a Tray holds an embedded resource. Its metadata
// is coerced on create, a value that cannot be coerced is 400, and one
// without apiVersion and kind is 422, as on the real server.
func TestEmbeddedResources(t *testing.T) {
	srv := apiserver.NewServer(meta.NewScheme(), apiserver.Options{})
	if _, err := apiextensions.Install(srv); err != nil {
		t.Fatal(err)
	}
	crds, err := apiextensions.Decode([]byte(crdJSON("trays.probe.example.com", "probe.example.com", "trays", "Tray", "Namespaced",
		`{"type":"object","properties":{"spec":{"type":"object","properties":{"item":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}}}`)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := apiextensions.Apply(t.Context(), srv, crds...); err != nil {
		t.Fatal(err)
	}
	rc := srv.Resource(meta.GroupVersionResource{Group: "probe.example.com", Version: "v1", Resource: "trays"}).Namespace("default")
	create := func(item string) (meta.Object, error) {
		return rc.Create(t.Context(), table(t, `{"apiVersion":"probe.example.com/v1","kind":"Tray","metadata":{"name":"t1"},"spec":{"item":`+item+`}}`), meta.CreateOptions{})
	}
	out, err := create(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","labels":{},"junk":1},"data":{"k":"v"}}`)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"item": map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "cm"}, "data": map[string]any{"k": "v"}}}
	if diff := cmp.Diff(want, out.(*meta.Unstructured).Content["spec"]); diff != "" {
		t.Errorf("spec stored (-want +got):\n%s", diff)
	}
	_, err = create(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"labels":"x"}}`)
	if w := `Tray in version "v1" cannot be handled as a Tray: spec.item.metadata: Invalid value: {"labels":"x"}: json: cannot unmarshal string into Go struct field ObjectMeta.labels of type map[string]string`; !meta.IsBadRequest(err) || err.Error() != w {
		t.Errorf("metadata of the wrong type: got %v, want 400 %s", err, w)
	}
	_, err = create(`{"data":{}}`)
	if w := `Tray.probe.example.com "t1" is invalid: [spec.item.apiVersion: Required value, spec.item.kind: Required value]`; !meta.IsInvalid(err) || err.Error() != w {
		t.Errorf("without apiVersion and kind: got %v, want 422 %s", err, w)
	}
}
