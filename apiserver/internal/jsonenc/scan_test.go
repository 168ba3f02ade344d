package jsonenc_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver/internal/jsonenc"
)

// Member reads what json.Marshal writes: every member of an encoded
// document, however nested or escaped its values, is found whole.
func TestMemberFindsEveryMember(t *testing.T) {
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
		got, ok := jsonenc.Member(raw, key)
		if !ok {
			t.Fatalf("member %q not found in %s", key, raw)
		}
		wantRaw, _ := json.Marshal(want)
		if diff := cmp.Diff(string(wantRaw), string(got)); diff != "" {
			t.Errorf("member %q (-want +got):\n%s", key, diff)
		}
	}
	for _, bad := range []string{"", "{", "[]", `{"a"}`, `{"a":}`, `{"a":"x`, `{"a":[1,2}`, `{"a":1 "spec":2}`} {
		if got, ok := jsonenc.Member([]byte(bad), "spec"); ok {
			t.Errorf("jsonenc.Member(%q) = %q, want not found", bad, got)
		}
	}
	if _, ok := jsonenc.Member(raw, "missing"); ok {
		t.Error("found a member that is not there")
	}
}
