package httpapi

import (
	"fmt"
	"reflect"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// checkUnstructuredKind holds the body of an unstructured kind (a custom
// resource) to what the real server needs of it: a kind, and the
// apiVersion of the resource it is sent to.
func checkUnstructuredKind(info meta.KindInfo, apiVersion, kind string, body []byte) error {
	if !info.IsUnstructured() {
		return nil
	}
	if kind == "" {
		return meta.NewBadRequest(fmt.Sprintf("the object provided is unrecognized (must be of type %s): Object 'Kind' is missing in '%s' (%s)",
			info.Kind, body, summarize(body, 30)))
	}
	if want := info.TypeMeta().APIVersion; apiVersion != "" && apiVersion != want {
		return meta.NewBadRequest(fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%s)", apiVersion, want))
	}
	return nil
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
