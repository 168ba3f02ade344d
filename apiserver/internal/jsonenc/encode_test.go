package jsonenc_test

//lint:file-ignore SA5008 the odd tags test encoding/json's reading of them
//lint:file-ignore U1000 unexported fields are never encoded

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/internal/jsonenc"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
)

// same checks that jsonenc encodes v as json.Marshal does: the same
// bytes, or an error where json.Marshal has one (the same one).
func same(t *testing.T, v any) {
	t.Helper()
	want, wantErr := json.Marshal(v)
	got, err := jsonenc.Marshal(v)
	if !bytes.Equal(got, want) || (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
		t.Fatalf("%T:\n got %s (%v)\nwant %s (%v)", v, got, err, want, wantErr)
	}
	appended, err := jsonenc.Append([]byte("x"), v)
	if wantErr == nil && (err != nil || string(appended) != "x"+string(want)) {
		t.Fatalf("Append %T: %s, %v", v, appended, err)
	}
}

type valueMarshaler struct{ N int }

func (v valueMarshaler) MarshalJSON() ([]byte, error) {
	return []byte(`{ "n" : ` + strings.Repeat("1", (v.N%5+5)%5+1) + `, "html": "<&>" }`), nil
}

type pointerMarshaler struct{ N int }

func (v *pointerMarshaler) MarshalJSON() ([]byte, error) { return []byte(`"pointer"`), nil }

type text struct{ S string }

func (t text) MarshalText() ([]byte, error) { return []byte("text:" + t.S), nil }

type zeroer struct{ N int }

func (z zeroer) IsZero() bool { return z.N%2 == 0 }

type pointerZeroer struct{ N int }

func (z *pointerZeroer) IsZero() bool { return z == nil || z.N%3 == 0 }

type failing struct{}

func (failing) MarshalJSON() ([]byte, error) { return nil, errors.New("no") }

type Embedded struct {
	A string `json:"a,omitempty"`
	B int
}

type inner struct{ Hidden, Shown string }

type Named string

// kitchenSink has a field of every shape; its odd tags are on purpose.
type kitchenSink struct {
	Embedded
	inner
	unexported int
	Skip       string `json:"-"`
	Dash       string `json:"-,"`
	Bad        string `json:"bad\"name"`
	Quoted     string `json:"<html>&"`
	S          string
	SE         string  `json:",omitempty"`
	SZ         string  `json:",omitzero"`
	I8         int8    `json:"i8"`
	I16        int16   `json:"i16,omitempty"`
	I32        int32   `json:"i32,omitzero"`
	I64        int64   `json:"i64,omitempty"`
	U          uint    `json:"u,omitempty"`
	U8         uint8   `json:"u8"`
	U16        uint16  `json:"u16"`
	U32        uint32  `json:"u32"`
	U64        uint64  `json:"u64,omitempty"`
	F32        float32 `json:"f32"`
	F64        float64 `json:"f64,omitempty"`
	B          bool    `json:"b,omitempty"`
	P          *int    `json:"p,omitempty"`
	PP         **string
	Sl         []string          `json:"sl,omitempty"`
	SlZ        []string          `json:"slz,omitzero"`
	Bytes      []byte            `json:"bytes,omitempty"`
	Arr        [3]int            `json:"arr"`
	ArrE       [0]int            `json:"arre,omitempty"`
	M          map[string]string `json:"m,omitempty"`
	MN         map[Named]Named
	MI         map[int]string
	MS         map[string]Embedded
	MP         map[string]*Embedded
	MA         map[string]any
	MM         map[string]valueMarshaler
	MPM        map[string]pointerMarshaler
	A          any
	AE         any `json:",omitempty"`
	Err        error
	T          meta.Time  `json:"t"`
	TZ         meta.Time  `json:"tz,omitzero"`
	TP         *meta.Time `json:"tp,omitempty"`
	VM         valueMarshaler
	VMP        *valueMarshaler
	PM         pointerMarshaler
	PMS        []pointerMarshaler
	Txt        text
	Z          zeroer        `json:",omitzero"`
	PZ         pointerZeroer `json:",omitzero"`
	PZP        *pointerZeroer
	Num        json.Number
	Raw        json.RawMessage
	Named      Named
	Nested     []map[string][]*Embedded
	Dur        time.Duration `json:",omitempty"`
	When       time.Time
}

type conflict struct {
	Embedded
	A string `json:"a"`
}

type tagged struct {
	X int `json:"x,string"`
}

type withPointer struct {
	*Embedded
	C int
}

type node struct {
	Name string
	Kids []node
	Next *node `json:",omitempty"`
}

func TestKitchenSink(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var v kitchenSink
		fill(r, reflect.ValueOf(&v).Elem(), 0)
		same(t, &v)
		same(t, v)
	}
}

func TestShapes(t *testing.T) {
	one := 1
	cycle := &node{Name: "a"}
	cycle.Next = cycle
	for _, v := range []any{
		nil, 1, "s", []int(nil), map[string]int(nil), (*kitchenSink)(nil),
		&conflict{Embedded{"x", 1}, "y"}, &tagged{3}, &withPointer{nil, 1}, &withPointer{&Embedded{"e", 2}, 3},
		&node{Name: "r", Kids: []node{{Name: "k"}}, Next: &node{Name: "n"}},
		cycle, math.NaN(), &struct{ F float64 }{math.Inf(1)}, &struct{ F failing }{},
		&struct{ F func() }{}, &struct {
			F func() `json:",omitzero"`
		}{}, &struct{ C chan int }{},
		valueMarshaler{3}, &pointerMarshaler{}, pointerMarshaler{}, text{"t"},
		map[string]any{"a": []any{1.5, "x", nil, true, map[string]any{}}, "b": &one, "c": int64(7)},
		[]any{json.Number("12"), json.RawMessage(` [1, 2] `)}, []any{json.Number(""), json.Number("-0.5e+3"), json.Number("0")},
		[]any{json.Number("01")}, []any{json.Number("1.")}, []any{json.Number("x")}, map[string]any{"n": json.Number("-")},
		&struct{ N json.Number }{"3.5"}, &struct{ R json.RawMessage }{},
		&struct{ B []byte }{[]byte{}}, &struct{ B [2]byte }{}, &struct{ T [2]text }{},
		&struct{ M map[text]int }{map[text]int{{"b"}: 1, {"a"}: 2}},
		&struct{ P *int }{&one}, &struct{ I any }{&one},
	} {
		same(t, v)
	}
}

func TestFloats(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e-6, 1e-7, 9.99e-7, 1e20, 1e21, 1.5e300,
		math.MaxFloat64, math.SmallestNonzeroFloat64, 123456789.125, float64(math.MaxFloat32), 1e-320} {
		same(t, f)
		same(t, float32(f))
		same(t, &struct {
			F float64 `json:",omitempty"`
		}{f})
	}
}

func FuzzString(f *testing.F) {
	for _, s := range []string{"", "plain", "<a&b>", "\"\\\b\f\n\r\t\x00\x1f\x7f", "\u2028\u2029é", "\xff\xfe", "ab\xe2\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		same(t, s)
		same(t, map[string]string{s: s, "k": s})
	})
}

// TestKinds encodes the kinds the server stores, filled at random, as
// the server encodes them: through a pointer, and locating spec.
func TestKinds(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, proto := range []meta.Object{
		&apiservertest.Widget{}, &apiservertest.Gadget{}, &builtin.Namespace{}, &builtin.Event{},
		&builtin.Lease{}, &builtin.EventsV1Event{}, &kitchen.Order{}, &kitchen.Dish{}, &meta.Status{},
	} {
		for range 300 {
			v := reflect.New(reflect.TypeOf(proto).Elem())
			fill(r, v.Elem(), 0)
			same(t, v.Interface())
			m := jsonenc.Members{Names: [2]string{"metadata", "spec"}}
			got, err := jsonenc.MarshalMembers(v.Interface(), &m)
			if err != nil {
				t.Fatal(err)
			}
			for i, name := range m.Names {
				var doc map[string]json.RawMessage
				if err := json.Unmarshal(got, &doc); err != nil {
					t.Fatal(err)
				}
				sp := m.At[i]
				if want, ok := doc[name]; ok != (sp.End > 0) || ok && string(got[sp.Start:sp.End]) != string(want) {
					t.Fatalf("%T: %s at %v in %s", proto, name, sp, got)
				}
			}
		}
	}
}

var words = []string{"", "a", "ns", "<b>", "x&y", "é", "\u2028", "\x00", "\xff", "tab\t", `q"`, `back\`, "longer value with spaces"}

// fill sets v to random contents: every kind, nil or not.
func fill(r *rand.Rand, v reflect.Value, depth int) {
	if !v.CanSet() {
		return
	}
	if depth > 5 {
		return
	}
	if v.Type() == reflect.TypeFor[meta.Time]() || v.Type() == reflect.TypeFor[time.Time]() {
		if r.IntN(3) > 0 {
			t := meta.NewTime(time.Unix(r.Int64N(4e9), 0))
			if v.Type() == reflect.TypeFor[time.Time]() {
				v.Set(reflect.ValueOf(t.Time))
			} else {
				v.Set(reflect.ValueOf(t))
			}
		}
		return
	}
	if v.Type() == reflect.TypeFor[json.Number]() {
		v.SetString([]string{"", "1", "-2.5e3"}[r.IntN(3)])
		return
	}
	if v.Type() == reflect.TypeFor[json.RawMessage]() {
		v.SetBytes([][]byte{nil, []byte(`{"a" : 1}`), []byte(`"<>"`)}[r.IntN(3)])
		return
	}
	if v.Type() == reflect.TypeFor[builtin.MicroTime]() {
		if r.IntN(2) > 0 {
			v.Set(reflect.ValueOf(builtin.NewMicroTime(time.Unix(r.Int64N(4e9), r.Int64N(1e9)))))
		}
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(words[r.IntN(len(words))])
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt([]int64{0, 1, -1, 127, -128, 1 << 40}[r.IntN(6)] % (1 << (8*v.Type().Size() - 1)))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(r.IntN(300)) % (1 << (8*v.Type().Size() - 1)))
	case reflect.Float32, reflect.Float64:
		v.SetFloat([]float64{0, 1.5, -2e-7, 3e22, 0.1}[r.IntN(5)])
	case reflect.Pointer:
		if r.IntN(3) > 0 {
			p := reflect.New(v.Type().Elem())
			fill(r, p.Elem(), depth+1)
			v.Set(p)
		}
	case reflect.Slice:
		if n := r.IntN(4) - 1; n >= 0 {
			s := reflect.MakeSlice(v.Type(), n, n)
			for i := range n {
				fill(r, s.Index(i), depth+1)
			}
			v.Set(s)
		}
	case reflect.Array:
		for i := range v.Len() {
			fill(r, v.Index(i), depth+1)
		}
	case reflect.Map:
		if n := r.IntN(20) - 2; n >= 0 {
			m := reflect.MakeMap(v.Type())
			for range n {
				k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
				fill(r, k, depth+1)
				if k.Kind() == reflect.String && r.IntN(2) == 0 {
					k.SetString(k.String() + string(rune('a'+r.IntN(26))))
				}
				fill(r, e, depth+1)
				m.SetMapIndex(k, e)
			}
			v.Set(m)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			fill(r, v.Field(i), depth+1)
		}
	case reflect.Interface:
		if v.Type() == reflect.TypeFor[any]() {
			if x := randomAny(r, depth); x != nil {
				v.Set(reflect.ValueOf(x))
			}
		}
	}
}

// randomAny is a value as json.Unmarshal makes them, or another.
func randomAny(r *rand.Rand, depth int) any {
	switch r.IntN(9) {
	case 0:
		return nil
	case 1:
		return words[r.IntN(len(words))]
	case 2:
		return []float64{0, 1, 2.5, 1e-9, 1e300}[r.IntN(5)]
	case 3:
		return r.IntN(2) == 0
	case 4:
		if depth > 4 {
			return nil
		}
		m := map[string]any{}
		for range r.IntN(5) {
			m[words[r.IntN(len(words))]] = randomAny(r, depth+1)
		}
		return m
	case 5:
		if depth > 4 {
			return []any(nil)
		}
		return []any{randomAny(r, depth+1), randomAny(r, depth+1)}
	case 6:
		return &Embedded{A: "x", B: r.IntN(5)}
	case 7:
		return valueMarshaler{r.IntN(9)}
	}
	return Embedded{B: 1}
}

// MemberName names a field as json.Marshal does, or "" where it leaves
// the field out or flattens it.
func TestMemberName(t *testing.T) {
	ty := reflect.TypeFor[kitchenSink]()
	for field, want := range map[string]string{
		"Embedded": "", "inner": "", "unexported": "", "Skip": "", "Dash": "-", "Bad": "Bad", "Quoted": "<html>&",
		"S": "S", "SE": "SE", "I8": "i8", "T": "t",
	} {
		f, _ := ty.FieldByName(field)
		if got := jsonenc.MemberName(f); got != want {
			t.Errorf("%s: %q, want %q", field, got, want)
		}
	}
	w := reflect.TypeFor[apiservertest.Widget]()
	for field, want := range map[string]string{"TypeMeta": "", "ObjectMeta": "metadata", "Spec": "spec", "Status": "status"} {
		f, _ := w.FieldByName(field)
		if got := jsonenc.MemberName(f); got != want {
			t.Errorf("Widget.%s: %q, want %q", field, got, want)
		}
	}
}
