package jsonenc

import (
	"bytes"
	"encoding/json"
	"slices"
	"unsafe"
)

// MergePatch applies the JSON merge patch (RFC 7386) patch, a JSON
// object, to doc, a JSON object as json.Marshal writes it, as
// github.com/evanphx/json-patch's MergePatch does (kube-apiserver's):
// a null removes a member, an object merges into an object, anything
// else replaces the member, and what the patch adds (or puts in place of
// a member that is not an object) loses its null members, in objects
// nested in arrays too. The result is a JSON object with the same
// members, not the same bytes: what it is for is decoding.
//
// It reads doc where it lies, and decodes only the patch, where
// json-patch decodes and encodes both. ok is false where it does not
// apply (a patch that is not an object, or is not valid JSON): the
// caller then asks json-patch, whose answer, error or not, stands.
func MergePatch(doc, patch []byte) (out []byte, ok bool) {
	p, ok := DecodeTree(patch)
	if !ok || len(doc) < 2 || doc[0] != '{' {
		return nil, false
	}
	var s state
	out, ok = mergeObject(&s, make([]byte, 0, len(doc)+len(patch)), doc, p)
	return out, ok && s.err == nil
}

// mergeObject appends to b the object doc (compact, as json.Marshal
// writes it) with the object patch p merged in.
func mergeObject(s *state, b, doc []byte, p map[string]any) ([]byte, bool) {
	b = append(b, '{')
	first := true
	comma := func() {
		if !first {
			b = append(b, ',')
		}
		first = false
	}
	keys := make([]string, 0, len(p)) // sorted, so that a doc's key is found without a string of its own
	for name := range p {
		keys = append(keys, name)
	}
	slices.Sort(keys)
	seen := make([]bool, len(keys))
	for i := 1; i < len(doc) && doc[i] == '"'; {
		k := skipString(doc, i)
		if k < 0 || k >= len(doc) || doc[k] != ':' {
			return nil, false
		}
		v := skipValue(doc, k+1)
		if v < 0 || v >= len(doc) {
			return nil, false
		}
		rawKey, value := doc[i:k], doc[k+1:v]
		at, patched, ok := patchKey(keys, rawKey)
		if !ok {
			return nil, false
		}
		switch {
		case !patched:
			comma()
			b = append(append(append(b, rawKey...), ':'), value...)
		case p[keys[at]] == nil: // removed
		default:
			pv := p[keys[at]]
			seen[at] = true
			comma()
			b = append(append(b, rawKey...), ':')
			pm, isObject := pv.(map[string]any)
			switch {
			case isObject && value[0] == '{':
				if b, ok = mergeObject(s, b, value, pm); !ok {
					return nil, false
				}
			case value[0] == '{':
				b = encodeAny(s, b, pv) // an object replaced by a non-object: as it is
			default:
				b = encodeAny(s, b, pruneNulls(pv))
			}
		}
		if doc[v] != ',' {
			break
		}
		i = v + 1
	}
	for at, name := range keys {
		if pv := p[name]; !seen[at] && pv != nil {
			comma()
			b = append(appendString(b, name), ':')
			b = encodeAny(s, b, pruneNulls(pv))
		}
	}
	return append(b, '}'), true
}

// patchKey finds the name the JSON string raw (quotes included) holds
// among keys, which are sorted: at is its index, found whether it is
// there; ok is false if raw does not decode.
func patchKey(keys []string, raw []byte) (at int, found, ok bool) {
	if bytes.IndexByte(raw, '\\') >= 0 {
		var name string
		if err := json.Unmarshal(raw, &name); err != nil {
			return 0, false, false
		}
		at, found = slices.BinarySearch(keys, name)
		return at, found, true
	}
	at, found = slices.BinarySearch(keys, unsafe.String(unsafe.SliceData(raw[1:]), len(raw)-2)) // read in place, never kept
	return at, found, true
}

// pruneNulls returns v without the null members of its objects, however
// deep, arrays' included, as json-patch prunes what a merge patch adds.
func pruneNulls(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			if e != nil {
				out[k] = pruneNulls(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = pruneNulls(e)
		}
		return out
	}
	return v
}
