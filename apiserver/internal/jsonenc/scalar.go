package jsonenc

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

func encodeBool(_ *state, b []byte, p unsafe.Pointer) []byte { return appendBool(b, *(*bool)(p)) }

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

func intEncoder(size uintptr) encFunc {
	switch size {
	case 1:
		return func(_ *state, b []byte, p unsafe.Pointer) []byte { return strconv.AppendInt(b, int64(*(*int8)(p)), 10) }
	case 2:
		return func(_ *state, b []byte, p unsafe.Pointer) []byte {
			return strconv.AppendInt(b, int64(*(*int16)(p)), 10)
		}
	case 4:
		return func(_ *state, b []byte, p unsafe.Pointer) []byte {
			return strconv.AppendInt(b, int64(*(*int32)(p)), 10)
		}
	}
	return func(_ *state, b []byte, p unsafe.Pointer) []byte { return strconv.AppendInt(b, *(*int64)(p), 10) }
}

func uintEncoder(size uintptr) encFunc {
	switch size {
	case 1:
		return func(_ *state, b []byte, p unsafe.Pointer) []byte {
			return strconv.AppendUint(b, uint64(*(*uint8)(p)), 10)
		}
	case 2:
		return func(_ *state, b []byte, p unsafe.Pointer) []byte {
			return strconv.AppendUint(b, uint64(*(*uint16)(p)), 10)
		}
	case 4:
		return func(_ *state, b []byte, p unsafe.Pointer) []byte {
			return strconv.AppendUint(b, uint64(*(*uint32)(p)), 10)
		}
	}
	return func(_ *state, b []byte, p unsafe.Pointer) []byte { return strconv.AppendUint(b, *(*uint64)(p), 10) }
}

func encodeFloat32(s *state, b []byte, p unsafe.Pointer) []byte {
	return appendFloat(s, b, float64(*(*float32)(p)), 32)
}

func encodeFloat64(s *state, b []byte, p unsafe.Pointer) []byte {
	return appendFloat(s, b, *(*float64)(p), 64)
}

// appendFloat writes f as encoding/json does: the shortest decimal that
// reads back as f, in exponent form only below 1e-6 or from 1e21 on, with
// a one-digit negative exponent unpadded (1e-7, not 1e-07). NaN and the
// infinities fail s.
func appendFloat(s *state, b []byte, f float64, bits int) []byte {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		s.fail(&json.UnsupportedValueError{Str: strconv.FormatFloat(f, 'g', -1, bits)})
		return b
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	b = strconv.AppendFloat(b, f, format, -1, bits)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b
}

func encodeString(_ *state, b []byte, p unsafe.Pointer) []byte {
	return appendString(b, *(*string)(p))
}

func encodeBytes(_ *state, b []byte, p unsafe.Pointer) []byte {
	v := *(*[]byte)(p)
	if v == nil {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = base64.StdEncoding.AppendEncode(b, v)
	return append(b, '"')
}

var timeType = reflect.TypeFor[meta.Time]()

// encodeTime writes a meta.Time as its MarshalJSON does.
func encodeTime(_ *state, b []byte, p unsafe.Pointer) []byte {
	t := (*meta.Time)(p)
	if t.IsZero() {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, time.RFC3339)
	return append(b, '"')
}

// safe marks the ASCII bytes a JSON string holds as they are, when HTML
// is escaped (as json.Marshal escapes it): not the controls, '"', '\\',
// '<', '>' and '&'.
var safe = func() (t [utf8.RuneSelf]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string, as json.Marshal does: short
// escapes for quote, backslash, \b, \f, \n, \r and \t, \u00XX for the
// other controls and for <, > and &, \u2028 and \u2029 for those two
// line separators, and \ufffd for each byte of invalid UTF-8.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if safe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(append(b, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// omitFunc returns what decides whether a field of type t with the
// options omitempty and omitzero is left out, or nil if it never is.
func omitFunc(t reflect.Type, omitEmpty, omitZero bool, addressable bool) func(unsafe.Pointer) bool {
	var empty, zero func(unsafe.Pointer) bool
	if omitEmpty {
		empty = emptyFunc(t)
	}
	if omitZero {
		zero = zeroFunc(t, addressable)
	}
	switch {
	case empty == nil:
		return zero
	case zero == nil:
		return empty
	}
	return func(p unsafe.Pointer) bool { return empty(p) || zero(p) }
}

// emptyFunc is encoding/json's isEmptyValue for t: false, 0, a nil
// pointer or interface, and an empty string, array, slice or map; nil
// where no value of t is empty (a struct).
func emptyFunc(t reflect.Type) func(unsafe.Pointer) bool {
	switch t.Kind() {
	case reflect.String:
		return func(p unsafe.Pointer) bool { return *(*string)(p) == "" }
	case reflect.Bool:
		return func(p unsafe.Pointer) bool { return !*(*bool)(p) }
	case reflect.Slice:
		return func(p unsafe.Pointer) bool { return (*sliceHeader)(p).len == 0 }
	case reflect.Pointer, reflect.Interface:
		return func(p unsafe.Pointer) bool { return *(*unsafe.Pointer)(p) == nil }
	case reflect.Map:
		// len reads the same count from every map, whatever its key and
		// element types.
		return func(p unsafe.Pointer) bool { return len(*(*map[string]string)(p)) == 0 }
	case reflect.Array:
		if t.Len() == 0 {
			return func(unsafe.Pointer) bool { return true }
		}
		return nil
	case reflect.Float32:
		return func(p unsafe.Pointer) bool { return *(*float32)(p) == 0 }
	case reflect.Float64:
		return func(p unsafe.Pointer) bool { return *(*float64)(p) == 0 }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		switch t.Size() {
		case 1:
			return func(p unsafe.Pointer) bool { return *(*uint8)(p) == 0 }
		case 2:
			return func(p unsafe.Pointer) bool { return *(*uint16)(p) == 0 }
		case 4:
			return func(p unsafe.Pointer) bool { return *(*uint32)(p) == 0 }
		}
		return func(p unsafe.Pointer) bool { return *(*uint64)(p) == 0 }
	}
	return nil
}

type isZeroer interface{ IsZero() bool }

var isZeroerType = reflect.TypeFor[isZeroer]()

// zeroFunc is what omitzero asks of encoding/json for t: the value's
// IsZero method if it has one, reflect's IsZero otherwise.
func zeroFunc(t reflect.Type, addressable bool) func(unsafe.Pointer) bool {
	switch {
	case t == timeType:
		return func(p unsafe.Pointer) bool { return (*meta.Time)(p).IsZero() }
	case t.Kind() == reflect.Interface && t.Implements(isZeroerType):
		return func(p unsafe.Pointer) bool {
			v := reflect.NewAt(t, p).Elem()
			return v.IsNil() || (v.Elem().Kind() == reflect.Pointer && v.Elem().IsNil()) ||
				v.Interface().(isZeroer).IsZero()
		}
	case t.Kind() == reflect.Pointer && t.Implements(isZeroerType):
		return func(p unsafe.Pointer) bool {
			v := reflect.NewAt(t, p).Elem()
			return v.IsNil() || v.Interface().(isZeroer).IsZero()
		}
	case t.Implements(isZeroerType):
		return func(p unsafe.Pointer) bool { return reflect.NewAt(t, p).Elem().Interface().(isZeroer).IsZero() }
	case reflect.PointerTo(t).Implements(isZeroerType):
		return func(p unsafe.Pointer) bool {
			if addressable {
				return reflect.NewAt(t, p).Interface().(isZeroer).IsZero()
			}
			v := reflect.New(t) // a copy, as encoding/json boxes an unaddressable value
			v.Elem().Set(reflect.NewAt(t, p).Elem())
			return v.Interface().(isZeroer).IsZero()
		}
	case t.Kind() == reflect.String:
		return func(p unsafe.Pointer) bool { return *(*string)(p) == "" }
	}
	return func(p unsafe.Pointer) bool { return reflect.NewAt(t, p).Elem().IsZero() }
}
