package fieldmanager

import (
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// TrackUpdate sets next's metadata.managedFields for a write other than
// apply (update, merge and JSON patch) by w that turns live into next
// (objects of the stored kind info, whose versions vs are), operation
// Update, as the real server does: the writer owns what it changed, in
// the version it wrote in, and takes it from the others, in theirs. An
// object whose fields are not tracked (no managedFields, as one created
// without a field manager) stays so until its first apply;
// managedFields in the request replace the stored ones, and an empty
// list (not null) clears them.
func TrackUpdate(info meta.KindInfo, vs Versions, live, next meta.Object, w Writer) error {
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
	v := &views{stored: info, vs: vs, a: live, b: next, status: w.Status}
	ms, err = ms.track(v, updaterID(info, w), time.Now())
	if err != nil {
		return err
	}
	nm.ManagedFields = ms.encode()
	return nil
}

// TrackCreate sets the managedFields of in, about to be created by w:
// it owns every field it set, in the version it wrote in. Without a
// manager, the object's fields are not tracked (the real server would
// name the client's user agent).
func TrackCreate(info meta.KindInfo, vs Versions, in meta.Object, w Writer) error {
	m := in.GetObjectMeta()
	if isResetManagedFields(m.ManagedFields) {
		m.ManagedFields = nil
	}
	if w.Manager == "" {
		return nil
	}
	ms, err := decodeManagers(m.ManagedFields)
	if err != nil {
		return err
	}
	v := &views{stored: info, vs: vs, b: in, name: m.Name, ns: m.Namespace}
	ms, err = ms.track(v, updaterID(info, w), time.Now())
	if err != nil {
		return err
	}
	m.ManagedFields = ms.encode()
	return nil
}

// updaterID names a writer with operation Update, in the version it
// writes in.
func updaterID(info meta.KindInfo, w Writer) meta.ManagedFieldsEntry {
	id := meta.ManagedFieldsEntry{Manager: w.Manager, Operation: meta.ManagedFieldsOperationUpdate, APIVersion: w.APIVersion}
	if id.APIVersion == "" {
		id.APIVersion = info.TypeMeta().APIVersion
	}
	if w.Status {
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

// fieldSchemaOf returns how the lists and objects of kind k merge.
func fieldSchemaOf(k meta.KindInfo) fieldSchema {
	return fieldSchema{mapKeys: k.ListMapKeys, sets: k.ListSets, atomic: k.AtomicMaps}
}
