package meta

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
)

// Schema is an OpenAPI v3 schema for a kind, the subset of a
// CustomResourceDefinition's JSONSchemaProps that kubectl explain reads,
// with the same JSON names. A kind may give its own in
// [KindInfo.Schema]; otherwise [SchemaOf] derives one from its Go type.
type Schema struct {
	// Type is "object", "array", "string", "integer", "number" or
	// "boolean"; empty for any value.
	Type string `json:"type,omitempty"`
	// Format refines Type: "int64", "int32", "double", "date-time".
	Format string `json:"format,omitempty"`
	// Description is what kubectl explain prints for the field.
	Description string `json:"description,omitempty"`
	// Properties are an object's fields, by JSON name.
	Properties map[string]*Schema `json:"properties,omitempty"`
	// Required lists the properties that must be present.
	Required []string `json:"required,omitempty"`
	// Items is the schema of an array's items.
	Items *Schema `json:"items,omitempty"`
	// AdditionalProperties is the schema of a map's values.
	AdditionalProperties *Schema `json:"additionalProperties,omitempty"`
	// ListType is x-kubernetes-list-type: "atomic", "set" or "map".
	ListType string `json:"x-kubernetes-list-type,omitempty"`
	// ListMapKeys is x-kubernetes-list-map-keys: the key fields of a
	// "map" list.
	ListMapKeys []string `json:"x-kubernetes-list-map-keys,omitempty"`
	// PreserveUnknownFields (x-kubernetes-preserve-unknown-fields) allows
	// any value, as for a json.RawMessage field.
	PreserveUnknownFields bool `json:"x-kubernetes-preserve-unknown-fields,omitempty"`
}

// SchemaOf returns the kind's schema: [KindInfo.Schema] if set, or else
// one derived from the Go type New returns, by its JSON tags: structs are
// objects whose fields without omitempty or omitzero are required, slices
// arrays (keyed as [KindInfo.ListMapKeys] says), maps objects with
// additionalProperties, [Time] a date-time string, json.RawMessage any
// value; a type with its own MarshalJSON is what its [OpenAPISchemaTyper]
// method says, or any value without one. Go doc comments are not visible
// to reflection: derived fields have no description.
func SchemaOf(info KindInfo) *Schema {
	if info.Schema != nil {
		return info.Schema
	}
	d := deriver{keys: info.ListMapKeys, sets: info.ListSets, seen: map[reflect.Type]bool{}}
	s := d.schema(reflect.TypeOf(info.New()), "")
	if p := s.Properties["apiVersion"]; p != nil {
		p.Description = apiVersionDoc
	}
	if p := s.Properties["kind"]; p != nil {
		p.Description = kindDoc
	}
	return s
}

// deriver builds a schema from a Go type.
type deriver struct {
	keys map[string][]string   // list field path -> keys
	sets []string              // field paths of sets
	seen map[reflect.Type]bool // structs being derived, to stop recursion
}

var (
	timeType      = reflect.TypeFor[Time]()
	rawType       = reflect.TypeFor[json.RawMessage]()
	metaType      = reflect.TypeFor[ObjectMeta]()
	marshalerType = reflect.TypeFor[json.Marshaler]()
)

// OpenAPISchemaTyper is the method a type with its own JSON form declares
// to say what that form is, as Kubernetes' own such types do
// (metav1.Duration, resource.Quantity): OpenAPISchemaType returns the
// OpenAPI type, e.g. []string{"string"}. A type may also have
// OpenAPISchemaFormat() string, e.g. "date-time".
type OpenAPISchemaTyper interface {
	OpenAPISchemaType() []string
}

// declaredSchema is the schema of a type with its own JSON form: the one
// it declares ([OpenAPISchemaTyper]), or else any value, since its
// MarshalJSON may write anything.
func declaredSchema(t reflect.Type) (*Schema, bool) {
	v := reflect.New(t).Interface() // a pointer has the value's methods too
	if typer, ok := v.(OpenAPISchemaTyper); ok {
		s := &Schema{}
		if types := typer.OpenAPISchemaType(); len(types) == 1 {
			s.Type = types[0]
		}
		if f, ok := v.(interface{ OpenAPISchemaFormat() string }); ok {
			s.Format = f.OpenAPISchemaFormat()
		}
		if s.Type == "" {
			s.PreserveUnknownFields = true
		}
		return s, true
	}
	if reflect.PointerTo(t).Implements(marshalerType) {
		return &Schema{PreserveUnknownFields: true}, true
	}
	return nil, false
}

// The descriptions of the fields every kind has, Kubernetes' own
// (shortened).
const (
	apiVersionDoc = "APIVersion defines the versioned schema of this representation of an object. " +
		"Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values."
	kindDoc = "Kind is a string value representing the REST resource this object represents. " +
		"Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase."
	metadataDoc = "Standard object's metadata."
)

// schema derives the schema of t, found at the field path spath.
func (d deriver) schema(t reflect.Type, spath string) *Schema {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == metaType:
		// As a CRD's schema has it: the server knows ObjectMeta itself.
		return &Schema{Type: "object", Description: metadataDoc}
	case t == timeType:
		return &Schema{Type: "string", Format: "date-time"}
	case t == rawType || t.Kind() == reflect.Interface:
		return &Schema{PreserveUnknownFields: true}
	}
	if s, ok := declaredSchema(t); ok {
		return s
	}
	switch t.Kind() {
	case reflect.String:
		return &Schema{Type: "string"}
	case reflect.Bool:
		return &Schema{Type: "boolean"}
	case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint64, reflect.Uint32:
		return &Schema{Type: "integer", Format: "int64"}
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Uint8, reflect.Uint16:
		return &Schema{Type: "integer", Format: "int32"}
	case reflect.Float32, reflect.Float64:
		return &Schema{Type: "number", Format: "double"}
	case reflect.Slice, reflect.Array:
		return d.list(t, spath)
	case reflect.Map:
		return &Schema{Type: "object", AdditionalProperties: d.schema(t.Elem(), spath)}
	case reflect.Struct:
		return d.object(t, spath)
	}
	return &Schema{PreserveUnknownFields: true}
}

// list derives the schema of a slice, keyed or a set if the kind
// declares it.
func (d deriver) list(t reflect.Type, spath string) *Schema {
	s := &Schema{Type: "array", Items: d.schema(t.Elem(), spath)}
	if keys, ok := d.keys[spath]; ok {
		s.ListType, s.ListMapKeys = "map", keys
	} else if slices.Contains(d.sets, spath) {
		s.ListType = "set"
	}
	return s
}

// object derives the schema of a struct from its exported fields' JSON
// tags, inlining embedded structs without a name.
func (d deriver) object(t reflect.Type, spath string) *Schema {
	if d.seen[t] {
		return &Schema{Type: "object", PreserveUnknownFields: true}
	}
	d.seen[t] = true
	defer delete(d.seen, t)
	s := &Schema{Type: "object", Properties: map[string]*Schema{}}
	for f := range fieldsOfStruct(t) {
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			inner := d.object(ft, spath)
			for k, v := range inner.Properties {
				s.Properties[k] = v
			}
			s.Required = append(s.Required, inner.Required...)
			continue
		}
		if name == "" {
			name = f.Name
		}
		s.Properties[name] = d.schema(f.Type, fieldPath(spath, name))
		if !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero") && f.Type.Kind() != reflect.Pointer {
			s.Required = append(s.Required, name)
		}
	}
	return s
}

// fieldsOfStruct yields the exported fields of t that JSON encodes.
func fieldsOfStruct(t reflect.Type) func(yield func(reflect.StructField) bool) {
	return func(yield func(reflect.StructField) bool) {
		for i := range t.NumField() {
			f := t.Field(i)
			if (!f.IsExported() && !f.Anonymous) || f.Tag.Get("json") == "-" {
				continue
			}
			if !yield(f) {
				return
			}
		}
	}
}

// fieldPath joins a field's name to the path of the struct holding it, as
// [KindInfo.ListMapKeys] writes paths ("spec.lines").
func fieldPath(spath, name string) string {
	if spath == "" {
		return name
	}
	return spath + "." + name
}
