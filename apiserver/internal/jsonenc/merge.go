package jsonenc

import (
	"bytes"
	"encoding/json"
	"slices"
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
	p, ok := decodePatch(patch)
	if !ok || len(doc) < 2 || doc[0] != '{' {
		return nil, false
	}
	var s state
	out, ok = mergeObject(&s, make([]byte, 0, len(doc)+len(patch)), doc, p)
	return out, ok && s.err == nil
}

// decodePatch decodes a patch that is a JSON object, its numbers kept as
// written.
func decodePatch(patch []byte) (map[string]any, bool) {
	dec := json.NewDecoder(bytes.NewReader(patch))
	dec.UseNumber()
	var p map[string]any
	if err := dec.Decode(&p); err != nil || p == nil {
		return nil, false
	}
	if _, err := dec.Token(); err == nil { // more than one value
		return nil, false
	}
	return p, true
}

// mergeObject appends to b the object doc (compact, as json.Marshal
// writes it) with the object patch p merged in.
func mergeObject(s *state, b, doc []byte, p map[string]any) ([]byte, bool) {
	b = append(b, '{')
	first := true
	member := func(key []byte) {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(append(b, key...), ':')
	}
	seen := make(map[string]bool, len(p))
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
		name, ok := keyOf(rawKey)
		if !ok {
			return nil, false
		}
		pv, patched := p[name]
		switch {
		case !patched:
			member(rawKey)
			b = append(b, value...)
		case pv == nil: // removed
		default:
			seen[name] = true
			member(rawKey)
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
	added := make([]string, 0, len(p))
	for name, pv := range p {
		if !seen[name] && pv != nil {
			added = append(added, name)
		}
	}
	slices.Sort(added)
	for _, name := range added {
		member(appendString(nil, name))
		b = encodeAny(s, b, pruneNulls(p[name]))
	}
	return append(b, '}'), true
}

// keyOf is the name a JSON string (quotes included) holds.
func keyOf(raw []byte) (string, bool) {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), true
	}
	var name string
	err := json.Unmarshal(raw, &name)
	return name, err == nil
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
