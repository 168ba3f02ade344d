package apiserver

import (
	"encoding/json"
	"reflect"
	"sync"

	"github.com/kitchensync/kitchensync/apiserver/internal/jsonenc"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// kindFields says where a kind keeps its Spec and Status, found by
// reflection once per Go type. An index of -1 means the kind has no such
// field.
type kindFields struct {
	spec, status int
	// specKey and metaKey are the JSON member names of Spec and of the
	// embedded ObjectMeta, or "" where the content cannot be read that
	// way (see [kindFields.jsonKeys]).
	specKey, metaKey string
}

var kindFieldsCache sync.Map // reflect.Type -> kindFields

// fieldsOf returns the Spec and Status field indexes of obj's struct type.
func fieldsOf(obj meta.Object) kindFields {
	t := reflect.TypeOf(obj)
	if kf, ok := kindFieldsCache.Load(t); ok {
		return kf.(kindFields)
	}
	kf := kindFields{spec: -1, status: -1}
	if t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct {
		if f, ok := t.Elem().FieldByName("Spec"); ok && len(f.Index) == 1 {
			kf.spec = f.Index[0]
		}
		if f, ok := t.Elem().FieldByName("Status"); ok && len(f.Index) == 1 {
			kf.status = f.Index[0]
		}
		kf.jsonKeys(t)
	}
	kindFieldsCache.Store(t, kf)
	return kf
}

// jsonKeys finds the JSON member names of a kind's Spec field and
// embedded ObjectMeta (t is the pointer type), leaving them empty where
// the content cannot be read that way: a kind or metadata with its own
// MarshalJSON, a field left out of JSON or flattened into its parent.
func (kf *kindFields) jsonKeys(t reflect.Type) {
	marshaler := reflect.TypeFor[json.Marshaler]()
	if t.Implements(marshaler) || t.Elem().Implements(marshaler) {
		return
	}
	if kf.spec >= 0 {
		kf.specKey = jsonenc.MemberName(t.Elem().Field(kf.spec))
	}
	if f, ok := t.Elem().FieldByName("ObjectMeta"); ok && len(f.Index) == 1 && f.Type == reflect.TypeFor[meta.ObjectMeta]() {
		kf.metaKey = jsonenc.MemberName(f)
	}
}

// copyField sets field i of dst's struct to the value it has in src. The
// value is shared, not copied: only ever used with src an immutable entry
// and dst a new state about to be committed.
func copyField(dst, src meta.Object, i int) {
	reflect.ValueOf(dst).Elem().Field(i).Set(reflect.ValueOf(src).Elem().Field(i))
}

// clearField sets field i of obj's struct to its zero value.
func clearField(obj meta.Object, i int) {
	f := reflect.ValueOf(obj).Elem().Field(i)
	f.Set(reflect.Zero(f.Type()))
}

// specJSON returns the JSON of obj's desired state: its Spec field, or, for
// a kind without one, everything but metadata and status (as Kubernetes
// bumps the generation of such custom resources on any non-metadata
// change).
func specJSON(obj meta.Object, kf kindFields) ([]byte, error) {
	if u, ok := obj.(*meta.Unstructured); ok {
		return json.Marshal(u.Content) // all but metadata, as for a custom resource
	}
	if kf.spec >= 0 {
		return json.Marshal(reflect.ValueOf(obj).Elem().Field(kf.spec).Interface())
	}
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	for _, k := range []string{"apiVersion", "kind", "metadata", "status"} {
		delete(m, k)
	}
	return json.Marshal(m)
}

// hasStatus reports whether obj's kind has a status subresource: its Go
// type has a Status field, or its KindInfo says so.
func hasStatus(info meta.KindInfo, obj meta.Object) bool {
	return info.StatusSubresource || fieldsOf(obj).status >= 0
}

// copyStatus sets dst's status to src's: a Go kind's Status field, or an
// unstructured object's "status".
func copyStatus(dst, src meta.Object, kf kindFields) {
	if u, ok := dst.(*meta.Unstructured); ok {
		u.CopyTopField("status", src.(*meta.Unstructured))
		return
	}
	copyField(dst, src, kf.status)
}

// clearStatus empties obj's status.
func clearStatus(obj meta.Object, kf kindFields) {
	if u, ok := obj.(*meta.Unstructured); ok {
		u.RemoveNestedField("status")
		return
	}
	clearField(obj, kf.status)
}
