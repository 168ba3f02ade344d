package structural_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver/apiextensions/structural"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

func ptr[T any](v T) *T { return &v }

// seats is spec: {seats: 1..12 (required), section: enum with a default,
// note: nullable, tags: a set, extra: preserved}.
func seats() *structural.Schema {
	return &structural.Schema{Type: "object", Properties: map[string]*structural.Schema{
		"spec": {Type: "object", Required: []string{"seats"}, Properties: map[string]*structural.Schema{
			"seats":   {Type: "integer", Minimum: ptr(1.0), Maximum: ptr(12.0)},
			"section": {Type: "string", Enum: []any{"hall", "vip"}, Default: "hall", HasDefault: true},
			"note":    {Type: "string", Nullable: true},
			"name":    {Type: "string", MinLength: ptr(int64(2)), Pattern: "^[a-z]+$"},
			"tags":    {Type: "array", ListType: "set", Items: &structural.Schema{Type: "string"}},
			"extra":   {Type: "object", PreserveUnknownFields: true},
		}},
	}}
}

func decode(t *testing.T, doc string) map[string]any {
	t.Helper()
	v, err := meta.DecodeJSONValue([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return v.(map[string]any)
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      []string
	}{
		{"valid", `{"spec":{"seats":4}}`, nil},
		{"too many seats", `{"spec":{"seats":99}}`,
			[]string{"spec.seats: Invalid value: 99: spec.seats in body should be less than or equal to 12"}},
		{"missing and wrong type", `{"spec":{"section":"roof","note":null,"name":5}}`, []string{
			`spec.name: Invalid value: "integer": spec.name in body must be of type string: "integer"`,
			`spec.section: Unsupported value: "roof": supported values: "hall", "vip"`,
			"spec.seats: Required value"}},
		{"string: first failed rule only", `{"spec":{"seats":1,"name":"X"}}`,
			[]string{`spec.name: Invalid value: "X": spec.name in body should be at least 2 chars long`}},
		{"a number for an integer", `{"spec":{"seats":1.5}}`, []string{
			`spec.seats: Invalid value: "number": spec.seats in body must be of type integer: "number"`,
			`<nil>: Invalid value: "": Checked value must be of type integer (default format) in spec.seats`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, c := range structural.Validate(seats(), decode(t, tc.doc), "") {
				got = append(got, c.Field+": "+c.Message)
			}
			// The required cause comes first for its object; sort-free
			// comparison keeps the test about content.
			if diff := cmp.Diff(tc.want, got, cmpSorted); diff != "" {
				t.Errorf("causes (-want +got):\n%s", diff)
			}
		})
	}
}

var cmpSorted = cmp.Transformer("sort", func(in []string) []string {
	out := append([]string(nil), in...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
})

func TestDefaultAndPrune(t *testing.T) {
	doc := decode(t, `{"spec":{"seats":2,"section":null,"note":null,"colour":"red","extra":{"any":{"thing":1}}},"bogus":1}`)
	structural.Default(seats(), doc)
	pruned := structural.Prune(seats(), doc, "")
	want := decode(t, `{"spec":{"seats":2,"section":"hall","note":null,"extra":{"any":{"thing":1}}}}`)
	if diff := cmp.Diff(want, doc); diff != "" {
		t.Errorf("defaulted and pruned (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"bogus", "spec.colour"}, pruned); diff != "" {
		t.Errorf("pruned paths (-want +got):\n%s", diff)
	}
}

func TestValidateLists(t *testing.T) {
	lines := &structural.Schema{Type: "object", Properties: map[string]*structural.Schema{
		"lines": {Type: "array", ListType: "map", ListMapKeys: []string{"name"}, Items: &structural.Schema{Type: "object"}},
		"tags":  {Type: "array", ListType: "set", Items: &structural.Schema{Type: "string"}},
	}}
	var got []string
	for _, c := range structural.ValidateLists(lines, decode(t, `{"lines":[{"name":"a"},{"name":"b"},{"name":"a","qty":2}],"tags":["x","y","x"]}`), "") {
		got = append(got, c.Field+": "+c.Message)
	}
	want := []string{`lines[2]: Duplicate value: {"name":"a"}`, `tags[2]: Duplicate value: "x"`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("causes (-want +got):\n%s", diff)
	}
}

// A schema fills in what an order left out, drops what it does not
// know, and names what is wrong as kube-apiserver does.
func Example() {
	s := &structural.Schema{Type: "object", Properties: map[string]*structural.Schema{
		"seats":   {Type: "integer", Maximum: ptr(12.0)},
		"section": {Type: "string", Default: "hall", HasDefault: true},
	}}
	order, _ := meta.DecodeJSONValue([]byte(`{"seats":99,"colour":"red"}`))
	structural.Default(s, order)
	fmt.Println("pruned:", structural.Prune(s, order, "spec"))
	fmt.Println("now:", order)
	for _, c := range structural.Validate(s, order, "spec") {
		fmt.Printf("%s: %s\n", c.Field, c.Message)
	}
	// Output:
	// pruned: [spec.colour]
	// now: map[seats:99 section:hall]
	// spec.seats: Invalid value: 99: spec.seats in body should be less than or equal to 12
}
