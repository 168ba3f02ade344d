package meta

import (
	"bytes"
	"encoding/json"
)

// ManagedFieldsOperation says how a field manager last wrote its fields,
// like metav1.ManagedFieldsOperationType.
type ManagedFieldsOperation string

// The two operations metadata.managedFields records.
const (
	// ManagedFieldsOperationApply is a server-side apply ([ApplyPatchType]):
	// the manager's fields are exactly those of its last applied
	// configuration.
	ManagedFieldsOperationApply ManagedFieldsOperation = "Apply"
	// ManagedFieldsOperationUpdate is any other write (create, update,
	// merge or JSON patch): the manager owns the fields it changed.
	ManagedFieldsOperationUpdate ManagedFieldsOperation = "Update"
)

// ManagedFieldsEntry is one field manager's claim on an object's fields,
// an element of metadata.managedFields, with the JSON of Kubernetes'
// metav1.ManagedFieldsEntry.
//
// FieldsV1 is the set of owned fields as the real server writes it: an
// object whose keys are path elements — "f:name" a field, `k:{"name":"x"}`
// the item of a keyed list with that key, `v:"x"` the item of a set — and
// whose values are the fields beneath; "." marks a node that is owned
// itself as well as holding owned fields. For example
// {"f:spec":{"f:table":{}}} owns spec.table.
type ManagedFieldsEntry struct {
	// Manager names the writer: the fieldManager of its requests.
	Manager string `json:"manager,omitempty"`
	// Operation is Apply or Update.
	Operation ManagedFieldsOperation `json:"operation,omitempty"`
	// APIVersion is the version the manager wrote its fields in.
	APIVersion string `json:"apiVersion,omitempty"`
	// Time is when the manager last changed its fields.
	Time *Time `json:"time,omitempty"`
	// FieldsType is always "FieldsV1".
	FieldsType string `json:"fieldsType,omitempty"`
	// FieldsV1 is the set of fields owned, described on the type.
	FieldsV1 json.RawMessage `json:"fieldsV1,omitempty"`
	// Subresource is "status" for writes to the status subresource.
	Subresource string `json:"subresource,omitempty"`
}

// DeepCopy returns a copy of e that shares no memory with it.
func (e ManagedFieldsEntry) DeepCopy() ManagedFieldsEntry {
	if e.Time != nil {
		t := *e.Time
		e.Time = &t
	}
	e.FieldsV1 = bytes.Clone(e.FieldsV1)
	return e
}
