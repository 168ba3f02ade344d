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
// in a buffer on the caller's stack.
const smallMap = 16

// pair is one entry of a map with string keys.
type pair[V any] struct {
	k string
	v V
}

// sorted returns m's entries sorted by key, in buf if they fit.
func sorted[V any](m map[string]V, buf []pair[V]) []pair[V] {
	pairs := buf[:0]
	for k, v := range m {
		pairs = append(pairs, pair[V]{k, v})
	}
	if len(pairs) > smallMap {
		slices.SortFunc(pairs, func(a, b pair[V]) int { return cmp.Compare(a.k, b.k) })
		return pairs
	}
	for i := 1; i < len(pairs); i++ { // insertion sort: a few keys
		for j := i; j > 0 && pairs[j].k < pairs[j-1].k; j-- {
			pairs[j], pairs[j-1] = pairs[j-1], pairs[j]
		}
	}
	return pairs
}

func encodeMapString(b []byte, m map[string]string) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	var buf [smallMap]pair[string]
	b = append(b, '{')
	for i, kv := range sorted(m, buf[:]) {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendString(b, kv.k), ':')
		b = appendString(b, kv.v)
	}
	return append(b, '}')
}

func encodeMapAny(s *state, b []byte, m map[string]any) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	if !s.enter() {
		return b
	}
	var buf [smallMap]pair[any]
	b = append(b, '{')
	for i, kv := range sorted(m, buf[:]) {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendString(b, kv.k), ':')
		b = encodeAny(s, b, kv.v)
	}
	s.leave()
	return append(b, '}')
}
