package httpapi

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/internal/jsonenc"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	yaml "go.yaml.in/yaml/v3"
)

// readBody reads the request body, at most h.maxBytes of it: a longer
// body is 413 RequestEntityTooLarge, and is never read to the end.
func (h *Handler) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	// A server that cannot set deadlines (httptest.ResponseRecorder)
	// reads without one. Once read, the deadline goes again: the
	// connection's later reads only watch for the client leaving.
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(DefaultBodyReadTimeout))
	defer func() { _ = rc.SetReadDeadline(time.Time{}) }()
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.maxBytes))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return nil, meta.NewRequestEntityTooLarge(fmt.Sprintf("limit is %d", h.maxBytes))
	case err != nil:
		return nil, meta.NewBadRequest(fmt.Sprintf("reading the request body: %v", err))
	}
	return body, nil
}

// yamlMediaType is the Content-Type of a YAML body.
const yamlMediaType = "application/yaml"

// yamlToJSON turns a YAML body (one document) into JSON, which the
// handler decodes as it decodes a JSON body, as kube-apiserver reads
// application/yaml.
func yamlToJSON(body []byte) ([]byte, error) {
	var v any
	err := yaml.Unmarshal(body, &v)
	if err == nil {
		if body, err = json.Marshal(v); err == nil {
			return body, nil
		}
	}
	return nil, meta.NewBadRequest(fmt.Sprintf("the body is not YAML that reads as JSON: %v", err))
}

// mediaType returns the media type of the request body, without
// parameters ("" when there is no Content-Type).
func mediaType(r *http.Request) string {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return ""
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return ct
	}
	return mt
}

// decodeObject decodes a create or update body into a new object of the
// kind. Malformed JSON, or JSON that is not an object, is 400 worded as
// kube-apiserver words it; a value of the wrong type is 400 naming the
// field, with its line and column. Unknown fields are
// dropped, with a warning (Warn) or silently (Ignore), or refused with 400
// naming each of them (Strict).
func decodeObject(info meta.KindInfo, body []byte, fv fieldValidation) (meta.Object, []string, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, nil, meta.NewBadRequest("the request body is empty: send the object as JSON")
	}
	apiVersion, kind, generic, err := decodeGeneric(info, body)
	if err != nil {
		return nil, nil, err
	}
	if warnings, err := checkUnstructuredKind(info, apiVersion, kind, body, generic); err != nil {
		return nil, warnings, err
	}
	obj := info.New()
	if err := jsonenc.Unmarshal(body, obj); err != nil { // obj is new: the typed decoder, or json.Unmarshal
		return nil, nil, meta.NewBadRequest(describeJSONError(info, body, err))
	}
	var unknown []string
	unknownFields(reflect.TypeOf(obj), generic, "", &unknown)
	unknown = append(unknown, prunedFields(info, obj, generic)...)
	var warnings []string
	for _, f := range unknown {
		warnings = append(warnings, fmt.Sprintf("unknown field %q", f))
	}
	duplicates, _ := jsonenc.DuplicateKeys(body) // body is valid JSON by now
	for _, f := range duplicates {
		warnings = append(warnings, fmt.Sprintf("duplicate field %q", f))
	}
	switch {
	case fv == validationStrict && len(warnings) > 0:
		return nil, nil, meta.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: strict decoding error: %s",
			info.Kind, info.Version, info.Kind, strings.Join(warnings, ", ")))
	case fv != validationWarn:
		warnings = nil
	}
	return obj, warnings, nil
}

// decodeGeneric decodes body, a create's or update's, as a tree (what
// the checks of its fields walk), and reads its apiVersion and kind. Like
// kube-apiserver, it reads the kind first, so that a body that is not a
// JSON object fails in its words. Most bodies take one pass of
// jsonenc.DecodeTree; one it declines, or whose apiVersion or kind is not
// a string, is decoded by encoding/json, which words what is wrong.
func decodeGeneric(info meta.KindInfo, body []byte) (apiVersion, kind string, generic any, err error) {
	if tree, ok := jsonenc.DecodeTree(body); ok {
		apiVersion, okVersion := stringOrNull(tree["apiVersion"])
		kind, okKind := stringOrNull(tree["kind"])
		if okVersion && okKind {
			return apiVersion, kind, tree, nil
		}
	}
	var findKind struct {
		APIVersion string `json:"apiVersion,omitempty"`
		Kind       string `json:"kind,omitempty"`
	}
	if err := json.Unmarshal(body, &findKind); err != nil {
		return "", "", nil, meta.NewBadRequest(fmt.Sprintf(
			"the object provided is unrecognized (must be of type %s): couldn't get version/kind; json parse error: %v (%s)",
			info.Kind, err, summarize(body, 30)))
	}
	if err := json.Unmarshal(body, &generic); err != nil {
		return "", "", nil, meta.NewBadRequest(describeJSONError(info, body, err))
	}
	return findKind.APIVersion, findKind.Kind, generic, nil
}

// stringOrNull is v as a string field decodes it: a string, or "" for
// null or nothing; false for anything else.
func stringOrNull(v any) (string, bool) {
	s, ok := v.(string)
	return s, ok || v == nil
}

// describeJSONError words a decoding error as Kubernetes does ("Widget in
// version ... cannot be handled as a Widget: ..."), and says where in the
// body it is.
func describeJSONError(info meta.KindInfo, body []byte, err error) string {
	prefix := fmt.Sprintf("%s in version %q cannot be handled as a %s: ", info.Kind, info.Version, info.Kind)
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		line, col := position(body, syntax.Offset)
		return fmt.Sprintf("%sthe body is not valid JSON: %v at line %d, column %d", prefix, syntax, line, col)
	case errors.As(err, &typ) && typ.Field == "":
		return fmt.Sprintf("%sthe body is a JSON %s: send a JSON object", prefix, typ.Value)
	case errors.As(err, &typ):
		// In the words of a CRD's schema validation, not Go's: the field,
		// the type sent, the type wanted, and how to write it.
		line, col := position(body, typ.Offset)
		want := schemaType(typ.Type)
		return fmt.Sprintf("%s%s: Invalid value: %q: must be of type %s; %s (the value ends at line %d, column %d of the body)",
			prefix, typ.Field, valueType(typ.Value), want, howToWrite[want], line, col)
	}
	return prefix + err.Error()
}

// schemaType names a Go type as an OpenAPI schema does.
func schemaType(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Map, reflect.Struct, reflect.Interface:
		return "object"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "string" // []byte is base64 text
		}
		return "array"
	case reflect.Bool:
		return "boolean"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.String:
		return "string"
	}
	return "integer"
}

// valueType names the JSON value an UnmarshalTypeError describes ("array",
// "number 5", "bool") as an OpenAPI schema does.
func valueType(v string) string {
	switch {
	case v == "bool":
		return "boolean"
	case strings.HasPrefix(v, "number"):
		if n := strings.TrimSpace(strings.TrimPrefix(v, "number")); n != "" && !strings.ContainsAny(n, ".eE") {
			return "integer"
		}
		return "number"
	}
	return v
}

// howToWrite says, for each schema type, how to write a value of it in
// YAML or JSON.
var howToWrite = map[string]string{
	"object":  "write it as name: value pairs (a map), not a list or a single value",
	"array":   "write it as a list, one \"- \" line (or one [ ] entry) per item",
	"string":  "write it as text, in quotes if it looks like a number or true/false",
	"integer": "write a whole number, without quotes or units",
	"number":  "write a number, without quotes or units",
	"boolean": "write true or false, without quotes",
}

// summarize shows the start of a body in an error, as kube-apiserver
// does: at most n bytes, as text if it looks like a JSON object, else in
// hex.
func summarize(body []byte, n int) string {
	short, more := body, ""
	if len(body) > n {
		short, more = body[:n], " ..."
	}
	if len(body) > 0 && body[0] == '{' {
		return string(short) + more
	}
	return hex.EncodeToString(short) + more
}

// position turns a byte offset into a 1-based line and column.
func position(body []byte, offset int64) (line, col int) {
	offset = min(max(offset, 0), int64(len(body)))
	before := body[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(offset) - (bytes.LastIndexByte(before, '\n') + 1)
	return line, max(col, 1)
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// unknownFields appends to out the JSON paths in v (a generically decoded
// body) that the Go type t has no field for, like the strict decoding of
// the Kubernetes API server. Types that decode themselves are trusted.
func unknownFields(t reflect.Type, v any, path string, out *[]string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		m, _ := v.(map[string]any)
		fields := knownFields(t)
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			ft, ok := fields[k]
			if !ok {
				*out = append(*out, joinPath(path, k))
				continue
			}
			unknownFields(ft, m[k], joinPath(path, k), out)
		}
	case reflect.Map:
		m, _ := v.(map[string]any)
		for k, val := range m {
			unknownFields(t.Elem(), val, joinPath(path, k), out)
		}
	case reflect.Slice, reflect.Array:
		items, _ := v.([]any)
		for i, item := range items {
			unknownFields(t.Elem(), item, fmt.Sprintf("%s[%d]", path, i), out)
		}
	}
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// fieldsByType holds jsonFields of each struct type unknownFields has
// walked (reflect.Type to map[string]reflect.Type): a type's fields never
// change, and every body of a kind walks the same types.
var fieldsByType sync.Map

// knownFields is jsonFields(t), worked out once per type (read-only).
func knownFields(t reflect.Type) map[string]reflect.Type {
	if f, ok := fieldsByType.Load(t); ok {
		return f.(map[string]reflect.Type)
	}
	f, _ := fieldsByType.LoadOrStore(t, jsonFields(t))
	return f.(map[string]reflect.Type)
}

// jsonFields maps the JSON names of struct t's fields to their types, with
// the fields of embedded structs without a JSON name promoted, as
// encoding/json sees them.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	fields := make(map[string]reflect.Type)
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			for k, v := range jsonFields(ft) {
				if _, ok := fields[k]; !ok {
					fields[k] = v
				}
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = f.Type
	}
	return fields
}
