package meta

import (
	"encoding/json"
	"maps"
	"slices"
	"time"
)

// Object is anything the server can store: a kind with [TypeMeta] and
// [ObjectMeta], like Kubernetes' runtime.Object plus metav1.Object.
//
// A kind gets every method but DeepCopyObject for free by embedding both
// structs; it writes DeepCopyObject itself (Kubernetes generates it):
//
//	type Order struct {
//		meta.TypeMeta   `json:",inline"`
//		meta.ObjectMeta `json:"metadata"`
//		Spec   OrderSpec   `json:"spec"`
//		Status OrderStatus `json:"status,omitzero"`
//	}
//
// By convention, as in Kubernetes, the desired state lives in a field named
// Spec and the observed state in a field named Status. The server relies on
// those names: a change to Spec bumps metadata.generation, and Status is
// written only through the status subresource (a client's UpdateStatus).
type Object interface {
	// GetTypeMeta returns the object's apiVersion and kind, for reading or
	// setting in place.
	GetTypeMeta() *TypeMeta
	// GetObjectMeta returns the object's metadata, for reading or setting in
	// place.
	GetObjectMeta() *ObjectMeta
	// GetNamespace and GetName return metadata.namespace and metadata.name:
	// what the cache (package store) needs to key and index an object, as
	// metav1.Object's getters do in Kubernetes.
	GetNamespace() string
	GetName() string
	// DeepCopyObject returns a copy that shares no memory with the original.
	DeepCopyObject() Object
}

// DeepCopy returns a typed deep copy of obj, so that callers holding a
// *Order get a *Order back rather than an [Object].
func DeepCopy[T Object](obj T) T {
	return obj.DeepCopyObject().(T)
}

// TypeMeta says what kind of object this is, with the JSON field names
// Kubernetes uses ("apiVersion", "kind").
type TypeMeta struct {
	// APIVersion is "group/version", or just "version" for the core group.
	APIVersion string `json:"apiVersion,omitempty"`
	// Kind is the CamelCase singular name of the type, e.g. "Order".
	Kind string `json:"kind,omitempty"`
}

// GetTypeMeta returns tm itself, so that every kind embedding TypeMeta
// satisfies that part of [Object].
func (tm *TypeMeta) GetTypeMeta() *TypeMeta { return tm }

// GroupVersionKind parses APIVersion and combines it with Kind.
func (tm *TypeMeta) GroupVersionKind() GroupVersionKind {
	gv := ParseGroupVersion(tm.APIVersion)
	return GroupVersionKind{Group: gv.Group, Version: gv.Version, Kind: tm.Kind}
}

// ObjectMeta is the metadata every stored object carries, with the JSON
// field names Kubernetes uses. The server owns UID, ResourceVersion,
// Generation, CreationTimestamp and DeletionTimestamp: whatever a client
// puts there on create is replaced.
type ObjectMeta struct {
	// Name is unique within a namespace (or the cluster for cluster-scoped
	// kinds) and must be a DNS-1123 subdomain.
	Name string `json:"name,omitempty"`
	// GenerateName, when Name is empty, asks the server to make a unique
	// name from this prefix.
	GenerateName string `json:"generateName,omitempty"`
	// Namespace is empty for cluster-scoped kinds.
	Namespace string `json:"namespace,omitempty"`
	// UID is set by the server on create and never changes; a deleted and
	// re-created object gets a new one.
	UID string `json:"uid,omitempty"`
	// ResourceVersion identifies the object's state at its last write. It
	// is opaque to clients: compare for equality, never parse it. An update
	// that carries a stale one fails with 409 Conflict.
	ResourceVersion string `json:"resourceVersion,omitempty"`
	// Generation counts changes to the desired state (Spec), and moves once
	// more when a deletion starts (deletionTimestamp set); status writes
	// and other metadata edits do not bump it.
	Generation int64 `json:"generation,omitempty"`
	// CreationTimestamp is when the server created the object.
	CreationTimestamp Time `json:"creationTimestamp,omitzero"`
	// DeletionTimestamp is set when a delete has been asked for but
	// finalizers are still pending. Once set, it is never cleared.
	DeletionTimestamp *Time `json:"deletionTimestamp,omitempty"`
	// DeletionGracePeriodSeconds is how long the object had to go when its
	// deletion started; set with DeletionTimestamp, and always 0 here (no
	// kind here deletes gracefully, as none of a custom resource's does).
	DeletionGracePeriodSeconds *int64 `json:"deletionGracePeriodSeconds,omitempty"`
	// Labels are identifying key/value pairs that selectors match.
	Labels map[string]string `json:"labels,omitempty"`
	// Annotations are non-identifying key/value pairs for tools and people.
	Annotations map[string]string `json:"annotations,omitempty"`
	// Finalizers hold an object back from deletion until each controller
	// that listed one has done its cleanup and removed it.
	Finalizers []string `json:"finalizers,omitempty"`
	// OwnerReferences name the objects this one belongs to; the owner's
	// controller watches its children through them.
	OwnerReferences []OwnerReference `json:"ownerReferences,omitempty"`
	// ManagedFields record which field manager owns which fields, for
	// server-side apply ([ApplyPatchType]); see [ManagedFieldsEntry].
	ManagedFields []ManagedFieldsEntry `json:"managedFields,omitempty"`
}

// GetObjectMeta returns m itself, so that every kind embedding ObjectMeta
// satisfies that part of [Object].
func (m *ObjectMeta) GetObjectMeta() *ObjectMeta { return m }

// GetNamespace returns m.Namespace.
func (m *ObjectMeta) GetNamespace() string { return m.Namespace }

// GetName returns m.Name.
func (m *ObjectMeta) GetName() string { return m.Name }

// DeepCopy returns a copy of m that shares no maps or slices with it.
func (m *ObjectMeta) DeepCopy() ObjectMeta {
	out := *m
	if m.DeletionTimestamp != nil {
		ts := *m.DeletionTimestamp
		out.DeletionTimestamp = &ts
	}
	if m.DeletionGracePeriodSeconds != nil {
		secs := *m.DeletionGracePeriodSeconds
		out.DeletionGracePeriodSeconds = &secs
	}
	out.Labels = maps.Clone(m.Labels)
	out.Annotations = maps.Clone(m.Annotations)
	out.Finalizers = slices.Clone(m.Finalizers)
	if m.OwnerReferences != nil {
		out.OwnerReferences = make([]OwnerReference, len(m.OwnerReferences))
		for i, ref := range m.OwnerReferences {
			out.OwnerReferences[i] = ref.DeepCopy()
		}
	}
	if m.ManagedFields != nil {
		out.ManagedFields = make([]ManagedFieldsEntry, len(m.ManagedFields))
		for i, mf := range m.ManagedFields {
			out.ManagedFields[i] = mf.DeepCopy()
		}
	}
	return out
}

// OwnerReference points from a child to its owner, like Kubernetes'
// metav1.OwnerReference. At most one owner reference is the controller.
type OwnerReference struct {
	// APIVersion of the owner, e.g. "menu.example.com/v1".
	APIVersion string `json:"apiVersion"`
	// Kind of the owner, e.g. "Order".
	Kind string `json:"kind"`
	// Name of the owner, in the child's namespace.
	Name string `json:"name"`
	// UID of the owner, so that a re-created owner of the same name is not
	// mistaken for the old one.
	UID string `json:"uid"`
	// Controller is true on the one owner that manages this child.
	Controller *bool `json:"controller,omitempty"`
	// BlockOwnerDeletion asks foreground deletion to wait for this child.
	BlockOwnerDeletion *bool `json:"blockOwnerDeletion,omitempty"`
}

// DeepCopy returns a copy of r that shares no pointers with it.
func (r OwnerReference) DeepCopy() OwnerReference {
	out := r
	if r.Controller != nil {
		v := *r.Controller
		out.Controller = &v
	}
	if r.BlockOwnerDeletion != nil {
		v := *r.BlockOwnerDeletion
		out.BlockOwnerDeletion = &v
	}
	return out
}

// NewControllerRef returns an owner reference to owner with Controller and
// BlockOwnerDeletion set, as a controller puts on the children it creates.
func NewControllerRef(owner Object) OwnerReference {
	tm, om := owner.GetTypeMeta(), owner.GetObjectMeta()
	yes, block := true, true
	return OwnerReference{
		APIVersion:         tm.APIVersion,
		Kind:               tm.Kind,
		Name:               om.Name,
		UID:                om.UID,
		Controller:         &yes,
		BlockOwnerDeletion: &block,
	}
}

// GetControllerOf returns the owner reference marked as controller, or nil.
func GetControllerOf(obj Object) *OwnerReference {
	for i, ref := range obj.GetObjectMeta().OwnerReferences {
		if ref.Controller != nil && *ref.Controller {
			return &obj.GetObjectMeta().OwnerReferences[i]
		}
	}
	return nil
}

// Time is a timestamp that marshals to JSON as Kubernetes does: RFC 3339 in
// UTC with second precision, or null when zero.
type Time struct {
	time.Time
}

// NewTime wraps t, truncated to the second as the JSON form keeps it.
func NewTime(t time.Time) Time {
	return Time{t.Truncate(time.Second)}
}

// MarshalJSON writes t as an RFC 3339 string, or null when zero.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	// An RFC 3339 time is digits, letters and punctuation that JSON
	// strings hold as they are: no escaping, no second encoder.
	b := make([]byte, 0, len(`"2006-01-02T15:04:05Z"`))
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, time.RFC3339)
	return append(b, '"'), nil
}

// UnmarshalJSON reads an RFC 3339 string or null.
func (t *Time) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		t.Time = time.Time{}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	parsed, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return err
	}
	t.Time = parsed.Local()
	return nil
}
