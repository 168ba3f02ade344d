package jsonenc

import (
	"cmp"
	"reflect"
	"slices"
	"unsafe"
)

// mapEncoder returns the encoder of a map type with string keys (sorted,
// as encoding/json sorts them), or nil for other keys (json.Marshal
// encodes those maps).
func mapEncoder(t reflect.Type) encFunc {
	if t.Key().Kind() != reflect.String {
		return nil
	}
	elem := t.Elem()
	switch {
	case elem.Kind() == reflect.String && elem != numberType && !hasMarshaler(elem):
		// The same memory as a map[string]string, whatever the names of
		// its key and element types.
		return func(_ *state, b []byte, p unsafe.Pointer) []byte { return encodeMapString(b, *(*map[string]string)(p)) }
	case elem == anyType:
		return func(s *state, b []byte, p unsafe.Pointer) []byte { return encodeMapAny(s, b, *(*map[string]any)(p)) }
	}
	enc := encoderFor(elem, false)
	return func(s *state, b []byte, p unsafe.Pointer) []byte {
		m := reflect.NewAt(t, p).Elem()
		if m.IsNil() {
			return append(b, "null"...)
		}
		if !s.enter() {
			return b
		}
		type kv struct {
			k string
			v reflect.Value
		}
		entries := make([]kv, 0, m.Len())
		for it := m.MapRange(); it.Next(); {
			entries = append(entries, kv{it.Key().String(), it.Value()})
		}
		slices.SortFunc(entries, func(a, b kv) int { return cmp.Compare(a.k, b.k) })
		tmp := reflect.New(elem)
		b = append(b, '{')
		for i, e := range entries {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(appendString(b, e.k), ':')
			tmp.Elem().Set(e.v)
			b = enc(s, b, tmp.UnsafePointer())
		}
		s.leave()
		return append(b, '}')
	}
}

// smallMap is how many entries a map may have for its keys to be sorted
// on the stack.
const smallMap = 16

type stringPair struct{ k, v string }

func encodeMapString(b []byte, m map[string]string) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	var buf [smallMap]stringPair
	pairs := buf[:0]
	if len(m) > smallMap {
		pairs = make([]stringPair, 0, len(m))
	}
	for k, v := range m {
		pairs = append(pairs, stringPair{k, v})
	}
	if len(pairs) <= smallMap {
		for i := 1; i < len(pairs); i++ { // insertion sort: a few keys
			for j := i; j > 0 && pairs[j].k < pairs[j-1].k; j-- {
				pairs[j], pairs[j-1] = pairs[j-1], pairs[j]
			}
		}
	} else {
		slices.SortFunc(pairs, func(a, b stringPair) int { return cmp.Compare(a.k, b.k) })
	}
	b = append(b, '{')
	for i, kv := range pairs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendString(b, kv.k), ':')
		b = appendString(b, kv.v)
	}
	return append(b, '}')
}

type anyPair struct {
	k string
	v any
}

func encodeMapAny(s *state, b []byte, m map[string]any) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	if !s.enter() {
		return b
	}
	var buf [smallMap]anyPair
	pairs := buf[:0]
	if len(m) > smallMap {
		pairs = make([]anyPair, 0, len(m))
	}
	for k, v := range m {
		pairs = append(pairs, anyPair{k, v})
	}
	slices.SortFunc(pairs, func(a, b anyPair) int { return cmp.Compare(a.k, b.k) })
	b = append(b, '{')
	for i, kv := range pairs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendString(b, kv.k), ':')
		b = encodeAny(s, b, kv.v)
	}
	s.leave()
	return append(b, '}')
}
