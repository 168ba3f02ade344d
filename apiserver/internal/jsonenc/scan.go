package jsonenc

import (
	"bytes"
	"strconv"
)

// Reading encoded JSON: the server finds members of an object's stored
// JSON (its spec, its metadata.generation) without decoding it.

// Offset returns where sub, a subslice of b, starts in b.
func Offset(b, sub []byte) int {
	return cap(b) - cap(sub)
}

// Member returns the value of the member named key in doc, a JSON
// object as json.Marshal writes it (compact), or ok false if doc has no
// such member or is not such an object. The value is a subslice of doc.
func Member(doc []byte, key string) (value []byte, ok bool) {
	if len(doc) < 2 || doc[0] != '{' {
		return nil, false
	}
	return MemberFrom(doc, 1, key)
}

// MemberFrom is [Member] looking from the member that starts at
// doc[from] on.
func MemberFrom(doc []byte, from int, key string) (value []byte, ok bool) {
	for i := from; i < len(doc) && doc[i] == '"'; {
		k := skipString(doc, i)
		if k < 0 || k >= len(doc) || doc[k] != ':' {
			return nil, false
		}
		v := skipValue(doc, k+1)
		if v < 0 || v >= len(doc) {
			return nil, false
		}
		if string(doc[i+1:k-1]) == key {
			return doc[k+1 : v], true
		}
		if doc[v] != ',' {
			return nil, false
		}
		i = v + 1
	}
	return nil, false
}

// skipString returns the index just past the JSON string that starts
// at doc[i], or -1.
func skipString(doc []byte, i int) int {
	for j := i + 1; j < len(doc); {
		k := bytes.IndexByte(doc[j:], '"')
		if k < 0 {
			return -1
		}
		q := j + k
		b := q - 1 // an even number of backslashes before q: q ends the string
		for b > i && doc[b] == '\\' {
			b--
		}
		if (q-1-b)%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
	return -1
}

// skipValue returns the index just past the compact JSON value that
// starts at doc[i], or -1.
func skipValue(doc []byte, i int) int {
	if i >= len(doc) {
		return -1
	}
	switch doc[i] {
	case '"':
		return skipString(doc, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(doc); j++ {
			switch doc[j] {
			case '"':
				k := skipString(doc, j)
				if k < 0 {
					return -1
				}
				j = k - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i // a number, true, false or null
	for j < len(doc) && doc[j] != ',' && doc[j] != '}' && doc[j] != ']' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// SetNumber rewrites the number of member key of obj, an object inside
// doc (a subslice of it), to n: in place when n has as many digits, or
// in a copy of doc that is grew bytes longer (or shorter). at is where
// the number starts in doc; ok is false if obj has no such member.
func SetNumber(doc, obj []byte, key string, n int64) (out []byte, at, grew int, ok bool) {
	num, ok := Member(obj, key)
	if !ok {
		return nil, 0, 0, false
	}
	at = Offset(doc, num)
	var digits [20]byte
	d := strconv.AppendInt(digits[:0], n, 10)
	if len(d) == len(num) {
		copy(doc[at:], d)
		return doc, at, 0, true
	}
	out = make([]byte, 0, len(doc)-len(num)+len(d))
	out = append(append(append(out, doc[:at]...), d...), doc[at+len(num):]...)
	return out, at, len(d) - len(num), true
}
