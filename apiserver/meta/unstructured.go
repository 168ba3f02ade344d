package meta

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"strconv"
)

// Unstructured is an object without a Go type of its own: its apiVersion
// and kind, its metadata, and every other top-level field as JSON decodes
// it. The server stores and serves a kind that a CustomResourceDefinition
// defines (package apiserver/apiextensions) as Unstructured objects, and a
// program that has no Go type for a kind reads and writes it this way, as
// with Kubernetes' dynamic client.
//
// Like apimachinery's unstructured.Unstructured, but its metadata is a
// typed [ObjectMeta] (an [Object] hands out *ObjectMeta to be read and set
// in place), and Content holds the rest: "spec", "status" or whatever the
// kind's schema has. One Go type serves every such kind, so the [Scheme]
// finds an Unstructured object's kind by its apiVersion and kind, not by
// its Go type.
//
// Content holds what encoding/json decodes, with one difference: a whole
// number is an int64, any other number a float64, as apimachinery keeps
// them (so a schema can tell an integer from a number). Objects are
// map[string]any and arrays []any.
//
// The zero value is an empty object. An Unstructured is not safe for
// concurrent writes; objects the server hands out are the caller's own.
type Unstructured struct {
	TypeMeta
	ObjectMeta
	// Content holds every top-level field but apiVersion, kind and
	// metadata, e.g. {"spec": {"seats": 4}}. Keys named apiVersion, kind
	// or metadata are ignored when the object is encoded.
	Content map[string]any
}

// NewUnstructured returns an empty object of kind gvk.
func NewUnstructured(gvk GroupVersionKind) *Unstructured {
	return &Unstructured{TypeMeta: TypeMeta{APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind}}
}

// DeepCopyObject returns a copy of u that shares no memory with it.
func (u *Unstructured) DeepCopyObject() Object { return u.DeepCopy() }

// DeepCopy returns a copy of u that shares no memory with it.
func (u *Unstructured) DeepCopy() *Unstructured {
	out := &Unstructured{TypeMeta: u.TypeMeta, ObjectMeta: u.ObjectMeta.DeepCopy()}
	if u.Content != nil {
		out.Content = DeepCopyJSONValue(u.Content).(map[string]any)
	}
	return out
}

// DeepCopyJSONValue copies a value made of what [Unstructured] content
// holds: maps, slices and scalars. Anything else is returned as it is.
func DeepCopyJSONValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			out[k] = DeepCopyJSONValue(val)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = DeepCopyJSONValue(val)
		}
		return out
	}
	return v
}

// MarshalJSON writes the object as one JSON object: apiVersion, kind,
// metadata and the content's fields, keys sorted.
func (u *Unstructured) MarshalJSON() ([]byte, error) {
	doc := make(map[string]any, len(u.Content)+3)
	maps.Copy(doc, u.Content)
	delete(doc, "apiVersion")
	delete(doc, "kind")
	if u.APIVersion != "" {
		doc["apiVersion"] = u.APIVersion
	}
	if u.Kind != "" {
		doc["kind"] = u.Kind
	}
	doc["metadata"] = &u.ObjectMeta
	return json.Marshal(doc)
}

// UnmarshalJSON replaces u with the JSON object b. apiVersion and kind
// must be strings and metadata an object of [ObjectMeta]'s fields (others
// in it are dropped, as the real server drops them); everything else goes
// to Content, numbers as int64 or float64.
func (u *Unstructured) UnmarshalJSON(b []byte) error {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(b, &doc); err != nil {
		return err
	}
	if doc == nil {
		return &json.UnmarshalTypeError{Value: "null", Type: reflect.TypeFor[Unstructured]()}
	}
	var out Unstructured
	for _, f := range []struct {
		name string
		to   any
	}{{"apiVersion", &out.APIVersion}, {"kind", &out.Kind}, {"metadata", &out.ObjectMeta}} {
		if raw, ok := doc[f.name]; ok {
			if err := json.Unmarshal(raw, f.to); err != nil {
				return fmt.Errorf("%s: %w", f.name, err)
			}
			delete(doc, f.name)
		}
	}
	if len(doc) > 0 {
		out.Content = make(map[string]any, len(doc))
	}
	for k, raw := range doc {
		v, err := DecodeJSONValue(raw)
		if err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		out.Content[k] = v
	}
	*u = out
	return nil
}

// DecodeJSONValue decodes one JSON value as [Unstructured] content holds
// it: whole numbers as int64, other numbers as float64.
func DecodeJSONValue(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return convertNumbers(v), nil
}

// convertNumbers turns the json.Numbers in v into int64 or float64, in
// place where it can.
func convertNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		for k, val := range x {
			x[k] = convertNumbers(val)
		}
	case []any:
		for i, val := range x {
			x[i] = convertNumbers(val)
		}
	}
	return v
}

// NestedField returns the value at path in u's content, e.g.
// u.NestedField("spec", "seats"), and whether it is there.
func (u *Unstructured) NestedField(path ...string) (any, bool) {
	var cur any = u.Content
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[p]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// SetNestedField sets the value at path in u's content, making the
// objects on the way (and replacing any non-object there).
func (u *Unstructured) SetNestedField(v any, path ...string) {
	if len(path) == 0 {
		return
	}
	if u.Content == nil {
		u.Content = map[string]any{}
	}
	m := u.Content
	for _, p := range path[:len(path)-1] {
		next, ok := m[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[p] = next
		}
		m = next
	}
	m[path[len(path)-1]] = v
}

// RemoveNestedField deletes the value at path in u's content, if any.
func (u *Unstructured) RemoveNestedField(path ...string) {
	if len(path) == 0 {
		return
	}
	parent, ok := u.NestedField(path[:len(path)-1]...)
	if m, isMap := parent.(map[string]any); ok && isMap {
		delete(m, path[len(path)-1])
	}
}

// CopyTopField sets u's top-level field name to a deep copy of src's, or
// removes it if src has none: how a status update takes the status of
// the request and nothing else.
func (u *Unstructured) CopyTopField(name string, src *Unstructured) {
	v, ok := src.Content[name]
	if !ok {
		delete(u.Content, name)
		return
	}
	u.SetNestedField(DeepCopyJSONValue(v), name)
}
