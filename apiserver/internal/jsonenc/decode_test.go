package jsonenc_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/internal/jsonenc"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
)

// sameDecoding checks that jsonenc.Unmarshal decodes data into a new
// value of typ as json.Unmarshal does: the same value and the same
// error. It reports whether Unmarshal decoded it itself.
func sameDecoding(t *testing.T, typ reflect.Type, data []byte) bool {
	t.Helper()
	want, got := reflect.New(typ), reflect.New(typ)
	wantErr := json.Unmarshal(data, want.Interface())
	err := jsonenc.Unmarshal(data, got.Interface())
	if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
		t.Fatalf("%v from %s: error %v, json.Unmarshal's %v", typ, data, err, wantErr)
	}
	if !reflect.DeepEqual(want.Interface(), got.Interface()) {
		t.Fatalf("%v from %s (-json.Unmarshal +jsonenc):\n%s", typ, data,
			cmp.Diff(want.Interface(), got.Interface(), cmp.Exporter(func(reflect.Type) bool { return true })))
	}
	return jsonenc.FastUnmarshal(data, reflect.New(typ).Interface())
}

// decodable has a field of every shape Unmarshal decodes itself.
type decodable struct {
	Embedded
	inner
	S      string `json:"s"`
	SE     string `json:",omitempty"`
	I8     int8
	I16    int16
	I32    int32
	I64    int64 `json:"i64,omitempty"`
	I      int
	U8     uint8
	U16    uint16
	U32    uint32
	U64    uint64
	U      uint
	UP     uintptr
	F32    float32
	F64    float64
	Bo     bool
	P      *int
	PP     **string
	Sl     []string
	SlS    []Embedded
	SlP    []*Embedded
	M      map[string]string
	MN     map[Named]Named
	MS     map[string]Embedded
	MP     map[string]*Embedded
	MA     map[string]any
	MSl    map[string][]int
	An     any
	T      meta.Time
	TP     *meta.Time
	Raw    json.RawMessage
	Named  Named
	Nested []map[string][]*Embedded
	Node   *node
	Dur    time.Duration
}

// TestUnmarshal decodes documents json.Marshal wrote of random values,
// indented, and changed where the decoder must give up (a key in
// another case, a key twice, an unknown key, a null, a byte), and
// checks that it decodes the unchanged ones itself.
func TestUnmarshal(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, proto := range []any{
		&decodable{}, &apiservertest.Widget{}, &apiservertest.Gadget{}, &builtin.Namespace{}, &builtin.Event{},
		&builtin.Lease{}, &builtin.EventsV1Event{}, &kitchen.Order{}, &kitchen.Dish{}, &meta.Status{},
		&kitchenSink{}, &node{}, &conflict{}, &tagged{}, &withPointer{}, &meta.Unstructured{},
	} {
		typ := reflect.TypeOf(proto).Elem()
		fast := 0
		for range 300 {
			v := reflect.New(typ)
			fill(r, v.Elem(), 0)
			data, err := json.Marshal(v.Interface())
			if err != nil {
				continue
			}
			if sameDecoding(t, typ, data) {
				fast++
			}
			var indented bytes.Buffer
			if err := json.Indent(&indented, data, "", " \t"); err != nil {
				t.Fatal(err)
			}
			if sameDecoding(t, typ, indented.Bytes()) != jsonenc.FastUnmarshal(data, reflect.New(typ).Interface()) {
				t.Fatalf("%v: indented, decoded by another path:\n%s", typ, indented.Bytes())
			}
			other := reflect.New(typ)
			fill(r, other.Elem(), 0)
			otherData, err := json.Marshal(other.Interface())
			if err != nil {
				continue
			}
			for _, changed := range changes(r, data, otherData) {
				sameDecoding(t, typ, changed)
			}
		}
		t.Logf("%v: %d of 300 decoded without json.Unmarshal", typ, fast)
		if want := map[reflect.Type]bool{reflect.TypeFor[decodable](): true, reflect.TypeFor[apiservertest.Widget](): true,
			reflect.TypeFor[builtin.Lease](): true, reflect.TypeFor[node](): true}; want[typ] && fast != 300 {
			t.Errorf("%v: %d of 300 decoded without json.Unmarshal, want all", typ, fast)
		}
	}
}

// changes returns variants of the JSON object data: a key's first letter
// in the other case, a member of data before those of other (where
// other has the member too, it decodes into what data's made), an
// unknown member, a value made null, a byte replaced, the object cut
// short.
func changes(r *rand.Rand, data, other []byte) [][]byte {
	var out [][]byte
	var keys []int // where a key's first letter is
	for i := 0; i+2 < len(data); i++ {
		if data[i] == '"' && (i == 1 || data[i-1] == ',' || data[i-1] == '{') {
			keys = append(keys, i+1)
		}
	}
	if len(keys) > 0 {
		k := keys[r.IntN(len(keys))]
		c := bytes.Clone(data)
		if s := string(c[k]); strings.ToUpper(s) != s {
			c[k] = strings.ToUpper(s)[0]
		} else {
			c[k] = strings.ToLower(s)[0]
		}
		out = append(out, c)
		end := bytes.IndexAny(data[k:], ",}")
		if end > 0 {
			member := data[k-1 : k+end]
			if len(other) > 2 {
				out = append(out, append(append([]byte("{"), member...), append([]byte(","), other[1:]...)...))
			}
			nulled := bytes.Clone(data[:k+bytes.IndexByte(data[k:], ':')+1])
			out = append(out, append(append(nulled, "null"...), data[k+end:]...))
		}
	}
	out = append(out, append([]byte(`{"zz-unknown":1,`), data[1:]...))
	c := bytes.Clone(data)
	c[r.IntN(len(c))] = `{}[]",:1e-. xn`[r.IntN(14)]
	out = append(out, c, data[:r.IntN(len(data))])
	return out
}

// Unmarshal leaves any other target to json.Unmarshal: one that is not
// zero (decoding merges into it), one that is not a pointer.
func TestUnmarshalOtherTargets(t *testing.T) {
	data := []byte(`{"metadata":{"name":"b","labels":{"x":"1"}},"spec":{"size":2}}`)
	want, got := apiservertest.NewWidget("ns", "a"), apiservertest.NewWidget("ns", "a")
	want.Labels, got.Labels = map[string]string{"y": "2"}, map[string]string{"y": "2"}
	if err := json.Unmarshal(data, want); err != nil {
		t.Fatal(err)
	}
	if err := jsonenc.Unmarshal(data, got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("into a widget (-json.Unmarshal +jsonenc):\n%s", diff)
	}
	var w any = apiservertest.Widget{} // not a pointer: an error, as json.Unmarshal's (held in an any, past go vet)
	//lint:ignore SA1014 the non-pointer is the point
	if err, wantErr := jsonenc.Unmarshal(data, w), json.Unmarshal(data, w); err == nil || err.Error() != wantErr.Error() {
		t.Errorf("into a struct: %v, want %v", err, wantErr)
	}
	var none any
	if err, wantErr := jsonenc.Unmarshal(data, none), json.Unmarshal(data, none); err == nil || err.Error() != wantErr.Error() {
		t.Errorf("into nil: %v, want %v", err, wantErr)
	}
}

func TestUnmarshalNesting(t *testing.T) {
	for _, n := range []int{9999, 10000, 10001} {
		doc := []byte(`{"Next":` + strings.Repeat(`{"Kids":[`, n/2) + strings.Repeat(`]}`, n/2) + `}`)
		sameDecoding(t, reflect.TypeFor[node](), doc)
	}
}
