package jsonenc

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// The decoders of objects and arrays. Each makes its map or slice anew:
// Unmarshal decodes into a zero value, and gives up on a key met twice,
// so nothing is ever decoded into what an earlier member made.

// structDecoder decodes an object into the fields encoding/json finds in
// t (the encoder's list of them), by exact name.
func structDecoder(t reflect.Type) decFunc {
	se := structEncoderFor(t, true)
	if se == nil || len(se.fields) > 64 {
		return giveUp
	}
	type dfield struct {
		offset uintptr
		dec    decFunc
	}
	byName := make(map[string]int, len(se.fields))
	fields := make([]dfield, len(se.fields))
	for n, f := range se.fields {
		byName[f.name] = n
		fields[n] = dfield{f.offset, decoderFor(f.typ)}
	}
	return func(d *decoder, p unsafe.Pointer, i int) (int, bool) {
		var seen uint64
		return d.object(i, func(key string, j int) (int, bool) {
			n, ok := byName[key]
			if !ok || seen&(1<<n) != 0 {
				return 0, false
			}
			seen |= 1 << n
			return fields[n].dec(d, unsafe.Add(p, fields[n].offset), j)
		})
	}
}

// object reads the object at d.b[i] (null: none), calling member with
// each key and the index of its value; member returns the index past
// the value. The key may be read from d.b in place: a member that keeps
// it clones it.
func (d *decoder) object(i int, member func(key string, j int) (int, bool)) (int, bool) {
	b := d.b
	if i = skipSpace(b, i); null(b, i) {
		return i + 4, true
	}
	if i >= len(b) || b[i] != '{' || !d.enter() {
		return 0, false
	}
	defer d.leave()
	if i = skipSpace(b, i+1); i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for {
		key, j, _, ok := readKey(b, i)
		if j = skipSpace(b, j); !ok || j >= len(b) || b[j] != ':' {
			return 0, false
		}
		if j, ok = member(key, j+1); !ok {
			return 0, false
		}
		if j = skipSpace(b, j); j >= len(b) {
			return 0, false
		}
		switch b[j] {
		case '}':
			return j + 1, true
		case ',':
			i = skipSpace(b, j+1)
		default:
			return 0, false
		}
	}
}

// decodeStringMap decodes a map[string]string (labels, annotations)
// without reflection.
func decodeStringMap(d *decoder, p unsafe.Pointer, i int) (int, bool) {
	var m map[string]string
	end, ok := d.object(i, func(key string, j int) (int, bool) {
		if m == nil {
			m = make(map[string]string)
		}
		if _, dup := m[key]; dup {
			return 0, false
		}
		var v string
		end, ok := decodeStringValue(d, unsafe.Pointer(&v), j)
		m[strings.Clone(key)] = v
		return end, ok
	})
	if ok && m == nil && !null(d.b, skipSpace(d.b, i)) {
		m = map[string]string{} // {}: an empty map, not nil
	}
	if ok {
		*(*map[string]string)(p) = m
	}
	return end, ok
}

func mapDecoder(t reflect.Type) decFunc {
	kt, et := t.Key(), t.Elem()
	dec := decoderFor(et)
	return func(d *decoder, p unsafe.Pointer, i int) (int, bool) {
		if i = skipSpace(d.b, i); null(d.b, i) {
			return i + 4, true
		}
		m := reflect.MakeMap(t)
		end, ok := d.object(i, func(key string, j int) (int, bool) {
			k := reflect.ValueOf(strings.Clone(key)).Convert(kt)
			if m.MapIndex(k).IsValid() {
				return 0, false
			}
			v := reflect.New(et)
			end, ok := dec(d, v.UnsafePointer(), j)
			m.SetMapIndex(k, v.Elem())
			return end, ok
		})
		if ok {
			reflect.NewAt(t, p).Elem().Set(m)
		}
		return end, ok
	}
}

// sliceDecoder decodes an array into a new slice, [] into an empty one
// (not nil), as encoding/json does. It grows the slice in place (the
// target's own header, so no header is boxed), one element at a time as
// encoding/json does: the same capacities.
func sliceDecoder(t reflect.Type) decFunc {
	dec, size := decoderFor(t.Elem()), t.Elem().Size()
	// Its loop is [decoder.array]'s, written out: through array, the
	// closure for the items costs an allocation per slice (6 more, and
	// 5-17% more time, for an Order).
	return func(d *decoder, p unsafe.Pointer, i int) (int, bool) {
		b := d.b
		if i = skipSpace(b, i); null(b, i) {
			return i + 4, true
		}
		if i >= len(b) || b[i] != '[' || !d.enter() {
			return 0, false
		}
		defer d.leave()
		s := reflect.NewAt(t, p).Elem()
		if i = skipSpace(b, i+1); i < len(b) && b[i] == ']' {
			s.Set(reflect.MakeSlice(t, 0, 0))
			return i + 1, true
		}
		for n := 0; ; n++ {
			if n == s.Cap() {
				s.Grow(1)
			}
			s.SetLen(n + 1)
			j, ok := dec(d, unsafe.Add(s.UnsafePointer(), uintptr(n)*size), i)
			if j = skipSpace(b, j); !ok || j >= len(b) {
				return 0, false
			}
			switch b[j] {
			case ']':
				return j + 1, true
			case ',':
				i = j + 1
			default:
				return 0, false
			}
		}
	}
}

// array reads the array at d.b[i] (null: none), calling item with each
// item's position n and the index j of its value; item returns the index
// past the value.
func (d *decoder) array(i int, item func(n, j int) (int, bool)) (int, bool) {
	b := d.b
	if i = skipSpace(b, i); null(b, i) {
		return i + 4, true
	}
	if i >= len(b) || b[i] != '[' || !d.enter() {
		return 0, false
	}
	defer d.leave()
	if i = skipSpace(b, i+1); i < len(b) && b[i] == ']' {
		return i + 1, true
	}
	for n := 0; ; n++ {
		j, ok := item(n, i)
		if j = skipSpace(b, j); !ok || j >= len(b) {
			return 0, false
		}
		switch b[j] {
		case ']':
			return j + 1, true
		case ',':
			i = j + 1
		default:
			return 0, false
		}
	}
}

// readString returns the string at b[i] decoded, and the index past it:
// as it is, if it has no escapes and is valid UTF-8, else as
// encoding/json unquotes it.
func readString(b []byte, i int) (string, int, bool) {
	s, j, inPlace, ok := readKey(b, i)
	if inPlace {
		s = strings.Clone(s)
	}
	return s, j, ok
}

// readKey is readString, but a string that needs no unescaping is read
// from b in place (inPlace), not copied.
func readKey(b []byte, i int) (s string, next int, inPlace, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return "", 0, false, false
	}
	j := skipString(b, i)
	if j < 0 {
		return "", 0, false, false
	}
	raw := b[i+1 : j-1]
	plain := bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw)
	for _, c := range raw {
		plain = plain && c >= ' '
	}
	if plain {
		return unsafe.String(unsafe.SliceData(raw), len(raw)), j, true, true
	}
	var unquoted string // not s: its address would put every s on the heap
	if err := json.Unmarshal(b[i:j], &unquoted); err != nil {
		return "", 0, false, false
	}
	return unquoted, j, false, true
}
