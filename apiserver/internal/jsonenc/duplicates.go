package jsonenc

import (
	"slices"
	"strconv"
	"strings"
)

// DuplicateKeys returns the paths of the keys that appear more than once
// in one object of doc ("spec.color", "items[0].name"), in the order they
// repeat, as Kubernetes' strict decoding reports them (encoding/json
// keeps the last of the copies, silently). It reads the first JSON value
// of doc, in place, without decoding it; ok is false if that is not
// valid JSON.
func DuplicateKeys(doc []byte) (paths []string, ok bool) {
	w := duplicates{d: decoder{b: doc}}
	_, ok = w.value(0)
	return w.out, ok
}

// duplicates walks a document for DuplicateKeys.
type duplicates struct {
	d    decoder
	path []step // the members and items the walk is in
	out  []string
}

// step is a member (key) or an item (index, when item) of a path.
type step struct {
	key   string
	index int
	item  bool
}

// value walks the value at b[i] (after whitespace) and returns the index
// past it.
func (w *duplicates) value(i int) (int, bool) {
	b := w.d.b
	if i = skipSpace(b, i); i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '{':
		return w.object(i)
	case '[':
		return w.d.array(i, func(n, j int) (int, bool) {
			w.path = append(w.path, step{index: n, item: true})
			defer w.pop()
			return w.value(j)
		})
	case '"':
		j := skipString(b, i)
		return j, j > i
	case 't':
		return literal(b, i, "true")
	case 'f':
		return literal(b, i, "false")
	case 'n':
		return literal(b, i, "null")
	}
	j := skipNumber(b, i)
	return j, j > i
}

func (w *duplicates) pop() { w.path = w.path[:len(w.path)-1] }

// literal returns the index past lit if b has it at i.
func literal(b []byte, i int, lit string) (int, bool) {
	if len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit {
		return i + len(lit), true
	}
	return 0, false
}

// object walks the object at b[i], noting each key it has seen before.
func (w *duplicates) object(i int) (int, bool) {
	var seen []string        // a few keys: looked through
	var many map[string]bool // past manyKeys of them: looked up
	return w.d.object(i, func(k string, j int) (int, bool) {
		switch {
		case many[k] || many == nil && slices.Contains(seen, k):
			w.out = append(w.out, w.pathTo(k))
		case many != nil:
			many[k] = true
		case len(seen) == manyKeys:
			many = make(map[string]bool, 2*manyKeys)
			for _, s := range append(seen, k) {
				many[s] = true
			}
		default:
			seen = append(seen, k)
		}
		w.path = append(w.path, step{key: k})
		defer w.pop()
		return w.value(j)
	})
}

// manyKeys is how many keys an object's walk looks through before it
// keeps them in a map.
const manyKeys = 16

// pathTo is the path of member key of the object the walk is in: its
// members joined by dots, an item's index in brackets. It is a new
// string: the keys may be read from the document in place.
func (w *duplicates) pathTo(key string) string {
	var sb strings.Builder
	for _, s := range append(w.path, step{key: key}) {
		switch {
		case s.item:
			sb.WriteString("[" + strconv.Itoa(s.index) + "]")
		case sb.Len() > 0:
			sb.WriteString("." + s.key)
		default:
			sb.WriteString(s.key)
		}
	}
	return sb.String()
}
