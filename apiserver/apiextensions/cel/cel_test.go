package cel_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver/apiextensions/cel"
	"github.com/kitchensync/kitchensync/apiserver/apiextensions/structural"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// spec holds two rules: one on the object, and a transition rule on a
// field that may not change.
func spec() *structural.Schema {
	return &structural.Schema{Type: "object", Properties: map[string]*structural.Schema{
		"spec": {Type: "object",
			Rules: []structural.Rule{{Rule: "self.seats >= self.minSeats", Message: "seats must be at least minSeats"}},
			Properties: map[string]*structural.Schema{
				"seats":    {Type: "integer"},
				"minSeats": {Type: "integer"},
				"section": {Type: "string", Rules: []structural.Rule{
					{Rule: "self == oldSelf", Message: "section is immutable"},
					{Rule: "self != 'kitchen'", Reason: "FieldValueForbidden"},
				}},
			}},
	}}
}

func value(t *testing.T, doc string) any {
	t.Helper()
	v, err := meta.DecodeJSONValue([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestValidate(t *testing.T) {
	v, errs := cel.Compile(spec(), "openAPIV3Schema")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, tc := range []struct {
		name, doc, old string
		want           []string
	}{
		{"holds", `{"spec":{"seats":4,"minSeats":2,"section":"hall"}}`, "", nil},
		{"false", `{"spec":{"seats":1,"minSeats":2}}`, "", []string{"spec: Invalid value: seats must be at least minSeats"}},
		{"fails to evaluate", `{"spec":{"seats":1}}`, "",
			[]string{`spec: Invalid value: "object": no such key: minSeats evaluating rule: seats must be at least minSeats`}},
		{"transition rule skipped on create", `{"spec":{"seats":4,"minSeats":1,"section":"vip"}}`, "", nil},
		{"transition rule on update", `{"spec":{"seats":4,"minSeats":1,"section":"vip"}}`, `{"spec":{"seats":4,"minSeats":1,"section":"hall"}}`,
			[]string{`spec.section: Invalid value: "vip": section is immutable`}},
		{"a reason", `{"spec":{"seats":4,"minSeats":1,"section":"kitchen"}}`, "",
			[]string{"spec.section: Forbidden: failed rule: self != 'kitchen'"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var old any
			if tc.old != "" {
				old = value(t, tc.old)
			}
			var got []string
			for _, c := range v.Validate(value(t, tc.doc), old, "") {
				got = append(got, c.Field+": "+c.Message)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("causes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCompileErrors(t *testing.T) {
	s := &structural.Schema{Type: "object", Rules: []structural.Rule{{Rule: "self.seats >"}}}
	_, errs := cel.Compile(s, "spec.validation.openAPIV3Schema")
	if len(errs) != 1 || errs[0].Field != "spec.validation.openAPIV3Schema.x-kubernetes-validations[0].rule" {
		t.Errorf("compile errors: %v", errs)
	}
}

// A rule written at the bottom of the order form, checked on an order.
func ExampleValidator_Validate() {
	s := &structural.Schema{Type: "object", Rules: []structural.Rule{
		{Rule: "self.seats <= 8 || !self.vip", Message: "a VIP table seats at most eight"},
	}}
	v, _ := cel.Compile(s, "openAPIV3Schema")
	order, _ := meta.DecodeJSONValue([]byte(`{"seats":10,"vip":true}`))
	for _, c := range v.Validate(order, nil, "spec") {
		fmt.Printf("%s: %s\n", c.Field, c.Message)
	}
	// Output:
	// spec: Invalid value: a VIP table seats at most eight
}
