package fieldmanager

import (
	"fmt"
	"maps"
	"slices"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// undeclared returns the first field of v, a decoded JSON value at the
// path at, that the schema s does not declare, as structured-merge-diff
// prints a path (".spec.colour", ".spec.parts[0].nme"); "" if there is
// none. A schema that says nothing about a value (no type, preserved
// unknown fields, an object without properties such as metadata)
// declares everything below it.
func undeclared(s *meta.Schema, v any, at string) string {
	if s == nil || s.PreserveUnknownFields {
		return ""
	}
	switch x := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			sub := s.AdditionalProperties
			if len(s.Properties) > 0 || sub == nil {
				if sub = s.Properties[k]; sub == nil && len(s.Properties) > 0 {
					return at + "." + k
				}
			}
			if p := undeclared(sub, x[k], at+"."+k); p != "" {
				return p
			}
		}
	case []any:
		for i, item := range x {
			if p := undeclared(s.Items, item, fmt.Sprintf("%s[%d]", at, i)); p != "" {
				return p
			}
		}
	}
	return ""
}
