package jsonenc

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// decodeAnySame checks that decodeAny decodes b as json.Decoder with
// UseNumber does, value and validity, one value and nothing after it.
func decodeAnySame(t *testing.T, b string) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(b))
	dec.UseNumber()
	var want any
	err := dec.Decode(&want)
	if err == nil && !json.Valid([]byte(b)) {
		err = json.Unmarshal([]byte(b), new(any)) // a second value, or garbage after the first
	}
	got, end, ok := decodeAny([]byte(b), 0, 1)
	ok = ok && skipSpace([]byte(b), end) == len(b)
	if ok != (err == nil) {
		t.Fatalf("decodeAny(%q): ok %v, encoding/json: %v", b, ok, err)
	}
	if ok && !reflect.DeepEqual(want, got) { // cmp.Diff only then: deep values take it long
		t.Fatalf("decodeAny(%q) (-encoding/json +decodeAny):\n%s", b, cmp.Diff(want, got))
	}
}

func TestDecodeAny(t *testing.T) {
	for _, b := range []string{
		`{}`, ` { "a" : 1 , "b":[ ] ,"c" :{ } } `, "{\n\t\"a\":\r\n[1, 2.5e-3, -0, 0.0, 1E+2, true, false, null]}",
		`{"a":1,"a":{"b":2}}`, `{"a":{"b":2},"a":3}`, `"s"`, `12`, `-`, `01`, `1.`, `.5`, `1e`, `1e+`, `-x`, `+1`,
		`{"a":"\u00e9\n\"\\/\ud83d\ude00"}`, `{"a":"\ud800"}`, "{\"a\":\"\xff\xfe\"}", "{\"a\":\"\x01\"}",
		"{\"\xe9\":1}", `{"a":1,}`, `{"a":1 "b":2}`, `{"a"}`, `{"a":}`, `[1,]`, `[,1]`, `{`, `[`, `"`, `tru`, `nul`,
		`nullx`, `{} {}`, `{}x`, `{"a":1}}`, ``, ` `, `[[[]]]`, `{"a":[{"b":null}]}`, `123456789012345678901234567890`,
	} {
		decodeAnySame(t, b)
	}
	deep := strings.Repeat("[", maxNesting) + strings.Repeat("]", maxNesting)
	decodeAnySame(t, deep)
	decodeAnySame(t, "["+deep+"]")
}

// Random documents, valid and broken a byte at a time.
func TestDecodeAnyRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 3000 {
		b, err := json.Marshal(randomAny(r, 0))
		if err != nil {
			t.Fatal(err)
		}
		decodeAnySame(t, string(b))
		indented := bytes.ReplaceAll(b, []byte(","), []byte(" ,\n "))
		decodeAnySame(t, string(indented))
		if len(b) > 0 {
			broken := bytes.Clone(b)
			broken[r.IntN(len(b))] = `{}[]",:1e-. \x`[r.IntN(14)]
			decodeAnySame(t, string(broken))
		}
	}
}

func randomAny(r *rand.Rand, depth int) any {
	switch n := r.IntN(9); {
	case n == 0:
		return nil
	case n == 1:
		return []string{"s", "é", "a\"b", "<>&", "\u2028", "\\", ""}[r.IntN(7)]
	case n == 2:
		return []float64{1.5, -0.25, 1e21, 3, 0, -7e-9}[r.IntN(6)]
	case n == 3:
		return r.IntN(2) == 0
	case n < 7 && depth < 4:
		m := map[string]any{}
		for range r.IntN(4) {
			m[[]string{"a", "b", "é", "<d>", ""}[r.IntN(5)]] = randomAny(r, depth+1)
		}
		return m
	case depth < 4:
		a := make([]any, r.IntN(3))
		for i := range a {
			a[i] = randomAny(r, depth+1)
		}
		return a
	}
	return "leaf"
}
