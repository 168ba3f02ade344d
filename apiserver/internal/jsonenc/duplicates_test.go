package jsonenc_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/internal/jsonenc"
)

// duplicatesByTokens is the reference for DuplicateKeys: the same walk
// over encoding/json's tokens.
func duplicatesByTokens(doc []byte) ([]string, bool) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	var out []string
	var walk func(path string) error
	join := func(path, key string) string {
		if path == "" {
			return key
		}
		return path + "." + key
	}
	walk = func(path string) error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				key, err := dec.Token()
				if err != nil {
					return err
				}
				k, _ := key.(string)
				if seen[k] {
					out = append(out, join(path, k))
				}
				seen[k] = true
				if err := walk(join(path, k)); err != nil {
					return err
				}
			}
			_, err = dec.Token()
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if err := walk(fmt.Sprintf("%s[%d]", path, i)); err != nil {
					return err
				}
			}
			_, err = dec.Token()
		}
		return err
	}
	if err := walk(""); err != nil {
		return nil, false
	}
	return out, true
}

// DuplicateKeys finds what encoding/json's tokens show repeated, in the
// same order, in documents with repeats at every depth, in arrays, with
// escaped keys, whitespace, and objects of more keys than it looks
// through; and declines what is not JSON.
func TestDuplicateKeys(t *testing.T) {
	docs := []string{
		`{"a":1,"b":{"c":[{"d":1,"d":2},{"e":{"f":true,"f":null}}]},"a":"x"}`,
		` { "a" : 1 , "\u0061" : 2 , "" : { "" : 1 , "" : [ ] } } `,
		`[{"x":1},{"x":1,"x":2}]`,
		`{"spec":{"color":"red","color":"blue","size":-1.5e3},"metadata":{"labels":{"k":"v","k":"w"}}}`,
		`{}`, `[]`, `"s"`, `1`,
	}
	var many strings.Builder
	many.WriteString("{")
	for i := range 40 {
		fmt.Fprintf(&many, `"k%d":%d,`, i%25, i)
	}
	many.WriteString(`"last":1}`)
	docs = append(docs, many.String())
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		docs = append(docs, randomDoc(r, 4))
	}
	for _, doc := range docs {
		want, wantOK := duplicatesByTokens([]byte(doc))
		got, ok := jsonenc.DuplicateKeys([]byte(doc))
		if ok != wantOK || !cmp.Equal(got, want) {
			t.Fatalf("DuplicateKeys(%s) = %q, %v; encoding/json's tokens: %q, %v", doc, got, ok, want, wantOK)
		}
	}
	for _, doc := range []string{`{"a":1`, `{"a" 1}`, `[1,]`, `{"a":tru}`, ``, `{"a":1,}`} {
		if got, ok := jsonenc.DuplicateKeys([]byte(doc)); ok {
			t.Errorf("DuplicateKeys(%q) = %q, true; want false", doc, got)
		}
	}
}

// randomDoc is a random JSON value, objects drawing their keys from a few
// so that they repeat.
func randomDoc(r *rand.Rand, depth int) string {
	switch n := r.IntN(6); {
	case depth == 0 || n == 0:
		return []string{`1`, `"s"`, `true`, `null`, `-0.5`, `"\u00e9"`}[r.IntN(6)]
	case n <= 3:
		var parts []string
		for range r.IntN(5) {
			key := []string{`"a"`, `"b"`, `"\u0061"`, `""`, `"c d"`}[r.IntN(5)]
			parts = append(parts, key+":"+randomDoc(r, depth-1))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	default:
		var parts []string
		for range r.IntN(4) {
			parts = append(parts, randomDoc(r, depth-1))
		}
		return "[ " + strings.Join(parts, ",") + " ]"
	}
}
