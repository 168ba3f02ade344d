package structural

import (
	"fmt"
	"maps"
	"slices"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// ValidateLists checks the lists in value that s marks
// x-kubernetes-list-type set (no item twice) or map (no two items with
// the same keys), as kube-apiserver does after its schema validation:
// each repeat is a Duplicate cause naming the later item,
// `spec.tags[1]: Duplicate value: "a"`.
func ValidateLists(s *Schema, value any, path string) meta.FieldErrors {
	var errs meta.FieldErrors
	validateLists(&errs, s, value, path)
	return errs
}

func validateLists(errs *meta.FieldErrors, s *Schema, value any, path string) {
	if s == nil {
		return
	}
	switch x := value.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			validateLists(errs, s.Property(k), x[k], join(path, k))
		}
	case []any:
		switch s.ListType {
		case "set":
			duplicates(errs, x, path, func(item any) any { return item })
		case "map":
			duplicates(errs, x, path, func(item any) any { return mapKeys(item, s.ListMapKeys) })
		}
		for i, item := range x {
			validateLists(errs, s.Items, item, fmt.Sprintf("%s[%d]", path, i))
		}
	}
}

// duplicates records each item whose key (by key) an earlier item has.
func duplicates(errs *meta.FieldErrors, items []any, path string, key func(any) any) {
	var seen []any
	for i, item := range items {
		k := key(item)
		if slices.ContainsFunc(seen, func(s any) bool { return equalJSON(s, k) }) {
			errs.Duplicate(fmt.Sprintf("%s[%d]", path, i), k)
			continue
		}
		seen = append(seen, k)
	}
}

// mapKeys is the key of an item of a map list: its key fields.
func mapKeys(item any, keys []string) any {
	m, _ := item.(map[string]any)
	out := map[string]any{}
	for _, k := range keys {
		if v, ok := m[k]; ok {
			out[k] = v
		}
	}
	return out
}
