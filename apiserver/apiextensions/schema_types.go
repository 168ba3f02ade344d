package apiextensions

import (
	"bytes"
	"encoding/json"
	"errors"
)

// JSONSchemaProps is an OpenAPI v3 schema as a CustomResourceDefinition
// writes it (apiextensions.k8s.io/v1 JSONSchemaProps): the fields of
// JSON Schema the API server knows, and its x-kubernetes extensions. A
// definition's schema must be structural (see package
// apiserver/apiextensions/structural) to be accepted.
type JSONSchemaProps struct {
	ID          string  `json:"id,omitempty"`
	Schema      string  `json:"$schema,omitempty"`
	Ref         *string `json:"$ref,omitempty"`
	Description string  `json:"description,omitempty"`
	// Type is object, array, string, integer, number or boolean.
	Type string `json:"type,omitempty"`
	// Format refines Type: int32, int64, float, double, byte, date,
	// date-time, duration, uuid, email, hostname, ipv4, ipv6, cidr, ...
	Format  string `json:"format,omitempty"`
	Title   string `json:"title,omitempty"`
	Default *JSON  `json:"default,omitempty"`

	Maximum          *float64 `json:"maximum,omitempty"`
	ExclusiveMaximum bool     `json:"exclusiveMaximum,omitempty"`
	Minimum          *float64 `json:"minimum,omitempty"`
	ExclusiveMinimum bool     `json:"exclusiveMinimum,omitempty"`
	MaxLength        *int64   `json:"maxLength,omitempty"`
	MinLength        *int64   `json:"minLength,omitempty"`
	Pattern          string   `json:"pattern,omitempty"`
	MaxItems         *int64   `json:"maxItems,omitempty"`
	MinItems         *int64   `json:"minItems,omitempty"`
	UniqueItems      bool     `json:"uniqueItems,omitempty"`
	MultipleOf       *float64 `json:"multipleOf,omitempty"`
	Enum             []JSON   `json:"enum,omitempty"`
	MaxProperties    *int64   `json:"maxProperties,omitempty"`
	MinProperties    *int64   `json:"minProperties,omitempty"`
	Required         []string `json:"required,omitempty"`

	Items                *JSONSchemaPropsOrArray    `json:"items,omitempty"`
	AllOf                []JSONSchemaProps          `json:"allOf,omitempty"`
	OneOf                []JSONSchemaProps          `json:"oneOf,omitempty"`
	AnyOf                []JSONSchemaProps          `json:"anyOf,omitempty"`
	Not                  *JSONSchemaProps           `json:"not,omitempty"`
	Properties           map[string]JSONSchemaProps `json:"properties,omitempty"`
	AdditionalProperties *JSONSchemaPropsOrBool     `json:"additionalProperties,omitempty"`
	PatternProperties    map[string]JSONSchemaProps `json:"patternProperties,omitempty"`
	// Dependencies and Definitions are kept as sent: a structural schema
	// may not use them.
	Dependencies    map[string]json.RawMessage `json:"dependencies,omitempty"`
	AdditionalItems *JSONSchemaPropsOrBool     `json:"additionalItems,omitempty"`
	Definitions     map[string]JSONSchemaProps `json:"definitions,omitempty"`
	ExternalDocs    *ExternalDocumentation     `json:"externalDocs,omitempty"`
	Example         *JSON                      `json:"example,omitempty"`
	Nullable        bool                       `json:"nullable,omitempty"`

	// XPreserveUnknownFields keeps the fields the schema does not
	// declare, which are otherwise pruned.
	XPreserveUnknownFields *bool `json:"x-kubernetes-preserve-unknown-fields,omitempty"`
	// XEmbeddedResource says the value is a whole object, with
	// apiVersion, kind and metadata.
	XEmbeddedResource bool `json:"x-kubernetes-embedded-resource,omitempty"`
	// XIntOrString allows an integer or a string.
	XIntOrString bool `json:"x-kubernetes-int-or-string,omitempty"`
	// XListMapKeys are the keys of a list of type map.
	XListMapKeys []string `json:"x-kubernetes-list-map-keys,omitempty"`
	// XListType is atomic, set or map.
	XListType *string `json:"x-kubernetes-list-type,omitempty"`
	// XMapType is granular or atomic.
	XMapType *string `json:"x-kubernetes-map-type,omitempty"`
	// XValidations are CEL rules.
	XValidations []ValidationRule `json:"x-kubernetes-validations,omitempty"`
}

// ValidationRule is one CEL rule (x-kubernetes-validations).
type ValidationRule struct {
	// Rule is the CEL expression, e.g. "self.seats <= 12"; one that
	// names oldSelf is a transition rule, checked on updates only.
	Rule              string  `json:"rule"`
	Message           string  `json:"message,omitempty"`
	MessageExpression string  `json:"messageExpression,omitempty"`
	Reason            *string `json:"reason,omitempty"`
	FieldPath         string  `json:"fieldPath,omitempty"`
	OptionalOldSelf   *bool   `json:"optionalOldSelf,omitempty"`
}

// ExternalDocumentation points to more documentation.
type ExternalDocumentation struct {
	Description string `json:"description,omitempty"`
	URL         string `json:"url,omitempty"`
}

// JSON is any JSON value, kept as its bytes (a default, an enum value,
// an example).
type JSON struct {
	Raw json.RawMessage
}

// MarshalJSON writes the value (null if there is none).
func (j JSON) MarshalJSON() ([]byte, error) {
	if len(j.Raw) == 0 {
		return []byte("null"), nil
	}
	return j.Raw, nil
}

// UnmarshalJSON keeps a copy of b.
func (j *JSON) UnmarshalJSON(b []byte) error {
	if !bytes.Equal(b, []byte("null")) {
		j.Raw = bytes.Clone(b)
	}
	return nil
}

// JSONSchemaPropsOrArray is the schema of an array's items: one schema,
// or (never in a structural schema) one per position.
type JSONSchemaPropsOrArray struct {
	Schema      *JSONSchemaProps
	JSONSchemas []JSONSchemaProps
}

// MarshalJSON writes the schema, or the list of schemas.
func (s JSONSchemaPropsOrArray) MarshalJSON() ([]byte, error) {
	if len(s.JSONSchemas) > 0 {
		return json.Marshal(s.JSONSchemas)
	}
	return json.Marshal(s.Schema)
}

// UnmarshalJSON reads a schema or a list of schemas.
func (s *JSONSchemaPropsOrArray) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) > 0 && b[0] == '{':
		s.Schema, s.JSONSchemas = &JSONSchemaProps{}, nil
		return json.Unmarshal(b, s.Schema)
	case len(b) > 0 && b[0] == '[':
		s.Schema = nil
		return json.Unmarshal(b, &s.JSONSchemas)
	case bytes.Equal(b, []byte("null")):
		return nil
	}
	return errors.New("JSONSchemaPropsOrArray: expected a schema or a list of schemas")
}

// JSONSchemaPropsOrBool is additionalProperties: true, false, or a
// schema (which allows them).
type JSONSchemaPropsOrBool struct {
	Allows bool
	Schema *JSONSchemaProps
}

// MarshalJSON writes the schema, or the boolean.
func (s JSONSchemaPropsOrBool) MarshalJSON() ([]byte, error) {
	if s.Schema != nil {
		return json.Marshal(s.Schema)
	}
	return json.Marshal(s.Allows)
}

// UnmarshalJSON reads a boolean or a schema.
func (s *JSONSchemaPropsOrBool) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) > 0 && b[0] == '{':
		s.Allows, s.Schema = true, &JSONSchemaProps{}
		return json.Unmarshal(b, s.Schema)
	case bytes.Equal(b, []byte("null")):
		return nil
	}
	s.Schema = nil
	return json.Unmarshal(b, &s.Allows)
}
