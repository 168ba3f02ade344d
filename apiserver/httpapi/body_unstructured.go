package httpapi

import (
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// checkUnstructuredKind holds the body of an unstructured kind (a custom
// resource) to what the real server needs of it: a kind, and the
// apiVersion of the resource it is sent to. A body of another version is
// refused with the real server's warnings too: having no schema for it,
// that server finds every field but apiVersion, kind and metadata
// unknown.
func checkUnstructuredKind(info meta.KindInfo, apiVersion, kind string, body []byte, generic any) ([]string, error) {
	if !info.IsUnstructured() {
		return nil, nil
	}
	if kind == "" {
		return nil, meta.NewBadRequest(fmt.Sprintf("the object provided is unrecognized (must be of type %s): Object 'Kind' is missing in '%s' (%s)",
			info.Kind, body, summarize(body, 30)))
	}
	want := info.TypeMeta().APIVersion
	if apiVersion == "" || apiVersion == want {
		return nil, nil
	}
	var warnings []string
	m, _ := generic.(map[string]any)
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if k != "apiVersion" && k != "kind" && k != "metadata" {
			warnings = append(warnings, fmt.Sprintf("unknown field %q", k))
		}
	}
	return warnings, meta.NewBadRequest(fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%s)", apiVersion, want))
}

// prunedFields returns the fields of obj, an object of an unstructured
// kind just decoded from generic, that the server will drop: those its
// metadata has beyond ObjectMeta's, and those the kind's schema prunes
// (see [meta.KindInfo.Normalize]), for the unknown-field warnings and
// strict field validation.
func prunedFields(info meta.KindInfo, obj meta.Object, generic any) []string {
	if _, ok := obj.(*meta.Unstructured); !ok {
		return nil
	}
	var out []string
	if m, ok := generic.(map[string]any); ok {
		unknownFields(reflect.TypeFor[meta.ObjectMeta](), m["metadata"], "metadata", &out)
	}
	if info.Normalize != nil {
		pruned, _ := info.Normalize(obj.DeepCopyObject(), nil)
		out = append(out, pruned...) // after metadata's, as the real server lists them
	}
	return out
}
