package apiserver

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// jsonMember reads what json.Marshal writes: every member of an encoded
// document, however nested or escaped its values, is found whole.
func TestJSONMemberFindsEveryMember(t *testing.T) {
	doc := map[string]any{
		"a":    `x"},{"b":1`,
		"b":    []any{map[string]any{"spec": "no"}, "]", 1.5, nil, true},
		"spec": map[string]any{"size": 3, "tags": []string{"{", `\`}},
		"z":    false,
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range doc {
		got, ok := jsonMember(raw, key)
		if !ok {
			t.Fatalf("member %q not found in %s", key, raw)
		}
		wantRaw, _ := json.Marshal(want)
		if diff := cmp.Diff(string(wantRaw), string(got)); diff != "" {
			t.Errorf("member %q (-want +got):\n%s", key, diff)
		}
	}
	for _, bad := range []string{"", "{", "[]", `{"a"}`, `{"a":}`, `{"a":"x`, `{"a":[1,2}`, `{"a":1 "spec":2}`} {
		if got, ok := jsonMember([]byte(bad), "spec"); ok {
			t.Errorf("jsonMember(%q) = %q, want not found", bad, got)
		}
	}
	if _, ok := jsonMember(raw, "missing"); ok {
		t.Error("found a member that is not there")
	}
}

// setGeneration rewrites the generation in place, or into a longer or
// shorter document when its digits change in number, and gives up where
// there is none to rewrite.
func TestSetGenerationRewritesTheNumber(t *testing.T) {
	for _, tc := range []struct{ from, to int64 }{{1, 2}, {9, 10}, {10, 9}, {99, 100}} {
		m := meta.ObjectMeta{Name: "w", Generation: tc.from, Labels: map[string]string{"generation": "7"}}
		raw, _ := json.Marshal(map[string]any{"metadata": m, "spec": map[string]int{"generation": 5}})
		om, _ := jsonMember(raw, "metadata")
		got, _, _, ok := setGeneration(raw, om, tc.to)
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
	om, _ := jsonMember(raw, "metadata")
	if _, _, _, ok := setGeneration(raw, om, 1); ok {
		t.Error("rewrote a generation that is not there")
	}
	if _, _, _, ok := setGeneration(raw, nil, 1); ok {
		t.Error("rewrote a generation without knowing where metadata is")
	}
}
