package apiextensions

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/apiextensions/structural"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// selectableFields are a version's field selectors: each its JSON path
// without the leading dot ("spec.color"), read from the object's content
// and printed as the real server prints it (a missing field is "").
func selectableFields(v *CustomResourceDefinitionVersion) map[string]meta.FieldFunc {
	if len(v.SelectableFields) == 0 {
		return nil
	}
	out := map[string]meta.FieldFunc{}
	for _, f := range v.SelectableFields {
		path := f.JSONPath
		out[strings.TrimPrefix(path, ".")] = func(obj meta.Object) string {
			u, ok := obj.(*meta.Unstructured)
			if !ok {
				return ""
			}
			vals := meta.JSONPathValues(u.Content, path)
			if len(vals) != 1 || vals[0] == nil {
				return ""
			}
			return fmt.Sprint(vals[0])
		}
	}
	return out
}

// mergeMarkers are a schema's list-type and map-type markers, as
// server-side apply reads them, by field path without indices
// ("spec.lines"): [meta.KindInfo.ListMapKeys], ListSets and AtomicMaps.
type mergeMarkers struct {
	mapKeys map[string][]string
	sets    []string
	atomic  []string
}

// collect adds the markers of s, at path, and of the values below it
// that server-side apply merges on their own: not below an atomic object
// or list (owned whole), nor below a map's values (whose names are not
// in the schema).
func (m *mergeMarkers) collect(s *structural.Schema, path string) {
	if s == nil {
		return
	}
	if path != "" {
		switch {
		case s.Type == "object" && s.MapType == "atomic":
			m.atomic = append(m.atomic, path)
			return
		case s.Type == "array" && s.ListType == "map":
			if m.mapKeys == nil {
				m.mapKeys = map[string][]string{}
			}
			m.mapKeys[path] = s.ListMapKeys
		case s.Type == "array" && s.ListType == "set":
			m.sets = append(m.sets, path)
			return
		case s.Type == "array":
			return // atomic, the default
		}
	}
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		m.collect(s.Properties[name], joinPath(path, name))
	}
	m.collect(s.Items, path)
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// openAPISchema is the version's schema as the server publishes it for
// kubectl explain (/openapi/v3): the subset [meta.Schema] has.
func openAPISchema(v *CustomResourceDefinitionVersion) *meta.Schema {
	if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
		return nil
	}
	s := toMetaSchema(v.Schema.OpenAPIV3Schema)
	if s.Properties == nil {
		s.Properties = map[string]*meta.Schema{}
	}
	for name, doc := range map[string]string{"apiVersion": apiVersionDoc, "kind": kindDoc} {
		if _, ok := s.Properties[name]; !ok {
			s.Properties[name] = &meta.Schema{Type: "string", Description: doc}
		}
	}
	s.Properties["metadata"] = &meta.Schema{Type: "object", Description: "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"}
	return s
}

const (
	apiVersionDoc = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources"
	kindDoc       = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
)

func toMetaSchema(p *JSONSchemaProps) *meta.Schema {
	s := &meta.Schema{Type: p.Type, Format: p.Format, Description: p.Description, Required: p.Required,
		ListMapKeys: p.XListMapKeys, PreserveUnknownFields: p.XPreserveUnknownFields != nil && *p.XPreserveUnknownFields}
	if p.XListType != nil {
		s.ListType = *p.XListType
	}
	for name, prop := range p.Properties {
		if s.Properties == nil {
			s.Properties = map[string]*meta.Schema{}
		}
		s.Properties[name] = toMetaSchema(&prop)
	}
	if p.Items != nil && p.Items.Schema != nil {
		s.Items = toMetaSchema(p.Items.Schema)
	}
	if p.AdditionalProperties != nil && p.AdditionalProperties.Schema != nil {
		s.AdditionalProperties = toMetaSchema(p.AdditionalProperties.Schema)
	}
	return s
}
