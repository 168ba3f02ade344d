package jsonenc

import (
	"bytes"
	"slices"
)

// AppendWithResourceVersion appends content, the JSON of an object with
// metadata.resourceVersion cleared, with that resourceVersion (rv, a
// decimal number) put back where json.Marshal writes it: the bytes
// json.Marshal makes of the object itself. ok is false, and nothing is
// appended, when content does not have the shape of a kind with
// ObjectMeta (see rvOffset) or rv is not a number.
func AppendWithResourceVersion(out, content []byte, rv string) (_ []byte, ok bool) {
	at, comma, ok := ResourceVersionPlace(content)
	if !ok {
		return out, false
	}
	return SpliceResourceVersion(out, content, at, comma, rv)
}

// ResourceVersionPlace is where AppendWithResourceVersion puts the
// resourceVersion in content: at offset at, with a comma before it
// (comma ','), after it ('>') or neither (0). A server that keeps
// content finds it once and splices with [SpliceResourceVersion].
func ResourceVersionPlace(content []byte) (at int, comma byte, ok bool) { return rvOffset(content) }

// SpliceResourceVersion is AppendWithResourceVersion at a place found
// by [ResourceVersionPlace] (at 0: none found).
func SpliceResourceVersion(out, content []byte, at int, comma byte, rv string) (_ []byte, ok bool) {
	if at <= 0 || at > len(content) || !isDigits(rv) {
		return out, false
	}
	out = slices.Grow(out, len(content)+len(`,"resourceVersion":"",`)+len(rv)) // once, not as it goes
	out = append(out, content[:at]...)
	if comma == ',' {
		out = append(out, ',')
	}
	out = append(out, `"resourceVersion":"`...)
	out = append(out, rv...)
	out = append(out, '"')
	if comma == '>' {
		out = append(out, ',')
	}
	return append(out, content[at:]...), true
}

// metaBeforeRV reports whether ObjectMeta writes key before
// resourceVersion.
func metaBeforeRV(key []byte) bool {
	switch string(key) {
	case "name", "generateName", "namespace", "uid":
		return true
	}
	return false
}

// rvOffset finds where resourceVersion goes in content, the JSON of an
// object with it cleared: at is the offset, and comma says whether a
// comma goes before the field (','), after it ('>') or neither (0). ok is
// false when content does not start {"apiVersion":..,"kind":..,
// "metadata":{ with only string fields before resourceVersion.
func rvOffset(content []byte) (at int, comma byte, ok bool) {
	const prefix = `"metadata":{`
	i := bytes.Index(content, []byte(prefix))
	if i < 0 || !bytes.HasPrefix(content, []byte(`{"apiVersion":`)) {
		return 0, 0, false
	}
	p := i + len(prefix)
	first := true
	for {
		if p >= len(content) {
			return 0, 0, false
		}
		if content[p] == '}' {
			if first {
				return p, 0, true
			}
			return p, ',', true
		}
		key, end, ok := scanString(content, p)
		if !ok || end >= len(content) || content[end] != ':' {
			return 0, 0, false
		}
		if !metaBeforeRV(key) {
			return p, '>', true
		}
		_, vend, ok := scanString(content, end+1)
		if !ok || vend >= len(content) {
			return 0, 0, false
		}
		p, first = vend, false
		if content[p] == ',' {
			p++
		} else if content[p] != '}' {
			return 0, 0, false
		}
	}
}

// scanString reads the JSON string starting at b[p] (a quote); end is the
// offset after its closing quote. The key is returned raw (only keys
// without escapes are compared).
func scanString(b []byte, p int) (s []byte, end int, ok bool) {
	if p >= len(b) || b[p] != '"' {
		return nil, 0, false
	}
	for q := p + 1; q < len(b); q++ {
		switch b[q] {
		case '\\':
			q++
		case '"':
			return b[p+1 : q], q + 1, true
		}
	}
	return nil, 0, false
}

func isDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
