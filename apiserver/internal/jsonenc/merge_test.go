package jsonenc_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/internal/jsonenc"
)

// decodeNumbers decodes JSON with its numbers as written.
func decodeNumbers(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return v
}

// mergeSame checks that MergePatch merges as json-patch does, or leaves
// the patch to it.
func mergeSame(t *testing.T, doc, patch string) {
	t.Helper()
	want, wantErr := jsonpatch.MergePatch([]byte(doc), []byte(patch))
	got, ok := jsonenc.MergePatch([]byte(doc), []byte(patch))
	if !ok {
		return
	}
	if wantErr != nil {
		t.Fatalf("MergePatch(%s, %s) = %s, json-patch fails: %v", doc, patch, got, wantErr)
	}
	if diff := cmp.Diff(decodeNumbers(t, want), decodeNumbers(t, got)); diff != "" {
		t.Fatalf("MergePatch(%s, %s) (-json-patch +jsonenc):\n%s", doc, patch, diff)
	}
}

func TestMergePatch(t *testing.T) {
	doc := `{"apiVersion":"v1","kind":"W","metadata":{"name":"a","labels":{"x":"1","a\u003cb":"2"}},"spec":{"size":3,"tags":["a"],"o":{"p":1},"n":null}}`
	for _, patch := range []string{
		`{}`, `{"spec":{"size":4}}`, `{"spec":null}`, `{"spec":{"o":null,"new":{"a":null,"b":[{"c":null,"d":1},null]}}}`,
		`{"spec":{"o":[{"x":null}]}}`, `{"spec":{"tags":{"a":null,"b":2}}}`, `{"spec":{"n":{"a":null,"b":1}}}`,
		`{"metadata":{"labels":{"a<b":null,"y":"3"}}}`, `{"z":{"k":null}}`, `{"z":null}`, `{"spec":{"size":12345678901234567890}}`,
		`{"spec":{"size":1.50}}`, `{"spec":"s"}`, `[1]`, `null`, `"s"`, `{"a":1} {"b":2}`, `{"a":1,"a":2}`,
		`{"Spec":{"size":9}}`, `{"spec":{"o":{"p":{"q":null}}}}`,
	} {
		mergeSame(t, doc, patch)
	}
}

func TestMergePatchRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 3000 {
		doc, err := jsonenc.Marshal(randomObject(r, 0))
		if err != nil {
			t.Fatal(err)
		}
		patch, err := json.Marshal(randomObject(r, 0))
		if err != nil {
			t.Fatal(err)
		}
		mergeSame(t, string(doc), string(patch))
	}
}

// randomObject is a small JSON object with nulls, nested objects and
// arrays, over a few keys so that documents and patches meet.
func randomObject(r *rand.Rand, depth int) map[string]any {
	m := map[string]any{}
	for range r.IntN(4) {
		m[[]string{"a", "b", "c", "<d>"}[r.IntN(4)]] = randomValue(r, depth+1)
	}
	return m
}

func randomValue(r *rand.Rand, depth int) any {
	switch n := r.IntN(7); {
	case n == 0:
		return nil
	case n == 1:
		return "s"
	case n == 2:
		return 1.5
	case n < 5 && depth < 4:
		return randomObject(r, depth)
	case n == 5 && depth < 4:
		return []any{randomValue(r, depth+1), randomObject(r, depth+1)}
	}
	return true
}
