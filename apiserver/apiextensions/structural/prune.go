package structural

import (
	"fmt"
	"maps"
	"slices"
)

// Prune removes from value, in place, every field that s does not
// declare (unless x-kubernetes-preserve-unknown-fields keeps them), as
// kube-apiserver prunes a custom resource, and returns their paths
// ("spec.colour", "spec.lines[0].size"), sorted: the real server's
// "unknown field" warnings, or with fieldValidation=Strict its errors.
// An embedded resource's apiVersion, kind and metadata are left to
// [CoerceEmbedded], as the real server leaves them.
// path is where value sits ("" for an object's content).
func Prune(s *Schema, value any, path string) []string {
	var out []string
	prune(s, value, path, &out)
	slices.Sort(out)
	return out
}

func prune(s *Schema, value any, path string, out *[]string) {
	if s == nil {
		return
	}
	switch x := value.(type) {
	case map[string]any:
		pruneObject(s, x, path, out)
	case []any:
		for i, item := range x {
			prune(s.Items, item, fmt.Sprintf("%s[%d]", path, i), out)
		}
	}
}

// objectMetaFields are the fields of ObjectMeta, which an embedded
// resource's metadata keeps (see [CoerceEmbedded]).
var objectMetaFields = map[string]bool{
	"name": true, "generateName": true, "namespace": true, "selfLink": true, "uid": true,
	"resourceVersion": true, "generation": true, "creationTimestamp": true, "deletionTimestamp": true,
	"deletionGracePeriodSeconds": true, "labels": true, "annotations": true, "ownerReferences": true,
	"finalizers": true, "managedFields": true,
}

func pruneObject(s *Schema, x map[string]any, path string, out *[]string) {
	for _, k := range slices.Sorted(maps.Keys(x)) {
		at := join(path, k)
		p := s.Property(k)
		switch {
		case s.EmbeddedResource && (k == "apiVersion" || k == "kind" || k == "metadata"):
			continue // see CoerceEmbedded
		case p != nil:
			prune(p, x[k], at, out)
		case s.AdditionalAny || s.PreserveUnknownFields:
		default:
			delete(x, k)
			*out = append(*out, at)
		}
	}
}
