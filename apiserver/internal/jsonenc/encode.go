package jsonenc

import (
	"encoding/json"
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"
)

// state is one encoding under way: how deep it is in pointers, slices
// and maps, and the first failure, after which the bytes no longer
// matter (the caller asks json.Marshal instead).
type state struct {
	depth int
	err   error
}

// maxDepth is how many pointers, slices and maps deep an encoding goes
// before it gives up and lets json.Marshal decide (which reports a cycle
// as an error, and encodes a deep value that has none).
const maxDepth = 1000

func (s *state) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

// enter and leave count one level of depth; enter reports false (and
// fails s) past maxDepth.
func (s *state) enter() bool {
	if s.depth++; s.depth > maxDepth {
		s.fail(errTooDeep)
		return false
	}
	return true
}

func (s *state) leave() { s.depth-- }

type tooDeep struct{}

func (tooDeep) Error() string { return "jsonenc: too deep" }

var errTooDeep error = tooDeep{}

// encFunc appends the encoding of the value at p to b. The bytes travel
// in b, not in s (which is on the heap), so that appending to them writes
// no pointer to memory.
type encFunc func(s *state, b []byte, p unsafe.Pointer) []byte

// Span is where one member's value lies in an encoding: [Start, End).
// End 0 means it is not known.
type Span struct{ Start, End int }

// Members names up to two top-level members of a struct whose values
// [MarshalMembers] locates in its result.
type Members struct {
	Names [2]string
	// At are where the values of Names lie, after MarshalMembers; a
	// zero Span where the object has no such member, or where the struct
	// was not encoded by this package (json.Marshal did it).
	At [2]Span
}

// note records that the value of the member name lies at [start, end),
// if it is one of m's.
func (m *Members) note(name string, start, end int) {
	for j, n := range m.Names {
		if n != "" && n == name {
			m.At[j] = Span{start, end}
		}
	}
}

// scratch is what Marshal encodes with: a state, and the buffer it
// encodes into before it copies the result out at its exact size, as
// json.Marshal does.
type scratch struct {
	s state
	b []byte
}

var scratches = sync.Pool{New: func() any { return new(scratch) }}

// Marshal returns the bytes json.Marshal(v) returns, and its error.
func Marshal(v any) ([]byte, error) { return MarshalMembers(v, nil) }

// MarshalMembers is [Marshal], and, if v is a pointer to a struct and m
// is not nil, also says where the values of m's members lie in the result.
func MarshalMembers(v any, m *Members) ([]byte, error) {
	sc := scratches.Get().(*scratch)
	if m != nil {
		m.At = [2]Span{}
	}
	s := &sc.s
	*s = state{}
	b := encodeTop(s, sc.b[:0], v, m)
	var out []byte
	var err error
	if s.err != nil {
		out, err = json.Marshal(v)
		if m != nil {
			m.At = [2]Span{}
		}
	} else {
		out = make([]byte, len(b))
		copy(out, b)
	}
	if cap(b) <= 1<<16 {
		sc.b, sc.s = b, state{}
		scratches.Put(sc)
	}
	return out, err
}

// Append appends the bytes json.Marshal(v) returns to dst; on an error
// it returns dst as it was, and json.Marshal's error.
func Append(dst []byte, v any) ([]byte, error) {
	var s state
	b := encodeTop(&s, dst, v, nil)
	if s.err == nil {
		return b, nil
	}
	enc, err := json.Marshal(v)
	if err != nil {
		return dst, err
	}
	return append(dst, enc...), nil
}

// top is how a value of a type is encoded when it is what Marshal was
// given: a pointer to a struct (the usual case) by the struct's encoder.
type top struct {
	t       reflect.Type
	pointer bool           // a pointer without a marshaler of its own
	st      *structEncoder // the struct it points to, if one
	enc     encFunc        // the encoder of what it points to, or (not pointer) of the type
}

var (
	tops    sync.Map // reflect.Type -> *top
	lastTop atomic.Pointer[top]
)

func topFor(t reflect.Type) *top {
	if tp := lastTop.Load(); tp != nil && tp.t == t {
		return tp // a server encodes one kind many times in a row
	}
	if tp, ok := tops.Load(t); ok {
		lastTop.Store(tp.(*top))
		return tp.(*top)
	}
	tp := &top{t: t}
	if t.Kind() == reflect.Pointer && !hasMarshaler(t) {
		tp.pointer = true
		tp.enc = encoderFor(t.Elem(), true)
		if t.Elem().Kind() == reflect.Struct && t.Elem() != timeType && !hasMarshaler(t.Elem()) {
			tp.st = structEncoderFor(t.Elem(), true)
		}
	} else {
		tp.enc = encoderFor(t, false)
	}
	tops.Store(t, tp)
	return tp
}

// encodeTop encodes v as json.Marshal does: v itself is not addressable,
// what a pointer points to is.
func encodeTop(s *state, b []byte, v any, m *Members) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	rv := reflect.ValueOf(v)
	tp := topFor(rv.Type())
	switch {
	case !tp.pointer:
		tmp := reflect.New(rv.Type())
		tmp.Elem().Set(rv)
		return tp.enc(s, b, tmp.UnsafePointer())
	case rv.IsNil():
		return append(b, "null"...)
	case tp.st != nil && m != nil:
		return tp.st.encodeMembers(s, b, rv.UnsafePointer(), m)
	case tp.st != nil:
		return tp.st.encode(s, b, rv.UnsafePointer())
	}
	return tp.enc(s, b, rv.UnsafePointer())
}

// typeKey names a type's encoder: addressable says whether the values it
// encodes are addressable in encoding/json's sense (reached through a
// pointer or a slice), which decides whether a MarshalJSON with a pointer
// receiver is called.
type typeKey struct {
	t           reflect.Type
	addressable bool
}

var encoders sync.Map // typeKey -> encFunc

// encoderFor returns the encoder of t, building it once. A recursive type
// finds its own encoder, while it is being built, through an indirection
// that waits for it, as encoding/json's cache does.
func encoderFor(t reflect.Type, addressable bool) encFunc {
	k := typeKey{t, addressable}
	if f, ok := encoders.Load(k); ok {
		return f.(encFunc)
	}
	var (
		wg sync.WaitGroup
		f  encFunc
	)
	wg.Add(1)
	fi, loaded := encoders.LoadOrStore(k, encFunc(func(s *state, b []byte, p unsafe.Pointer) []byte {
		wg.Wait()
		return f(s, b, p)
	}))
	if loaded {
		return fi.(encFunc)
	}
	f = newEncoder(t, addressable)
	wg.Done()
	encoders.Store(k, f)
	return f
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[interface{ MarshalText() ([]byte, error) }]()
	numberType        = reflect.TypeFor[json.Number]()
	anyType           = reflect.TypeFor[any]()
)

// hasMarshaler reports whether values of t encode themselves.
func hasMarshaler(t reflect.Type) bool {
	return t.Implements(marshalerType) || t.Implements(textMarshalerType)
}

// newEncoder builds the encoder of t; see encoderFor.
func newEncoder(t reflect.Type, addressable bool) encFunc {
	switch {
	case t == timeType:
		return encodeTime
	case t == numberType, hasMarshaler(t),
		addressable && t.Kind() != reflect.Pointer && hasMarshaler(reflect.PointerTo(t)):
		return fallback(t, addressable)
	}
	switch t.Kind() {
	case reflect.Bool:
		return encodeBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return intEncoder(t.Size())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return uintEncoder(t.Size())
	case reflect.Float32:
		return encodeFloat32
	case reflect.Float64:
		return encodeFloat64
	case reflect.String:
		return encodeString
	case reflect.Struct:
		if se := structEncoderFor(t, addressable); se != nil {
			return se.encode
		}
	case reflect.Map:
		if f := mapEncoder(t); f != nil {
			return f
		}
	case reflect.Slice:
		return sliceEncoder(t)
	case reflect.Array:
		return arrayEncoder(t, addressable)
	case reflect.Pointer:
		return pointerEncoder(t)
	case reflect.Interface:
		return interfaceEncoder(t)
	}
	return fallback(t, addressable)
}

// fallback encodes a value of t with json.Marshal: of a pointer to it if
// it is addressable, so that the same MarshalJSON is called as when
// encoding/json meets the value inside a bigger one.
func fallback(t reflect.Type, addressable bool) encFunc {
	return func(s *state, b []byte, p unsafe.Pointer) []byte {
		v := reflect.NewAt(t, p)
		var x any
		if addressable {
			x = v.Interface()
		} else {
			x = v.Elem().Interface()
		}
		enc, err := json.Marshal(x)
		if err != nil {
			s.fail(err)
			return b
		}
		return append(b, enc...)
	}
}

// sliceHeader is the memory of a slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

func sliceEncoder(t reflect.Type) encFunc {
	elem := t.Elem()
	if elem.Kind() == reflect.Uint8 && !hasMarshaler(reflect.PointerTo(elem)) {
		return encodeBytes
	}
	enc, size := encoderFor(elem, true), elem.Size()
	return func(s *state, b []byte, p unsafe.Pointer) []byte {
		h := (*sliceHeader)(p)
		if h.data == nil {
			return append(b, "null"...)
		}
		if !s.enter() {
			return b
		}
		b = append(b, '[')
		for i := range h.len {
			if i > 0 {
				b = append(b, ',')
			}
			b = enc(s, b, unsafe.Add(h.data, uintptr(i)*size))
		}
		s.leave()
		return append(b, ']')
	}
}

func arrayEncoder(t reflect.Type, addressable bool) encFunc {
	enc, size, n := encoderFor(t.Elem(), addressable), t.Elem().Size(), t.Len()
	return func(s *state, b []byte, p unsafe.Pointer) []byte {
		b = append(b, '[')
		for i := range n {
			if i > 0 {
				b = append(b, ',')
			}
			b = enc(s, b, unsafe.Add(p, uintptr(i)*size))
		}
		return append(b, ']')
	}
}

func pointerEncoder(t reflect.Type) encFunc {
	enc := encoderFor(t.Elem(), true)
	return func(s *state, b []byte, p unsafe.Pointer) []byte {
		elem := *(*unsafe.Pointer)(p)
		if elem == nil {
			return append(b, "null"...)
		}
		if !s.enter() {
			return b
		}
		b = enc(s, b, elem)
		s.leave()
		return b
	}
}

func interfaceEncoder(t reflect.Type) encFunc {
	if t == anyType {
		return func(s *state, b []byte, p unsafe.Pointer) []byte { return encodeAny(s, b, *(*any)(p)) }
	}
	return func(s *state, b []byte, p unsafe.Pointer) []byte {
		v := reflect.NewAt(t, p).Elem()
		if v.IsNil() {
			return append(b, "null"...)
		}
		return encodeValue(s, b, v.Elem())
	}
}

// encodeAny encodes the value of an interface, not addressable; the
// kinds of JSON decoded into an interface (an unstructured object's) are
// encoded directly.
func encodeAny(s *state, b []byte, x any) []byte {
	switch x := x.(type) {
	case nil:
		return append(b, "null"...)
	case string:
		return appendString(b, x)
	case float64:
		return appendFloat(s, b, x, 64)
	case bool:
		return appendBool(b, x)
	case json.Number: // what a merge patch's numbers decode to
		if x == "" {
			return append(b, '0')
		}
		if skipNumber(x, 0) == len(x) {
			return append(b, x...)
		} // else json.Marshal's error
	case map[string]any:
		return encodeMapAny(s, b, x)
	case []any:
		if x == nil {
			return append(b, "null"...)
		}
		if !s.enter() {
			return b
		}
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = encodeAny(s, b, e)
		}
		s.leave()
		return append(b, ']')
	}
	return encodeValue(s, b, reflect.ValueOf(x))
}

// encodeValue encodes v, which is not addressable, from a copy.
func encodeValue(s *state, b []byte, v reflect.Value) []byte {
	tmp := reflect.New(v.Type())
	tmp.Elem().Set(v)
	return encoderFor(v.Type(), false)(s, b, tmp.UnsafePointer())
}
