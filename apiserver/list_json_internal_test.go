package apiserver

import (
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// TestRVOffset checks where the resourceVersion is spliced into stored
// content, including metadata that is empty, holds only the keys before
// it, or escapes in those keys' values.
func TestRVOffset(t *testing.T) {
	for _, tc := range []struct{ content, want string }{
		{`{"apiVersion":"v1","kind":"K","metadata":{}}`, `{"apiVersion":"v1","kind":"K","metadata":{"resourceVersion":"7"}}`},
		{`{"apiVersion":"v1","kind":"K","metadata":{"name":"a"}}`, `{"apiVersion":"v1","kind":"K","metadata":{"name":"a","resourceVersion":"7"}}`},
		{`{"apiVersion":"v1","kind":"K","metadata":{"name":"a\"}","uid":"u"},"spec":{}}`,
			`{"apiVersion":"v1","kind":"K","metadata":{"name":"a\"}","uid":"u","resourceVersion":"7"},"spec":{}}`},
		{`{"apiVersion":"v1","kind":"K","metadata":{"name":"a","generation":1}}`,
			`{"apiVersion":"v1","kind":"K","metadata":{"name":"a","resourceVersion":"7","generation":1}}`},
		{`{"apiVersion":"v1","kind":"K","metadata":{"labels":{}}}`, `{"apiVersion":"v1","kind":"K","metadata":{"resourceVersion":"7","labels":{}}}`},
	} {
		e := &entry{obj: &meta.Status{ObjectMeta: meta.ObjectMeta{ResourceVersion: "7"}}, content: []byte(tc.content)}
		got, err := appendEntryJSON(nil, e)
		if err != nil || string(got) != tc.want {
			t.Errorf("%s:\n got %s (%v)\nwant %s", tc.content, got, err, tc.want)
		}
	}
}
