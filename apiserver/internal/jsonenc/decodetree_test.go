package jsonenc_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/internal/jsonenc"
)

// DecodeTree decodes a JSON object as json.Decoder with UseNumber does,
// and declines, decoding nothing, what is not one JSON object.
func TestDecodeTree(t *testing.T) {
	w := apiservertest.NewWidget("ns", "w")
	w.Labels = map[string]string{"app": "bench"}
	w.Spec.Tags = []string{"a", "b"}
	w.Spec.Size = 3
	widget, err := jsonenc.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range []string{string(widget), ` { "a" : [ 1, -2.5e3, true, false, null, {"b": {}} ], "c": "ü", "a": 2 } `, `{}`, `{"a":"\n\u00e9"}`, "{\"a\":\"\xff\"}"} {
		var want map[string]any
		dec := json.NewDecoder(bytes.NewReader([]byte(doc)))
		dec.UseNumber()
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		got, ok := jsonenc.DecodeTree([]byte(doc))
		if !ok {
			t.Errorf("DecodeTree(%s) declined", doc)
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("DecodeTree(%s) (-encoding/json +DecodeTree):\n%s", doc, diff)
		}
	}
	for _, doc := range []string{`[]`, `null`, `"s"`, `{"a":1} {}`, `{"a":1`, `{"a":01}`, `{"a":tru}`, ``} {
		if got, ok := jsonenc.DecodeTree([]byte(doc)); ok || got != nil {
			t.Errorf("DecodeTree(%q) = %v, %v; want nil, false", doc, got, ok)
		}
	}
}
