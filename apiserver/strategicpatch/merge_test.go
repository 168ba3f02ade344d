package strategicpatch

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

func TestStrategicMerge(t *testing.T) {
	doc := `{"metadata":{"name":"x","finalizers":["a","b"],"labels":{"k":"v","gone":"x"},
		"ownerReferences":[{"uid":"1","name":"one"},{"uid":"2","name":"two"}]},
		"spec":{"holder":"me","lines":[{"name":"l1","n":1},{"name":"l2","n":2}],"tags":["t1"]}}`
	info := meta.KindInfo{ListMapKeys: map[string][]string{"spec.lines": {"name"}}}
	for _, tc := range []struct {
		name, patch, want string
	}{
		{"a merge patch where no list merges", `{"metadata":{"labels":{"gone":null,"new":"y"}},"spec":{"holder":"you","tags":["t2"]}}`,
			`{"metadata":{"name":"x","finalizers":["a","b"],"labels":{"k":"v","new":"y"},"ownerReferences":[{"uid":"1","name":"one"},{"uid":"2","name":"two"}]},
			"spec":{"holder":"you","lines":[{"name":"l1","n":1},{"name":"l2","n":2}],"tags":["t2"]}}`},
		{"finalizers merge as a set", `{"metadata":{"finalizers":["b","c"]}}`,
			`{"metadata":{"name":"x","finalizers":["a","b","c"],"labels":{"k":"v","gone":"x"},"ownerReferences":[{"uid":"1","name":"one"},{"uid":"2","name":"two"}]},
			"spec":{"holder":"me","lines":[{"name":"l1","n":1},{"name":"l2","n":2}],"tags":["t1"]}}`},
		{"deleteFromPrimitiveList and setElementOrder", `{"metadata":{"$deleteFromPrimitiveList/finalizers":["a"],"$setElementOrder/finalizers":["c","b"],"finalizers":["c"]}}`,
			`{"metadata":{"name":"x","finalizers":["c","b"],"labels":{"k":"v","gone":"x"},"ownerReferences":[{"uid":"1","name":"one"},{"uid":"2","name":"two"}]},
			"spec":{"holder":"me","lines":[{"name":"l1","n":1},{"name":"l2","n":2}],"tags":["t1"]}}`},
		{"keyed lists merge item by item", `{"metadata":{"ownerReferences":[{"uid":"2","name":"deux"},{"uid":"1","$patch":"delete"}]},
			"spec":{"lines":[{"name":"l3","n":3},{"name":"l1","n":10}]}}`,
			`{"metadata":{"name":"x","finalizers":["a","b"],"labels":{"k":"v","gone":"x"},"ownerReferences":[{"uid":"2","name":"deux"}]},
			"spec":{"holder":"me","lines":[{"name":"l1","n":10},{"name":"l2","n":2},{"name":"l3","n":3}],"tags":["t1"]}}`},
		{"$patch replace and $retainKeys", `{"metadata":{"labels":{"$patch":"replace","only":"this"}},"spec":{"$retainKeys":["holder"],"holder":"me"}}`,
			`{"metadata":{"name":"x","finalizers":["a","b"],"labels":{"only":"this"},"ownerReferences":[{"uid":"1","name":"one"},{"uid":"2","name":"two"}]},
			"spec":{"holder":"me"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Merge(info, []byte(doc), []byte(tc.patch))
			if err != nil {
				t.Fatal(err)
			}
			var g, w any
			if err := json.Unmarshal(got, &g); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(tc.want), &w); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(w, g); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestStrategicMergeBadPatches: bad directives and shapes are errors
// that say where, never a panic.
func TestStrategicMergeBadPatches(t *testing.T) {
	info := meta.KindInfo{ListMapKeys: map[string][]string{"spec.lines": {"name"}}}
	doc := `{"metadata":{"finalizers":[{"a":1}]},"spec":{"lines":[{"name":{"x":1}}]}}`
	for _, patch := range []string{
		`[]`,
		`{"spec":{"$unknown":1}}`,
		`{"spec":{"$patch":"merge"}}`,
		`{"spec":{"lines":["not an object"]}}`,
	} {
		if _, err := Merge(info, []byte(doc), []byte(patch)); !meta.IsBadRequest(err) {
			t.Errorf("%s: %v, want 400 BadRequest", patch, err)
		}
	}
	for _, patch := range []string{
		`{"metadata":{"finalizers":[{"a":1}],"$setElementOrder/finalizers":[{"a":1}],"$deleteFromPrimitiveList/finalizers":[{"b":1}]}}`,
		`{"spec":{"lines":[{"name":{"x":1},"n":2}],"$setElementOrder/lines":[{"name":{"x":1}}]}}`,
	} {
		if _, err := Merge(info, []byte(doc), []byte(patch)); err != nil {
			t.Errorf("%s: %v", patch, err)
		}
	}
}

// FuzzStrategicMerge: no patch makes strategicMerge panic, and what it
// returns without an error is JSON. Run longer with
// go test -run '^$' -fuzz FuzzStrategicMerge -fuzztime 1m ./apiserver/
func FuzzStrategicMerge(f *testing.F) {
	doc := `{"metadata":{"finalizers":["a",{"b":1}],"ownerReferences":[{"uid":"1"},{"uid":{"x":[1]}}]},"spec":{"lines":[{"name":"l1"},[1]],"tags":[1,"x"]}}`
	for _, seed := range []string{`{}`, `{"metadata":{"$setElementOrder/finalizers":[{"b":1},"a"],"$deleteFromPrimitiveList/finalizers":[{"b":1}]}}`,
		`{"spec":{"lines":[{"$patch":"replace"},{"name":"x"}],"$retainKeys":[{"a":1},"lines"]}}`,
		`{"metadata":{"ownerReferences":[{"uid":{"x":[1]},"$patch":"delete"}],"$setElementOrder/ownerReferences":[{"uid":{"x":[1]}}]}}`} {
		f.Add(seed)
	}
	info := meta.KindInfo{ListMapKeys: map[string][]string{"spec.lines": {"name"}}}
	f.Fuzz(func(t *testing.T, patch string) {
		out, err := Merge(info, []byte(doc), []byte(patch))
		if err == nil && !json.Valid(out) {
			t.Fatalf("not JSON: %s", out)
		}
	})
}
