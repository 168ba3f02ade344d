package jsonenc

import (
	"bytes"
	"unsafe"
)

// shareAtLeast is how long a string must be for [ShareAnnotations] to
// share it: shorter ones cost little twice.
const shareAtLeast = 64

// ShareAnnotations returns a copy of annotations, metadata.annotations of
// an object whose JSON is content, in which every long value that content
// holds as it is (no escapes) reads its bytes from content instead of
// keeping a copy of its own; or nil if there is none such. A server that
// keeps both an object and its JSON, as this one does, then holds a large
// annotation (kubectl's last-applied-configuration, say) once, not twice.
//
// content must never change afterwards. The map the object had is left as
// it was (someone else may hold it); the caller puts the copy in its
// place.
func ShareAnnotations(annotations map[string]string, content []byte) map[string]string {
	if !anyLong(annotations) {
		return nil
	}
	md, ok := Member(content, "metadata")
	if !ok {
		return nil
	}
	doc, ok := Member(md, "annotations")
	if !ok || len(doc) < 2 || doc[0] != '{' {
		return nil
	}
	var shared map[string]string
	for i := 1; i < len(doc) && doc[i] == '"'; {
		k := skipString(doc, i)
		if k < 0 || k >= len(doc) || doc[k] != ':' {
			return nil
		}
		v := skipValue(doc, k+1)
		if v < 0 || v >= len(doc) {
			return nil
		}
		key, raw := doc[i+1:k-1], doc[k+2:v-1] // unquoted: no escapes, or not compared
		if len(raw) >= shareAtLeast && bytes.IndexByte(raw, '\\') < 0 && annotations[string(key)] == string(raw) {
			if shared == nil {
				shared = make(map[string]string, len(annotations))
				for k, v := range annotations {
					shared[k] = v
				}
			}
			shared[string(key)] = unsafe.String(&raw[0], len(raw))
		}
		if doc[v] != ',' {
			break
		}
		i = v + 1
	}
	return shared
}

func anyLong(m map[string]string) bool {
	for _, v := range m {
		if len(v) >= shareAtLeast {
			return true
		}
	}
	return false
}
