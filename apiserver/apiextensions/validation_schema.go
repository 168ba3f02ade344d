package apiextensions

import (
	"fmt"
	"maps"
	"regexp"
	"slices"

	"github.com/kitchensync/kitchensync/apiserver/apiextensions/structural"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// schemaLevel is where a schema node sits: the root, an array's items,
// or an object's field; some rules and messages depend on it.
type schemaLevel int

const (
	rootLevel schemaLevel = iota
	itemLevel
	fieldLevel
)

var openAPITypes = []string{"array", "boolean", "integer", "number", "object", "string"}

// validateSchemaRoot checks a version's openAPIV3Schema: that it is
// structural, uses only what the server supports, and that its defaults
// validate; at is its path (see partPaths).
func validateSchemaRoot(p *JSONSchemaProps, at string, status bool) meta.FieldErrors {
	var errs meta.FieldErrors
	if p.Nullable {
		errs.Forbidden(at+".nullable", "nullable cannot be true at the root")
	}
	errs = append(errs, validateSchemaNode(p, at, rootLevel)...)
	if len(errs) == 0 {
		errs = append(errs, validateDefaults(p, at)...)
	}
	if len(errs) == 0 {
		errs = append(errs, compileRules(p, at)...)
	}
	return errs
}

// validateSchemaNode checks one node and, recursively, those below it.
func validateSchemaNode(p *JSONSchemaProps, at string, lvl schemaLevel) meta.FieldErrors {
	var errs meta.FieldErrors
	errs = append(errs, unsupportedKeywords(p, at)...)
	errs = append(errs, checkNodeType(p, at, lvl)...)
	errs = append(errs, checkExtensions(p, at)...)
	if p.Pattern != "" {
		if _, err := regexp.Compile(p.Pattern); err != nil {
			errs.Invalid(at+".pattern", p.Pattern, "must be a valid regular expression, but isn't: "+err.Error())
		}
	}
	if ap := p.AdditionalProperties; ap != nil {
		switch {
		case lvl == rootLevel:
			errs.Forbidden(at+".additionalProperties", "must not be used at the root")
		case len(p.Properties) > 0 && (!ap.Allows || ap.Schema != nil):
			errs.Forbidden(at+".additionalProperties", "additionalProperties and properties are mutual exclusive")
		}
		if ap.Schema != nil {
			errs = append(errs, validateSchemaNode(ap.Schema, at+".additionalProperties", fieldLevel)...)
		}
	}
	if md, ok := p.Properties["metadata"]; ok && lvl == rootLevel {
		errs = append(errs, checkRootMetadata(&md, at+".properties[metadata]")...)
	}
	for _, name := range slices.Sorted(maps.Keys(p.Properties)) {
		prop := p.Properties[name]
		if name == "metadata" && lvl == rootLevel {
			continue
		}
		errs = append(errs, validateSchemaNode(&prop, fmt.Sprintf("%s.properties[%s]", at, name), fieldLevel)...)
	}
	if p.Items != nil && p.Items.Schema != nil {
		errs = append(errs, validateSchemaNode(p.Items.Schema, at+".items", itemLevel)...)
	}
	return append(errs, checkValueValidations(p, at)...)
}

func unsupportedKeywords(p *JSONSchemaProps, at string) meta.FieldErrors {
	var errs meta.FieldErrors
	for _, k := range []struct {
		set  bool
		name string
	}{
		{p.UniqueItems, "uniqueItems"}, {p.ID != "", "id"}, {p.AdditionalItems != nil, "additionalItems"},
		{len(p.PatternProperties) > 0, "patternProperties"}, {len(p.Definitions) > 0, "definitions"},
		{len(p.Dependencies) > 0, "dependencies"}, {p.Ref != nil, "$ref"},
	} {
		switch {
		case !k.set:
		case k.name == "uniqueItems":
			errs.Forbidden(at+".uniqueItems", "uniqueItems cannot be set to true since the runtime complexity becomes quadratic")
		default:
			errs.Forbidden(at+"."+k.name, k.name+" is not supported")
		}
	}
	if p.Items != nil && len(p.Items.JSONSchemas) > 0 {
		errs.Forbidden(at+".items", "items must be a schema object and not an array")
	}
	return errs
}

// checkNodeType checks the type: a known one, set where a structural
// schema needs it, object at the root.
func checkNodeType(p *JSONSchemaProps, at string, lvl schemaLevel) meta.FieldErrors {
	var errs meta.FieldErrors
	switch {
	case p.Type == "null":
		errs.Forbidden(at+".type", "type cannot be set to null, use nullable as an alternative")
	case p.Type != "" && !slices.Contains(openAPITypes, p.Type):
		errs.NotSupported(at+".type", p.Type, openAPITypes)
	case p.Type == "array" && (p.Items == nil || p.Items.Schema == nil && len(p.Items.JSONSchemas) == 0):
		errs.Required(at+".items", "must be specified")
	case p.XEmbeddedResource && p.Type == "":
		errs.Required(at+".type", "must be object if x-kubernetes-embedded-resource is true")
	case p.XEmbeddedResource && p.Type != "object":
		errs.Invalid(at+".type", p.Type, "must be object if x-kubernetes-embedded-resource is true")
	case p.Type == "" && !p.XIntOrString && !(p.XPreserveUnknownFields != nil && *p.XPreserveUnknownFields):
		errs.Required(at+".type", map[schemaLevel]string{
			rootLevel: "must not be empty at the root", itemLevel: "must not be empty for specified array items",
			fieldLevel: "must not be empty for specified object fields",
		}[lvl])
	case lvl == rootLevel && p.Type != "object" && p.Type != "":
		errs.Invalid(at+".type", p.Type, "must be object at the root")
	}
	return errs
}

// checkExtensions checks the x-kubernetes extensions of a node.
func checkExtensions(p *JSONSchemaProps, at string) meta.FieldErrors {
	var errs meta.FieldErrors
	if p.XPreserveUnknownFields != nil && !*p.XPreserveUnknownFields {
		errs.Invalid(at+".x-kubernetes-preserve-unknown-fields", false, "must be true or undefined")
	}
	if p.XIntOrString && p.XPreserveUnknownFields != nil && *p.XPreserveUnknownFields {
		errs.Invalid(at+".x-kubernetes-preserve-unknown-fields", true, "must be false if x-kubernetes-int-or-string is true")
	}
	if p.XMapType != nil && p.Type != "object" {
		errs.Invalid(at+".type", p.Type, "must be object if x-kubernetes-map-type is specified")
	}
	if p.XMapType != nil && *p.XMapType != "atomic" && *p.XMapType != "granular" {
		errs.NotSupported(at+".x-kubernetes-map-type", *p.XMapType, []string{"atomic", "granular"})
	}
	return append(errs, checkListType(p, at)...)
}

// checkListType checks x-kubernetes-list-type and its map keys.
func checkListType(p *JSONSchemaProps, at string) meta.FieldErrors {
	var errs meta.FieldErrors
	lt := ""
	if p.XListType != nil {
		lt = *p.XListType
		if p.Type != "array" {
			errs.Invalid(at+".type", p.Type, "must be array if x-kubernetes-list-type is specified")
		}
		if lt != "atomic" && lt != "set" && lt != "map" {
			errs.NotSupported(at+".x-kubernetes-list-type", lt, []string{"atomic", "set", "map"})
		}
	}
	if len(p.XListMapKeys) > 0 && lt != "map" {
		errs.Required(at+".x-kubernetes-list-type", "must be map if x-kubernetes-list-map-keys is non-empty")
	}
	if lt != "map" {
		return errs
	}
	if len(p.XListMapKeys) == 0 {
		errs.Required(at+".x-kubernetes-list-map-keys", "must not be empty if x-kubernetes-list-type is map")
	}
	if p.Items == nil || p.Items.Schema == nil {
		return errs
	}
	items := p.Items.Schema
	if items.Type != "object" {
		errs.Invalid(at+".items.type", items.Type, "must be object if parent array's x-kubernetes-list-type is map")
		return errs
	}
	for _, k := range p.XListMapKeys {
		prop, ok := items.Properties[k]
		switch {
		case !ok:
			errs.Invalid(at+".x-kubernetes-list-map-keys", p.XListMapKeys, "entries must all be names of item properties")
		case prop.Default == nil && !slices.Contains(items.Required, k):
			errs.Required(fmt.Sprintf("%s.items.properties[%s].default", at, k),
				"this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property")
		}
	}
	return errs
}

// checkRootMetadata allows the root's metadata to say only something
// about name and generateName: the server knows the rest itself.
func checkRootMetadata(md *JSONSchemaProps, at string) meta.FieldErrors {
	var errs meta.FieldErrors
	if md.Type != "object" && md.Type != "" {
		errs.Invalid(at+".type", md.Type, "must be object")
	}
	rest := *md
	rest.Type, rest.Properties = "", nil
	for k := range md.Properties {
		if k != "name" && k != "generateName" {
			rest.Properties = md.Properties
		}
	}
	if !isEmptySchema(&rest) {
		errs.Forbidden(at, "must not specify anything other than name and generateName, but metadata is implicitly specified")
	}
	return errs
}

func isEmptySchema(p *JSONSchemaProps) bool {
	return p.Description == "" && p.Default == nil && len(p.Properties) == 0 && p.AdditionalProperties == nil &&
		p.Items == nil && len(p.Required) == 0 && len(p.XValidations) == 0 && p.XPreserveUnknownFields == nil
}

// checkValueValidations checks allOf, anyOf, oneOf and not: they may
// only add rules, so a type in them (but the int-or-string spelling) or
// a description makes the schema not structural.
func checkValueValidations(p *JSONSchemaProps, at string) meta.FieldErrors {
	var errs meta.FieldErrors
	nested := func(list []JSONSchemaProps, name string) {
		if name == "anyOf" && p.XIntOrString && isIntOrStringAnyOf(list) {
			return
		}
		for i, sub := range list {
			sat := fmt.Sprintf("%s.%s[%d]", at, name, i)
			if sub.Type != "" {
				errs.Forbidden(sat+".type", "must be empty to be structural")
			}
			if sub.Description != "" {
				errs.Forbidden(sat+".description", "must be empty to be structural")
			}
			if sub.Default != nil {
				errs.Forbidden(sat+".default", "must be undefined to be structural")
			}
		}
	}
	nested(p.AllOf, "allOf")
	nested(p.AnyOf, "anyOf")
	nested(p.OneOf, "oneOf")
	if p.Not != nil {
		nested([]JSONSchemaProps{*p.Not}, "not")
	}
	return errs
}

// validateDefaults checks every default in the schema: valid by its own
// node's schema and free of fields that node would prune.
func validateDefaults(p *JSONSchemaProps, at string) meta.FieldErrors {
	s, err := structuralOf(p)
	if err != nil {
		var errs meta.FieldErrors
		errs.Invalid(at, "", err.Error())
		return errs
	}
	var errs meta.FieldErrors
	walkDefaults(s, at, &errs)
	return errs
}

func walkDefaults(s *structural.Schema, at string, errs *meta.FieldErrors) {
	if s == nil {
		return
	}
	if s.HasDefault {
		v := meta.DeepCopyJSONValue(s.Default)
		if pruned := structural.Prune(s, v, ""); len(pruned) > 0 {
			errs.Invalid(at+".default", s.Default, "must not have unknown fields")
		}
		for _, c := range structural.Validate(s, v, "") {
			*errs = append(*errs, meta.StatusCause{Type: c.Type, Field: at + ".default", Message: c.Message})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		walkDefaults(s.Properties[name], fmt.Sprintf("%s.properties[%s]", at, name), errs)
	}
	walkDefaults(s.Items, at+".items", errs)
	walkDefaults(s.AdditionalProperties, at+".additionalProperties", errs)
}
