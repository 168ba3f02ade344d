package jsonenc

import (
	"reflect"
	"strings"
	"sync"
	"unicode"
	"unsafe"
)

// structEncoder encodes a struct's fields in encoding/json's order.
type structEncoder struct {
	fields []field
}

// field is one member of a struct's encoding.
type field struct {
	name   string  // the member's key, as a JSON string
	key    string  // `"name":`, escaped as encoding/json escapes it
	offset uintptr // from the start of the outermost struct
	typ    reflect.Type
	enc    encFunc
	omit   func(p unsafe.Pointer) bool // nil: never left out
}

var structEncoders sync.Map // typeKey -> *structEncoder, or nil when json.Marshal must encode the struct

// structEncoderFor returns the encoder of the struct type t, or nil if
// its fields are beyond this package (see buildStruct).
func structEncoderFor(t reflect.Type, addressable bool) *structEncoder {
	k := typeKey{t, addressable}
	if se, ok := structEncoders.Load(k); ok {
		return se.(*structEncoder)
	}
	se := buildStruct(t, addressable)
	structEncoders.Store(k, se)
	return se
}

func (se *structEncoder) encode(s *state, b []byte, p unsafe.Pointer) []byte {
	return se.encodeMembers(s, b, p, nil)
}

// encodeMembers is encode, noting where the values of m's members lie
// if m is not nil.
func (se *structEncoder) encodeMembers(s *state, b []byte, p unsafe.Pointer, m *Members) []byte {
	b = append(b, '{')
	first := true
	for i := range se.fields {
		f := &se.fields[i]
		fp := unsafe.Add(p, f.offset)
		if f.omit != nil && f.omit(fp) {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, f.key...)
		start := len(b)
		b = f.enc(s, b, fp)
		if m != nil {
			m.note(f.name, start, len(b))
		}
	}
	return append(b, '}')
}

// buildStruct lists t's fields as encoding/json does, or returns nil
// (json.Marshal then encodes the struct) where its rules go beyond what
// is done here: two fields that claim one name (encoding/json's rules of
// dominance), an embedded pointer, a `json:",string"` field.
func buildStruct(t reflect.Type, addressable bool) *structEncoder {
	var fields []field
	if !collectFields(t, 0, addressable, &fields) {
		return nil
	}
	seen := make(map[string]bool, len(fields))
	for _, f := range fields {
		if seen[f.name] {
			return nil
		}
		seen[f.name] = true
	}
	return &structEncoder{fields: fields}
}

// collectFields appends the fields of the struct t, at offset in the
// outermost struct, in encoding/json's order (that of the fields,
// embedded structs' in the place of the embedding field).
func collectFields(t reflect.Type, offset uintptr, addressable bool, out *[]field) bool {
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Anonymous {
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				if !sf.IsExported() && ft.Elem().Kind() != reflect.Struct {
					continue
				}
				return false // an embedded pointer: nil or not, encoding/json's to decide
			}
			if !sf.IsExported() && ft.Kind() != reflect.Struct {
				continue
			}
		} else if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if !validTag(name) {
			name = ""
		}
		if hasOption(opts, "string") {
			return false
		}
		if name == "" && sf.Anonymous && sf.Type.Kind() == reflect.Struct {
			if !collectFields(sf.Type, offset+sf.Offset, addressable, out) {
				return false
			}
			continue
		}
		if name == "" {
			name = sf.Name
		}
		*out = append(*out, field{
			name:   name,
			key:    string(appendString(nil, name)) + ":",
			offset: offset + sf.Offset,
			typ:    sf.Type,
			enc:    encoderFor(sf.Type, addressable),
			omit:   omitFunc(sf.Type, hasOption(opts, "omitempty"), hasOption(opts, "omitzero"), addressable),
		})
	}
	return true
}

// hasOption reports whether the comma-separated options include name.
func hasOption(opts, name string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == name {
			return true
		}
	}
	return false
}

// validTag reports whether encoding/json takes s as a member name: letters,
// digits and punctuation other than backslash and quotes.
func validTag(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// MemberName is the member name json.Marshal gives the struct field f,
// or "" if it leaves the field out or flattens it into its parent.
func MemberName(f reflect.StructField) string {
	tag := f.Tag.Get("json")
	name, _, _ := strings.Cut(tag, ",")
	switch {
	case tag == "-" || (!f.IsExported() && !f.Anonymous):
		return ""
	case validTag(name):
		return name
	case f.Anonymous && (f.Type.Kind() == reflect.Struct || f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.Struct):
		return ""
	}
	return f.Name
}
