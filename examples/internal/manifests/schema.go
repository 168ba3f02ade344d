package manifests

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver"
)

var (
	timeType      = reflect.TypeFor[apiserver.Time]()
	marshalerType = reflect.TypeFor[json.Marshaler]()
	textType      = reflect.TypeFor[encoding.TextMarshaler]()
)

// schemaFor returns the OpenAPI v3 schema of values of type t as
// encoding/json writes them: objects from structs (by their json tags),
// arrays from slices, additionalProperties from maps; a type with its own
// JSON form (a time, a duration) is a string.
func schemaFor(t reflect.Type) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == timeType:
		return map[string]any{"type": "string", "format": "date-time"}
	case t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType) || t.Implements(textType):
		return map[string]any{"type": "string"}
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return map[string]any{"type": "integer", "format": "int32"}
	case reflect.Int64, reflect.Uint, reflect.Uint64:
		return map[string]any{"type": "integer", "format": "int64"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice, reflect.Array:
		return map[string]any{"type": "array", "items": schemaFor(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": schemaFor(t.Elem())}
	case reflect.Struct:
		return structSchema(t)
	}
	return map[string]any{"x-kubernetes-preserve-unknown-fields": true}
}

// structSchema lists a struct's JSON fields; those written even when
// empty (no omitempty or omitzero) are required.
func structSchema(t reflect.Type) map[string]any {
	props := map[string]any{}
	var required []string
	for f := range t.Fields() {
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if f.Anonymous && name == "" {
			if inner := schemaFor(f.Type); inner["properties"] != nil {
				for k, v := range inner["properties"].(map[string]any) {
					props[k] = v
				}
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		props[name] = schemaFor(f.Type)
		if !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero") {
			required = append(required, name)
		}
	}
	out := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		out["required"] = required
	}
	return out
}
