package apiextensions

import (
	"fmt"

	"github.com/kitchensync/kitchensync/apiserver/apiextensions/structural"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// structuralOf builds the structural schema of p, which validation has
// found structural. A default or enum value that is not JSON is an
// error (validation reports it first).
func structuralOf(p *JSONSchemaProps) (*structural.Schema, error) {
	if p == nil {
		return nil, nil
	}
	s := &structural.Schema{
		Type: p.Type, Format: p.Format, Description: p.Description, Nullable: p.Nullable,
		Maximum: p.Maximum, Minimum: p.Minimum, ExclusiveMaximum: p.ExclusiveMaximum, ExclusiveMinimum: p.ExclusiveMinimum,
		MultipleOf: p.MultipleOf, MaxLength: p.MaxLength, MinLength: p.MinLength, Pattern: p.Pattern,
		MaxItems: p.MaxItems, MinItems: p.MinItems, MaxProperties: p.MaxProperties, MinProperties: p.MinProperties,
		Required: p.Required, EmbeddedResource: p.XEmbeddedResource, IntOrString: p.XIntOrString,
		PreserveUnknownFields: p.XPreserveUnknownFields != nil && *p.XPreserveUnknownFields,
		ListMapKeys:           p.XListMapKeys,
	}
	if p.XListType != nil {
		s.ListType = *p.XListType
	}
	if p.XMapType != nil {
		s.MapType = *p.XMapType
	}
	for _, r := range p.XValidations {
		rule := structural.Rule{Rule: r.Rule, Message: r.Message, MessageExpression: r.MessageExpression, FieldPath: r.FieldPath}
		if r.Reason != nil {
			rule.Reason = *r.Reason
		}
		rule.OptionalOldSelf = r.OptionalOldSelf != nil && *r.OptionalOldSelf
		s.Rules = append(s.Rules, rule)
	}
	if err := convertValues(p, s); err != nil {
		return nil, err
	}
	return s, convertChildren(p, s)
}

// convertValues decodes the default and the enum.
func convertValues(p *JSONSchemaProps, s *structural.Schema) error {
	if p.Default != nil && len(p.Default.Raw) > 0 {
		v, err := meta.DecodeJSONValue(p.Default.Raw)
		if err != nil {
			return fmt.Errorf("default: %w", err)
		}
		s.Default, s.HasDefault = v, true
	}
	for _, e := range p.Enum {
		v, err := meta.DecodeJSONValue(e.Raw)
		if err != nil {
			return fmt.Errorf("enum: %w", err)
		}
		s.Enum = append(s.Enum, v)
	}
	return nil
}

// convertChildren converts properties, items, additionalProperties and
// the value validations (allOf, anyOf, oneOf, not), leaving out the
// anyOf that only spells out x-kubernetes-int-or-string.
func convertChildren(p *JSONSchemaProps, s *structural.Schema) error {
	var err error
	for name, prop := range p.Properties {
		if s.Properties == nil {
			s.Properties = map[string]*structural.Schema{}
		}
		if s.Properties[name], err = structuralOf(&prop); err != nil {
			return err
		}
	}
	if p.Items != nil && p.Items.Schema != nil {
		if s.Items, err = structuralOf(p.Items.Schema); err != nil {
			return err
		}
	}
	if ap := p.AdditionalProperties; ap != nil {
		s.AdditionalAny = ap.Allows && ap.Schema == nil
		if s.AdditionalProperties, err = structuralOf(ap.Schema); err != nil {
			return err
		}
	}
	for _, list := range []struct {
		from []JSONSchemaProps
		to   *[]*structural.Schema
	}{{p.AllOf, &s.AllOf}, {p.AnyOf, &s.AnyOf}, {p.OneOf, &s.OneOf}} {
		if list.to == &s.AnyOf && p.XIntOrString && isIntOrStringAnyOf(p.AnyOf) {
			continue
		}
		for i := range list.from {
			sub, err := structuralOf(&list.from[i])
			if err != nil {
				return err
			}
			*list.to = append(*list.to, sub)
		}
	}
	if p.Not != nil {
		s.Not, err = structuralOf(p.Not)
	}
	return err
}

// isIntOrStringAnyOf reports whether anyOf is [{type: integer}, {type:
// string}], the spelling of x-kubernetes-int-or-string that
// controller-gen writes beside it.
func isIntOrStringAnyOf(anyOf []JSONSchemaProps) bool {
	return len(anyOf) == 2 && anyOf[0].Type == "integer" && anyOf[1].Type == "string"
}
