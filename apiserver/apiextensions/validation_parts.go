package apiextensions

import (
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// validateSubresources checks the scale subresource's paths (status has
// no fields).
func validateSubresources(sub *CustomResourceSubresources, at string) meta.FieldErrors {
	var errs meta.FieldErrors
	sc := sub.Scale
	if sc == nil {
		return nil
	}
	check := func(field, path string, prefixes ...string) {
		if e := simpleJSONPath(path, at+".scale."+field); len(e) > 0 {
			errs = append(errs, e...)
			return
		}
		for _, p := range prefixes {
			if strings.HasPrefix(path, p) {
				return
			}
		}
		under := map[int]string{1: "should be a json path under " + strings.TrimSuffix(prefixes[0], "."),
			2: "should be a json path under either .spec or .status"}[len(prefixes)]
		errs.Invalid(at+".scale."+field, path, under)
	}
	if sc.SpecReplicasPath == "" {
		errs.Required(at+".scale.specReplicasPath", "")
	} else {
		check("specReplicasPath", sc.SpecReplicasPath, ".spec.")
	}
	if sc.StatusReplicasPath == "" {
		errs.Required(at+".scale.statusReplicasPath", "")
	} else {
		check("statusReplicasPath", sc.StatusReplicasPath, ".status.")
	}
	if sc.LabelSelectorPath != nil && *sc.LabelSelectorPath != "" {
		check("labelSelectorPath", *sc.LabelSelectorPath, ".spec.", ".status.")
	}
	return errs
}

// simpleJSONPath checks a path such as ".spec.replicas".
func simpleJSONPath(s, at string) meta.FieldErrors {
	var errs meta.FieldErrors
	switch {
	case s == "":
		errs.Invalid(at, s, "must not be empty")
	case s[0] != '.':
		errs.Invalid(at, s, "must be a simple json path starting with .")
	}
	return errs
}

var (
	columnTypes   = []string{"boolean", "date", "integer", "number", "string"}
	columnFormats = []string{"byte", "date", "date-time", "double", "float", "int32", "int64", "password"}
)

// validateColumn checks one additionalPrinterColumn.
func validateColumn(col CustomResourceColumnDefinition, at string) meta.FieldErrors {
	var errs meta.FieldErrors
	if col.Name == "" {
		errs.Required(at+".name", "")
	}
	switch {
	case col.Type == "":
		errs.Required(at+".type", "must be one of "+strings.Join(columnTypes, ","))
	case !contains(columnTypes, col.Type):
		errs.Invalid(at+".type", col.Type, "must be one of "+strings.Join(columnTypes, ","))
	}
	if col.Format != "" && !contains(columnFormats, col.Format) {
		errs.Invalid(at+".format", col.Format, "must be one of "+strings.Join(columnFormats, ","))
	}
	if col.JSONPath == "" {
		errs.Required(at+".JSONPath", "")
	} else {
		errs = append(errs, simpleJSONPath(col.JSONPath, at+".JSONPath")...)
	}
	return errs
}

// validateSelectableField checks that a selectable field's path leads,
// through the version's schema, to a string, boolean or integer outside
// metadata.
func validateSelectableField(v *CustomResourceDefinitionVersion, f SelectableField, at string) meta.FieldErrors {
	var errs meta.FieldErrors
	if f.JSONPath == "" {
		errs.Required(at, "")
		return errs
	}
	if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
		return nil
	}
	p := v.Schema.OpenAPIV3Schema
	parts := strings.Split(strings.TrimPrefix(f.JSONPath, "."), ".")
	if !strings.HasPrefix(f.JSONPath, ".") || parts[0] == "" {
		errs.Invalid(at, f.JSONPath, "is an invalid path: must start with a '.'")
		return errs
	}
	if parts[0] == "metadata" {
		errs.Invalid(at, f.JSONPath, "must not point to fields in metadata")
		return errs
	}
	for _, part := range parts {
		next, ok := p.Properties[part]
		if !ok {
			errs.Invalid(at, f.JSONPath, "is an invalid path: does not refer to a valid field")
			return errs
		}
		p = &next
	}
	if p.Type != "string" && p.Type != "boolean" && p.Type != "integer" {
		errs.Invalid(at, f.JSONPath, "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.")
	}
	return errs
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
