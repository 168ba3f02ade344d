package jsonenc

import (
	"bytes"
	"unsafe"
)

// shareAtLeast is how long a string must be for [ShareAnnotations] to
// share it: shorter ones cost little twice.
const shareAtLeast = 64

// ShareAnnotations makes every long value of annotations
// (metadata.annotations of an object whose JSON is content) that content
// holds as it is (no escapes) read its bytes from content instead of
// keeping a copy of its own, and reports how many it changed. A server
// that keeps both an object and its JSON, as this one does, then holds a
// large annotation (kubectl's last-applied-configuration, say) once, not
// twice.
//
// It changes annotations in place, without allocating: the map must be
// the caller's alone (an object that is not shared yet). content must
// never change afterwards.
func ShareAnnotations(annotations map[string]string, content []byte) int {
	if !anyLong(annotations) {
		return 0
	}
	md, ok := Member(content, "metadata")
	if !ok {
		return 0
	}
	doc, ok := Member(md, "annotations")
	if !ok || len(doc) < 2 || doc[0] != '{' {
		return 0
	}
	shared := 0
	for i := 1; i < len(doc) && doc[i] == '"'; {
		k := skipString(doc, i)
		if k < 0 || k >= len(doc) || doc[k] != ':' {
			return shared
		}
		v := skipValue(doc, k+1)
		if v < 0 || v >= len(doc) {
			return shared
		}
		key, raw := doc[i+1:k-1], doc[k+2:v-1] // unquoted: no escapes, or not compared
		if len(raw) >= shareAtLeast && bytes.IndexByte(raw, '\\') < 0 && annotations[string(key)] == string(raw) {
			setExisting(annotations, key, unsafe.String(&raw[0], len(raw)))
			shared++
		}
		if doc[v] != ',' {
			break
		}
		i = v + 1
	}
	return shared
}

// setExisting sets the value of m's key that equals key, reusing m's own
// key string: m[string(key)] = v would allocate a string for key.
func setExisting(m map[string]string, key []byte, v string) {
	for k := range m {
		if k == string(key) {
			m[k] = v
			return
		}
	}
}

func anyLong(m map[string]string) bool {
	for _, v := range m {
		if len(v) >= shareAtLeast {
			return true
		}
	}
	return false
}
