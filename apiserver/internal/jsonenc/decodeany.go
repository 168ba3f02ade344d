package jsonenc

import (
	"bytes"
	"encoding/json"
)

// Some JSON is wanted as a tree, not as a typed value: a merge patch
// (MergePatch walks it beside the document), the field manager's view of
// an object, a request body whose fields are checked one by one. It is
// small, and json.Decoder's reader, scanner and reflection cost more than
// the tree: decodeAny decodes it directly, into what json.Decoder with
// UseNumber makes of it (map[string]any, []any, string, json.Number,
// bool, nil), and leaves to encoding/json only the unquoting of a string
// with escapes or other than valid UTF-8.

// DecodeTree decodes b, a JSON object and nothing more (but whitespace),
// into what json.Decoder with UseNumber makes of it: map[string]any,
// []any, string, json.Number, bool and nil, numbers kept as written,
// strings unquoted as encoding/json unquotes them. It reports false,
// having decoded nothing, for anything else: decode that with
// encoding/json, which says what is wrong.
func DecodeTree(b []byte) (map[string]any, bool) {
	v, end, ok := decodeAny(b, 0, 1)
	tree, isObject := v.(map[string]any)
	if !ok || !isObject || skipSpace(b, end) != len(b) {
		return nil, false
	}
	return tree, true
}

// maxNesting is encoding/json's limit on nested objects and arrays.
const maxNesting = 10000

// decodeAny decodes the JSON value that starts at b[i] (after
// whitespace), inside depth-1 objects and arrays, and returns it and the
// index past it; ok is false for anything but valid JSON.
func decodeAny(b []byte, i, depth int) (v any, next int, ok bool) {
	i = skipSpace(b, i)
	if i >= len(b) || depth > maxNesting && (b[i] == '{' || b[i] == '[') {
		return nil, 0, false
	}
	switch c := b[i]; {
	case c == '{':
		return decodeObject(b, i, depth)
	case c == '[':
		return decodeArray(b, i, depth)
	case c == '"':
		return decodeString(b, i)
	case c == 't' && bytes.HasPrefix(b[i:], []byte("true")):
		return true, i + 4, true
	case c == 'f' && bytes.HasPrefix(b[i:], []byte("false")):
		return false, i + 5, true
	case c == 'n' && bytes.HasPrefix(b[i:], []byte("null")):
		return nil, i + 4, true
	case c == '-' || '0' <= c && c <= '9':
		if j := skipNumber(b, i); j > i {
			return json.Number(b[i:j]), j, true
		}
	}
	return nil, 0, false
}

// skipNumber returns the index past the JSON number that starts at b[i]
// (-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?), or i if there is none.
func skipNumber[T ~string | ~[]byte](b T, i int) int {
	digits := func(j int) int {
		for j < len(b) && '0' <= b[j] && b[j] <= '9' {
			j++
		}
		return j
	}
	j := i
	if j < len(b) && b[j] == '-' {
		j++
	}
	switch {
	case j < len(b) && b[j] == '0':
		j++
	case j < len(b) && '1' <= b[j] && b[j] <= '9':
		j = digits(j)
	default:
		return i
	}
	if j < len(b) && b[j] == '.' {
		if k := digits(j + 1); k > j+1 {
			j = k
		} else {
			return i
		}
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		k := j + 1
		if k < len(b) && (b[k] == '+' || b[k] == '-') {
			k++
		}
		if e := digits(k); e > k {
			j = e
		} else {
			return i
		}
	}
	return j
}

// decodeObject decodes the object that starts at b[i].
func decodeObject(b []byte, i, depth int) (any, int, bool) {
	m := map[string]any{}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return m, i + 1, true
	}
	for i < len(b) {
		k, j, ok := decodeString(b, skipSpace(b, i))
		if j = skipSpace(b, j); !ok || j >= len(b) || b[j] != ':' {
			return nil, 0, false
		}
		v, j, ok := decodeAny(b, j+1, depth+1)
		if j = skipSpace(b, j); !ok || j >= len(b) {
			return nil, 0, false
		}
		m[k.(string)] = v
		switch b[j] {
		case '}':
			return m, j + 1, true
		case ',':
			i = j + 1
		default:
			return nil, 0, false
		}
	}
	return nil, 0, false
}

// decodeArray decodes the array that starts at b[i].
func decodeArray(b []byte, i, depth int) (any, int, bool) {
	a := []any{}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return a, i + 1, true
	}
	for i < len(b) {
		v, j, ok := decodeAny(b, i, depth+1)
		if j = skipSpace(b, j); !ok || j >= len(b) {
			return nil, 0, false
		}
		a = append(a, v)
		switch b[j] {
		case ']':
			return a, j + 1, true
		case ',':
			i = j + 1
		default:
			return nil, 0, false
		}
	}
	return nil, 0, false
}

// decodeString decodes the string that starts at b[i] (see readString).
func decodeString(b []byte, i int) (any, int, bool) {
	s, end, ok := readString(b, i)
	return s, end, ok
}

// skipSpace returns the index of the first byte at or after b[i] that
// is not JSON whitespace.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
