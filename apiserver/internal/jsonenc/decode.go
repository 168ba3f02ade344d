package jsonenc

import (
	"encoding/json"
	"reflect"
	"strconv"
	"sync"
	"time"
	"unsafe"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Decoding mirrors encoding: a decoder per type, built once by
// reflection, that writes the value's memory directly. It decodes what a
// stored object's JSON is made of, and gives up, for json.Unmarshal to
// decode the whole document again, on anything else: a key that is not
// a field's exact name (encoding/json would try it case-insensitively,
// or skip it), a key twice, a type error, a []byte, an array, a type that
// unmarshals itself from text, a json.Number, a field with `json:",string"`.

// Unmarshal decodes data into v, a pointer to a zero value (as a kind's
// New makes), and returns what json.Unmarshal(data, v) returns. When it
// gives up (see above), it zeroes what it wrote and calls json.Unmarshal,
// so that v ends as json.Unmarshal leaves it. For any other v it calls
// json.Unmarshal.
func Unmarshal(data []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer && !rv.IsNil() && rv.Elem().IsZero() {
		d := decoder{b: data}
		if end, ok := decoderFor(rv.Type().Elem())(&d, rv.UnsafePointer(), 0); ok && skipSpace(data, end) == len(data) {
			return nil
		}
		rv.Elem().SetZero() // nothing it wrote is shared: every map, slice and pointer is new
	}
	return json.Unmarshal(data, v)
}

// decoder is one decoding's input and nesting depth.
type decoder struct {
	b     []byte
	depth int
}

// decFunc decodes the JSON value at d.b[i] (after whitespace) into the
// zero value at p, and returns the index past it, or ok false to give up.
type decFunc func(d *decoder, p unsafe.Pointer, i int) (next int, ok bool)

var decoders sync.Map // reflect.Type -> decFunc

// decoderFor returns the decoder of t, building it once, recursive types
// as encoderFor builds their encoders.
func decoderFor(t reflect.Type) decFunc {
	if f, ok := decoders.Load(t); ok {
		return f.(decFunc)
	}
	var (
		wg sync.WaitGroup
		f  decFunc
	)
	wg.Add(1)
	fi, loaded := decoders.LoadOrStore(t, decFunc(func(d *decoder, p unsafe.Pointer, i int) (int, bool) {
		wg.Wait()
		return f(d, p, i)
	}))
	if loaded {
		return fi.(decFunc)
	}
	f = newDecoder(t)
	wg.Done()
	decoders.Store(t, f)
	return f
}

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[interface{ UnmarshalText([]byte) error }]()
	stringMapType       = reflect.TypeFor[map[string]string]()
)

// newDecoder builds the decoder of t; see decoderFor.
func newDecoder(t reflect.Type) decFunc {
	pt := reflect.PointerTo(t)
	switch {
	case t == timeType:
		return decodeTime
	case pt.Implements(unmarshalerType):
		return unmarshalerDecoder(t)
	case pt.Implements(textUnmarshalerType), t == numberType:
		return giveUp
	}
	switch k := t.Kind(); {
	case k == reflect.Bool:
		return decodeBool
	case k >= reflect.Int && k <= reflect.Int64:
		return intDecoder(t.Size())
	case k >= reflect.Uint && k <= reflect.Uintptr:
		return uintDecoder(t.Size())
	case k == reflect.Float32 || k == reflect.Float64:
		return floatDecoder(t.Bits())
	case k == reflect.String:
		return decodeStringValue
	case k == reflect.Struct:
		return structDecoder(t)
	case k == reflect.Map && t == stringMapType:
		return decodeStringMap
	case k == reflect.Map && t.Key().Kind() == reflect.String && !reflect.PointerTo(t.Key()).Implements(textUnmarshalerType):
		return mapDecoder(t)
	case k == reflect.Slice && t.Elem().Kind() != reflect.Uint8:
		return sliceDecoder(t)
	case k == reflect.Pointer:
		return pointerDecoder(t)
	case k == reflect.Interface && t.NumMethod() == 0:
		return decodeInterface
	}
	return giveUp
}

func giveUp(*decoder, unsafe.Pointer, int) (int, bool) { return 0, false }

// null reports whether the value at b[i] is null.
func null(b []byte, i int) bool {
	return len(b)-i >= 4 && string(b[i:i+4]) == "null"
}

// enter and leave count a level of nesting, as encoding/json limits it.
func (d *decoder) enter() bool {
	d.depth++
	return d.depth <= maxNesting
}

func (d *decoder) leave() { d.depth-- }

// decodeBool, like every decoder of a scalar, leaves the value as it is
// for null, as encoding/json does.
func decodeBool(d *decoder, p unsafe.Pointer, i int) (int, bool) {
	switch i = skipSpace(d.b, i); {
	case null(d.b, i):
		return i + 4, true
	case len(d.b)-i >= 4 && string(d.b[i:i+4]) == "true":
		*(*bool)(p) = true
		return i + 4, true
	case len(d.b)-i >= 5 && string(d.b[i:i+5]) == "false":
		return i + 5, true
	}
	return 0, false
}

// number returns the number at b[i] as a string that is only read.
func number(b []byte, i int) (string, int, bool) {
	end := skipNumber(b, i)
	if end == i {
		return "", 0, false
	}
	return unsafe.String(&b[i], end-i), end, true
}

func intDecoder(size uintptr) decFunc {
	return func(d *decoder, p unsafe.Pointer, i int) (int, bool) {
		if i = skipSpace(d.b, i); null(d.b, i) {
			return i + 4, true
		}
		s, end, ok := number(d.b, i)
		n, err := strconv.ParseInt(s, 10, int(8*size))
		if !ok || err != nil {
			return 0, false
		}
		switch size {
		case 1:
			*(*int8)(p) = int8(n)
		case 2:
			*(*int16)(p) = int16(n)
		case 4:
			*(*int32)(p) = int32(n)
		default:
			*(*int64)(p) = n
		}
		return end, true
	}
}

func uintDecoder(size uintptr) decFunc {
	return func(d *decoder, p unsafe.Pointer, i int) (int, bool) {
		if i = skipSpace(d.b, i); null(d.b, i) {
			return i + 4, true
		}
		s, end, ok := number(d.b, i)
		n, err := strconv.ParseUint(s, 10, int(8*size))
		if !ok || err != nil {
			return 0, false
		}
		switch size {
		case 1:
			*(*uint8)(p) = uint8(n)
		case 2:
			*(*uint16)(p) = uint16(n)
		case 4:
			*(*uint32)(p) = uint32(n)
		default:
			*(*uint64)(p) = n
		}
		return end, true
	}
}

func floatDecoder(bits int) decFunc {
	return func(d *decoder, p unsafe.Pointer, i int) (int, bool) {
		if i = skipSpace(d.b, i); null(d.b, i) {
			return i + 4, true
		}
		s, end, ok := number(d.b, i)
		f, err := strconv.ParseFloat(s, bits)
		if !ok || err != nil {
			return 0, false
		}
		if bits == 32 {
			*(*float32)(p) = float32(f)
		} else {
			*(*float64)(p) = f
		}
		return end, true
	}
}

func decodeStringValue(d *decoder, p unsafe.Pointer, i int) (int, bool) {
	if i = skipSpace(d.b, i); null(d.b, i) {
		return i + 4, true
	}
	s, end, ok := readString(d.b, i)
	if ok {
		*(*string)(p) = s
	}
	return end, ok
}

// decodeTime decodes a meta.Time as its UnmarshalJSON does, without the
// json.Unmarshal of the string it makes.
func decodeTime(d *decoder, p unsafe.Pointer, i int) (int, bool) {
	if i = skipSpace(d.b, i); null(d.b, i) {
		return i + 4, true
	}
	s, end, ok := readString(d.b, i)
	if !ok {
		return 0, false
	}
	parsed, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return 0, false
	}
	(*meta.Time)(p).Time = parsed.Local()
	return end, true
}

// unmarshalerDecoder hands the value, null included, to t's
// UnmarshalJSON, as encoding/json does to a value it can address.
func unmarshalerDecoder(t reflect.Type) decFunc {
	return func(d *decoder, p unsafe.Pointer, i int) (int, bool) {
		i = skipSpace(d.b, i)
		end, ok := d.valueEnd(i)
		if !ok || reflect.NewAt(t, p).Interface().(json.Unmarshaler).UnmarshalJSON(d.b[i:end]) != nil {
			return 0, false
		}
		return end, true
	}
}

// decodeInterface decodes into an empty interface with json.Unmarshal:
// into one, encoding/json makes maps of float64s that no decoder here
// makes.
func decodeInterface(d *decoder, p unsafe.Pointer, i int) (int, bool) {
	if i = skipSpace(d.b, i); null(d.b, i) {
		return i + 4, true
	}
	end, ok := d.valueEnd(i)
	if !ok || json.Unmarshal(d.b[i:end], (*any)(p)) != nil {
		return 0, false
	}
	return end, true
}

// valueEnd returns the index past the valid JSON value at d.b[i].
func (d *decoder) valueEnd(i int) (int, bool) {
	_, end, ok := decodeAny(d.b, i, d.depth+1)
	return end, ok
}

func pointerDecoder(t reflect.Type) decFunc {
	elem := t.Elem()
	dec := decoderFor(elem)
	return func(d *decoder, p unsafe.Pointer, i int) (int, bool) {
		if i = skipSpace(d.b, i); null(d.b, i) {
			return i + 4, true
		}
		v := reflect.New(elem)
		end, ok := dec(d, v.UnsafePointer(), i)
		if ok {
			*(*unsafe.Pointer)(p) = v.UnsafePointer()
		}
		return end, ok
	}
}
