package fieldmanager

import (
	"cmp"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// TrackUpdate sets next's metadata.managedFields for a write other than
// apply (update, merge and JSON patch) by manager that turns live into
// next, operation Update, as the real server does: the writer owns what it
// changed. status says the write is to the status subresource. An object
// whose fields are not tracked (no managedFields, as one created without a
// field manager) stays so until its first apply; managedFields in the
// request replace the stored ones, and an empty list (not null) clears
// them.
func TrackUpdate(info meta.KindInfo, live, next meta.Object, manager string, status bool) error {
	nm, lm := next.GetObjectMeta(), live.GetObjectMeta()
	base := nm.ManagedFields
	if isResetManagedFields(base) {
		nm.ManagedFields = nil
		return nil
	}
	if len(base) == 0 {
		base = lm.ManagedFields
	}
	if len(base) == 0 {
		nm.ManagedFields = nil
		return nil
	}
	ms, err := decodeManagers(base)
	if err != nil {
		return err
	}
	a, err1 := objectTree(live)
	b, err2 := objectTree(next)
	if err := cmp.Or(err1, err2); err != nil {
		return err
	}
	c := fieldSchemaOf(info).changes(a, b, status)
	nm.ManagedFields = ms.update(c, updaterID(info, manager, status), time.Now()).encode()
	return nil
}

// TrackCreate sets the managedFields of in, about to be created by
// manager: it owns every field it set. Without a manager, the object's
// fields are not tracked (the real server would name the client's
// user agent).
func TrackCreate(info meta.KindInfo, in meta.Object, manager string) error {
	m := in.GetObjectMeta()
	if isResetManagedFields(m.ManagedFields) {
		m.ManagedFields = nil
	}
	if manager == "" {
		return nil
	}
	ms, err := decodeManagers(m.ManagedFields)
	if err != nil {
		return err
	}
	empty, err1 := emptyTree(info, m.Name, m.Namespace)
	tree, err2 := objectTree(in)
	if err := cmp.Or(err1, err2); err != nil {
		return err
	}
	c := fieldSchemaOf(info).changes(empty, tree, false)
	m.ManagedFields = ms.update(c, updaterID(info, manager, false), time.Now()).encode()
	return nil
}

// updaterID names a writer with operation Update.
func updaterID(info meta.KindInfo, manager string, status bool) meta.ManagedFieldsEntry {
	id := meta.ManagedFieldsEntry{Manager: manager, Operation: meta.ManagedFieldsOperationUpdate, APIVersion: info.TypeMeta().APIVersion}
	if status {
		id.Subresource = "status"
	}
	return id
}

// isResetManagedFields reports whether a write asks to clear
// managedFields: an empty list, or one empty entry, as Kubernetes reads
// it.
func isResetManagedFields(mf []meta.ManagedFieldsEntry) bool {
	if len(mf) == 0 {
		return mf != nil
	}
	return len(mf) == 1 && mf[0].Manager == "" && mf[0].Operation == "" && len(mf[0].FieldsV1) == 0 &&
		mf[0].APIVersion == "" && mf[0].Time == nil && mf[0].Subresource == ""
}

// fieldSchemaOf returns how the lists of kind k merge.
func fieldSchemaOf(k meta.KindInfo) fieldSchema { return fieldSchema{mapKeys: k.ListMapKeys} }
