package apiserver_test

import (
	"errors"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

func TestJSONPatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		f.create(t, "a", "red", nil)
		got, err := f.widgets.Patch(f.ctx, "a", meta.JSONPatchType, []byte(`[
			{"op":"test","path":"/spec/color","value":"red"},
			{"op":"add","path":"/spec/size","value":3},
			{"op":"add","path":"/spec/tags","value":["hot"]},
			{"op":"add","path":"/status","value":{"phase":"ignored"}}]`), meta.PatchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := apiservertest.WidgetSpec{Color: "red", Size: 3, Tags: []string{"hot"}}
		if diff := cmp.Diff(want, got.Spec); diff != "" || got.Status.Phase != "" || got.Generation != 2 {
			t.Errorf("patched: spec diff (-want +got) %s status %+v generation %d", diff, got.Status, got.Generation)
		}
		_, err = f.widgets.Patch(f.ctx, "a", meta.JSONPatchType, []byte(`[{"op":"test","path":"/spec/color","value":"blue"}]`), meta.PatchOptions{})
		if !meta.IsInvalid(err) || err.Error() != "the server rejected our request due to an error in our request" {
			t.Errorf("a failed test operation = %v, want kube-apiserver's 422 Invalid", err)
		}
		// As kube-apiserver's json-patch v4 does, a replace of a key the
		// object lacks adds it; of an array index past the end, fails.
		got, err = f.widgets.Patch(f.ctx, "a", meta.JSONPatchType, []byte(`[{"op":"replace","path":"/metadata/labels","value":{"x":"y"}}]`), meta.PatchOptions{})
		if err != nil || got.Labels["x"] != "y" {
			t.Errorf("replace of a missing key = %v, labels %v; want it added", err, got.Labels)
		}
		_, err = f.widgets.Patch(f.ctx, "a", meta.JSONPatchType, []byte(`[{"op":"replace","path":"/spec/tags/1","value":"cold"}]`), meta.PatchOptions{})
		if !meta.IsInvalid(err) {
			t.Errorf("replace past the end of an array = %v, want 422 Invalid", err)
		}
	})
}

// A patch of the status subresource stores only the status, whatever the
// patch says about spec, and leaves the generation alone.
func TestPatchStatus(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		f.create(t, "a", "red", nil)
		for _, p := range []struct {
			pt   meta.PatchType
			data string
		}{
			{meta.MergePatchType, `{"status":{"phase":"Ready"},"spec":{"size":9}}`},
			{meta.JSONPatchType, `[{"op":"add","path":"/status","value":{"phase":"Ready"}},{"op":"add","path":"/spec/size","value":9}]`},
		} {
			got, err := f.widgets.Patch(f.ctx, "a", p.pt, []byte(p.data), meta.PatchOptions{}, "status")
			if err != nil {
				t.Fatalf("%s: %v", p.pt, err)
			}
			if got.Status.Phase != "Ready" || got.Spec.Size != 0 || got.Generation != 1 {
				t.Errorf("%s: status %+v, spec %+v, generation %d; want only the status patched", p.pt, got.Status, got.Spec, got.Generation)
			}
		}
		gadgets := f.srv.Resource(apiservertest.GadgetsResource)
		if _, err := gadgets.Create(f.ctx, apiservertest.NewGadget("g"), meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		for _, sub := range [][]string{{"status"}, {"scale"}} {
			_, err := gadgets.Patch(f.ctx, "g", meta.MergePatchType, []byte(`{}`), meta.PatchOptions{}, sub...)
			var se *meta.StatusError
			if !errors.As(err, &se) || !meta.IsNotFound(err) || se.ErrStatus.Details.Kind != "gadgets/"+sub[0] {
				t.Errorf("patch of gadgets/%s = %v, want 404 NotFound for the resource gadgets/%[1]s", sub[0], err)
			}
		}
	})
}

func TestPatchRefusesBadPatches(t *testing.T) {
	copies := strings.Repeat(`{"op":"copy","from":"/spec/tags","path":"/spec/tags/-"},`, 40)
	tooMany := strings.Repeat(`{"op":"test","path":"/spec/size","value":0},`, 10_001)
	tests := []struct {
		name, patch string
		pt          meta.PatchType
		is          func(error) bool
		want        string
	}{
		// Copies that double the document each time stop at the copy
		// limit long before they can exhaust memory.
		{"copies are capped", "[" + strings.TrimSuffix(copies, ",") + "]", meta.JSONPatchType,
			meta.IsInvalid, "the server rejected our request due to an error in our request"},
		{"operations are capped", "[" + strings.TrimSuffix(tooMany, ",") + "]", meta.JSONPatchType,
			meta.IsTooLarge, "the JSON patch has 10001 operations; at most 10000 are allowed"},
		{"a JSON patch that is not a list", `{"op":"add"}`, meta.JSONPatchType,
			meta.IsBadRequest, "error decoding patch: json: cannot unmarshal object"},
		{"a JSON patch that changes the kind", `[{"op":"replace","path":"/kind","value":"Gadget"}]`, meta.JSONPatchType,
			meta.IsBadRequest, "a patch cannot change apiVersion or kind"},
		{"a JSON patch that renames", `[{"op":"replace","path":"/metadata/name","value":"b"}]`, meta.JSONPatchType,
			meta.IsBadRequest, `the name of the object (b) does not match the name on the URL (a)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, apiserver.Options{})
			w := apiservertest.NewWidget("ns", "a")
			w.Spec.Tags = []string{strings.Repeat("x", 1000)}
			if _, err := f.widgets.Create(f.ctx, w, meta.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			_, err := f.widgets.Patch(f.ctx, "a", tt.pt, []byte(tt.patch), meta.PatchOptions{})
			if !tt.is(err) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Patch = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}
