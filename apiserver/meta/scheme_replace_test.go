package meta_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

func tableKind(version string) meta.KindInfo {
	gvk := meta.GroupVersionKind{Group: "restaurant.example.com", Version: version, Kind: "Table"}
	return meta.KindInfo{Group: gvk.Group, Version: version, Kind: "Table", Resource: "tables", Namespaced: true,
		New: func() meta.Object { return meta.NewUnstructured(gvk) }}
}

// TestReplaceResource swaps a resource's kinds in one step, refuses a
// bad set whole, and finds an unstructured object's kind by its
// apiVersion and kind.
func TestReplaceResource(t *testing.T) {
	s := meta.NewScheme()
	gr := meta.GroupResource{Group: "restaurant.example.com", Resource: "tables"}
	if err := s.ReplaceResource(gr, []meta.KindInfo{tableKind("v1")}, nil); err != nil {
		t.Fatal(err)
	}
	u := meta.NewUnstructured(meta.GroupVersionKind{Group: gr.Group, Version: "v1", Kind: "Table"})
	if info, err := s.KindFor(u); err != nil || !info.IsUnstructured() {
		t.Errorf("KindFor: %+v, %v", info, err)
	}
	bad := tableKind("V2") // not a DNS-1035 label
	if err := s.ReplaceResource(gr, []meta.KindInfo{bad}, nil); !meta.IsInvalid(err) {
		t.Errorf("a bad kind: %v, want 422", err)
	}
	if _, ok := s.KindForResource(meta.GroupVersionResource{Group: gr.Group, Version: "v1", Resource: "tables"}); !ok {
		t.Error("a refused replacement dropped what was served")
	}
	if err := s.ReplaceResource(gr, nil, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.KindFor(u); !meta.IsBadRequest(err) {
		t.Errorf("KindFor after removal: %v, want 400", err)
	}
}

func TestJSONPathValues(t *testing.T) {
	doc, _ := meta.DecodeJSONValue([]byte(`{"spec":{"seats":4,"a.b":"dot"},"status":{"conditions":[
		{"type":"Ready","status":"True"},{"type":"Synced","status":"False"}]},"items":[1,2,3]}`))
	for path, want := range map[string][]any{
		".spec.seats":   {int64(4)},
		"{.spec.seats}": {int64(4)},
		".spec['a.b']":  {"dot"},
		`.status.conditions[?(@.type=="Ready")].status`: {"True"},
		`.status.conditions[?(@.type!="Ready")].type`:   {"Synced"},
		".items[-1]":    {int64(3)},
		".items[*]":     {int64(1), int64(2), int64(3)},
		".nothing.here": nil,
		"spec[":         nil,
	} {
		if diff := cmp.Diff(want, meta.JSONPathValues(doc, path)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", path, diff)
		}
	}
}
