package structural

import (
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"unicode/utf8"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Validate checks value against s and returns one cause per problem,
// worded as kube-apiserver's OpenAPI validation words them, each naming
// its field by path from where value sits (path, "" for the root):
//
//	spec.seats: Invalid value: 99: spec.seats in body should be less than or equal to 12
//
// Fields are visited in sorted order, so the causes come out the same
// every time (the real server's order follows Go map iteration, and
// varies). value is what [meta.Unstructured] content holds.
func Validate(s *Schema, value any, path string) meta.FieldErrors {
	var errs meta.FieldErrors
	validate(&errs, s, value, path)
	return errs
}

func validate(errs *meta.FieldErrors, s *Schema, value any, path string) {
	if s == nil {
		return
	}
	if !checkType(errs, s, value, path) {
		return
	}
	if value == nil {
		return
	}
	checkEnum(errs, s, value, path)
	switch x := value.(type) {
	case string:
		checkString(errs, s, x, path)
	case int64, float64:
		checkNumber(errs, s, x, path)
	case []any:
		checkArray(errs, s, x, path)
	case map[string]any:
		checkObject(errs, s, x, path)
	}
	checkCombinators(errs, s, value, path)
}

// TypeName names the JSON type of a value as the errors do: string,
// boolean, integer, number, object, array or null.
func TypeName(value any) string {
	switch x := value.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case int64, int, int32:
		return "integer"
	case float64:
		if x == math.Trunc(x) && !math.IsInf(x, 0) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return reflect.TypeOf(value).String()
}

// checkType reports whether value has s's type (or s allows any, or
// value is a null s may hold), recording a cause if not.
func checkType(errs *meta.FieldErrors, s *Schema, value any, path string) bool {
	got := TypeName(value)
	want := s.Type
	switch {
	case value == nil && (s.Nullable || (s.Type == "" && !s.IntOrString)):
		return true
	case s.IntOrString:
		if got == "integer" || got == "string" {
			return true
		}
		want = "integer,string"
	case want == "":
		return true
	case want == got, want == "number" && got == "integer":
		return true
	}
	errs.TypeInvalid(path, got, fmt.Sprintf("%s in body must be of type %s: %q", path, want, got))
	if want == "integer" && got == "number" {
		// The real server's format check of an integer says so too.
		errs.Invalid("<nil>", "", "Checked value must be of type integer (default format) in "+path)
	}
	return false
}

func checkEnum(errs *meta.FieldErrors, s *Schema, value any, path string) {
	if len(s.Enum) == 0 {
		return
	}
	for _, e := range s.Enum {
		if equalJSON(e, value) {
			return
		}
	}
	supported := make([]string, len(s.Enum))
	for i, e := range s.Enum {
		if str, ok := e.(string); ok {
			supported[i] = str
		} else {
			supported[i] = fmt.Sprint(e)
		}
	}
	errs.NotSupported(path, value, supported)
}

// checkString checks a string's length and pattern, reporting the first
// of them that fails only, as the real server does, and its format.
func checkString(errs *meta.FieldErrors, s *Schema, x, path string) {
	n := int64(utf8.RuneCountInString(x))
	switch {
	case s.MaxLength != nil && n > *s.MaxLength:
		errs.TooLong(path, int(*s.MaxLength))
	case s.MinLength != nil && n < *s.MinLength:
		errs.Invalid(path, x, fmt.Sprintf("%s in body should be at least %d chars long", path, *s.MinLength))
	case s.Pattern != "" && s.compiledPattern() != nil && !s.compiledPattern().MatchString(x):
		errs.Invalid(path, x, fmt.Sprintf("%s in body should match '%s'", path, s.Pattern))
	}
	if msg := checkFormat(s.Format, x); msg != "" {
		errs.TypeInvalid(path, x, fmt.Sprintf("%s in body must be of type %s: %q", path, msg, x))
	}
}

func checkNumber(errs *meta.FieldErrors, s *Schema, x any, path string) {
	f := toFloat(x)
	if s.Maximum != nil {
		switch {
		case s.ExclusiveMaximum && f >= *s.Maximum:
			errs.Invalid(path, x, fmt.Sprintf("%s in body should be less than %v", path, *s.Maximum))
		case !s.ExclusiveMaximum && f > *s.Maximum:
			errs.Invalid(path, x, fmt.Sprintf("%s in body should be less than or equal to %v", path, *s.Maximum))
		}
	}
	if s.Minimum != nil {
		switch {
		case s.ExclusiveMinimum && f <= *s.Minimum:
			errs.Invalid(path, x, fmt.Sprintf("%s in body should be greater than %v", path, *s.Minimum))
		case !s.ExclusiveMinimum && f < *s.Minimum:
			errs.Invalid(path, x, fmt.Sprintf("%s in body should be greater than or equal to %v", path, *s.Minimum))
		}
	}
	if m := s.MultipleOf; m != nil && *m > 0 {
		if q := f / *m; math.Abs(q-math.Round(q)) > 1e-9 {
			errs.Invalid(path, x, fmt.Sprintf("%s in body should be a multiple of %v", path, *m))
		}
	}
}

func checkArray(errs *meta.FieldErrors, s *Schema, x []any, path string) {
	n := int64(len(x))
	if s.MaxItems != nil && n > *s.MaxItems {
		errs.TooMany(path, n, *s.MaxItems)
	}
	if s.MinItems != nil && n < *s.MinItems {
		errs.Invalid(path, n, fmt.Sprintf("%s in body should have at least %d items", path, *s.MinItems))
	}
	for i, item := range x {
		validate(errs, s.Items, item, fmt.Sprintf("%s[%d]", path, i))
	}
}

func checkObject(errs *meta.FieldErrors, s *Schema, x map[string]any, path string) {
	n := int64(len(x))
	if s.MaxProperties != nil && n > *s.MaxProperties {
		errs.TooMany(path, n, *s.MaxProperties)
	}
	if s.MinProperties != nil && n < *s.MinProperties {
		errs.Invalid(path, n, fmt.Sprintf("%s in body should have at least %d properties", path, *s.MinProperties))
	}
	for _, r := range s.Required {
		if _, ok := x[r]; !ok {
			errs.Required(join(path, r), "")
		}
	}
	for _, k := range slices.Sorted(maps.Keys(x)) {
		validate(errs, s.Property(k), x[k], join(path, k))
	}
}

// checkCombinators applies allOf, anyOf, oneOf and not, which hold value
// validations only.
func checkCombinators(errs *meta.FieldErrors, s *Schema, value any, path string) {
	for _, sub := range s.AllOf {
		validate(errs, sub, value, path)
	}
	if len(s.AnyOf) > 0 && passing(s.AnyOf, value, path) == 0 {
		errs.Invalid(path, value, fmt.Sprintf("%s in body must validate at least one schema (anyOf)", path))
	}
	if len(s.OneOf) > 0 && passing(s.OneOf, value, path) != 1 {
		errs.Invalid(path, value, fmt.Sprintf("%s in body must validate one and only one schema (oneOf)", path))
	}
	if s.Not != nil && len(Validate(s.Not, value, path)) == 0 {
		errs.Invalid(path, value, fmt.Sprintf("%s in body should not validate the schema (not)", path))
	}
}

func passing(subs []*Schema, value any, path string) int {
	n := 0
	for _, sub := range subs {
		if len(Validate(sub, value, path)) == 0 {
			n++
		}
	}
	return n
}

// join appends a field name to a path, as the errors write paths.
func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func toFloat(x any) float64 {
	switch v := x.(type) {
	case int64:
		return float64(v)
	case float64:
		return v
	}
	return 0
}

// equalJSON reports whether two decoded JSON values are equal, numbers
// by value whatever their Go type.
func equalJSON(a, b any) bool {
	if fa, ok := number(a); ok {
		fb, ok := number(b)
		return ok && fa == fb
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			if w, ok := y[k]; !ok || !equalJSON(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		return ok && slices.EqualFunc(x, y, equalJSON)
	}
	return a == b
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	case int:
		return float64(x), true
	}
	return 0, false
}

// EqualJSON reports whether two values as [meta.Unstructured] content
// holds them are equal.
func EqualJSON(a, b any) bool { return equalJSON(a, b) }
