package jsonenc_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver/internal/jsonenc"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// SetNumber rewrites a generation in place, or into a longer or
// shorter document when its digits change in number, and gives up where
// there is none to rewrite.
func TestSetNumberRewritesTheGeneration(t *testing.T) {
	for _, tc := range []struct{ from, to int64 }{{1, 2}, {9, 10}, {10, 9}, {99, 100}} {
		m := meta.ObjectMeta{Name: "w", Generation: tc.from, Labels: map[string]string{"generation": "7"}}
		raw, _ := json.Marshal(map[string]any{"metadata": m, "spec": map[string]int{"generation": 5}})
		om, _ := jsonenc.Member(raw, "metadata")
		got, _, _, ok := jsonenc.SetNumber(raw, om, "generation", tc.to)
		if !ok {
			t.Fatalf("%d -> %d: not rewritten", tc.from, tc.to)
		}
		m.Generation = tc.to
		want, _ := json.Marshal(map[string]any{"metadata": m, "spec": map[string]int{"generation": 5}})
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%d -> %d (-want +got):\n%s", tc.from, tc.to, diff)
		}
	}
	raw, _ := json.Marshal(map[string]any{"metadata": meta.ObjectMeta{Name: "w"}})
	om, _ := jsonenc.Member(raw, "metadata")
	if _, _, _, ok := jsonenc.SetNumber(raw, om, "generation", 1); ok {
		t.Error("rewrote a generation that is not there")
	}
	if _, _, _, ok := jsonenc.SetNumber(raw, nil, "generation", 1); ok {
		t.Error("rewrote a generation without knowing where metadata is")
	}
}
