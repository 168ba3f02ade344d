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
// The metadata of an embedded resource is pruned to ObjectMeta's fields.
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
// resource's metadata keeps.
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
		case s.EmbeddedResource && (k == "apiVersion" || k == "kind") && p == nil:
			continue
		case s.EmbeddedResource && k == "metadata":
			pruneMetadata(x[k], at, out)
			continue
		case p != nil:
			prune(p, x[k], at, out)
		case s.AdditionalAny || s.PreserveUnknownFields:
		default:
			delete(x, k)
			*out = append(*out, at)
		}
	}
}

// pruneMetadata prunes the metadata of an embedded resource to the
// fields of ObjectMeta.
func pruneMetadata(v any, path string, out *[]string) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !objectMetaFields[k] {
			delete(m, k)
			*out = append(*out, join(path, k))
		}
	}
}
