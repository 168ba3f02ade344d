package builtin

import (
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// decodeObjectMeta reads a meta/v1 ObjectMeta message into m.
func decodeObjectMeta(b []byte, m *meta.ObjectMeta) error {
	return eachField(b, "metadata", func(f pbField) (err error) {
		switch f.num {
		case 1:
			m.Name, err = f.str()
		case 2:
			m.GenerateName, err = f.str()
		case 3:
			m.Namespace, err = f.str()
		case 5:
			m.UID, err = f.str()
		case 6:
			m.ResourceVersion, err = f.str()
		case 7:
			m.Generation, err = f.int64()
		case 8:
			m.CreationTimestamp, err = f.time()
		case 9:
			m.DeletionTimestamp, err = ptr(f.time())
		case 10:
			m.DeletionGracePeriodSeconds, err = ptr(f.int64())
		case 11:
			err = f.stringMapEntry(&m.Labels)
		case 12:
			err = f.stringMapEntry(&m.Annotations)
		case 13:
			var ref meta.OwnerReference
			ref, err = f.ownerReference()
			m.OwnerReferences = append(m.OwnerReferences, ref)
		case 14:
			var s string
			s, err = f.str()
			m.Finalizers = append(m.Finalizers, s)
		case 17:
			var e meta.ManagedFieldsEntry
			e, err = f.managedFieldsEntry()
			m.ManagedFields = append(m.ManagedFields, e)
		}
		return err
	})
}

// ownerReference reads a meta/v1 OwnerReference message.
func (f pbField) ownerReference() (meta.OwnerReference, error) {
	var r meta.OwnerReference
	b, err := f.message()
	if err != nil {
		return r, err
	}
	return r, eachField(b, "ownerReferences", func(g pbField) (err error) {
		switch g.num {
		case 1:
			r.Kind, err = g.str()
		case 3:
			r.Name, err = g.str()
		case 4:
			r.UID, err = g.str()
		case 5:
			r.APIVersion, err = g.str()
		case 6:
			r.Controller, err = ptr(g.bool())
		case 7:
			r.BlockOwnerDeletion, err = ptr(g.bool())
		}
		return err
	})
}

// managedFieldsEntry reads a meta/v1 ManagedFieldsEntry message; its
// fieldsV1 {1: raw} holds the JSON the JSON form carries inline.
func (f pbField) managedFieldsEntry() (meta.ManagedFieldsEntry, error) {
	var e meta.ManagedFieldsEntry
	b, err := f.message()
	if err != nil {
		return e, err
	}
	return e, eachField(b, "managedFields", func(g pbField) (err error) {
		switch g.num {
		case 1:
			e.Manager, err = g.str()
		case 2:
			var op string
			op, err = g.str()
			e.Operation = meta.ManagedFieldsOperation(op)
		case 3:
			e.APIVersion, err = g.str()
		case 4:
			e.Time, err = ptr(g.time())
		case 6:
			e.FieldsType, err = g.str()
		case 7:
			err = g.fieldsV1(&e)
		case 8:
			e.Subresource, err = g.str()
		}
		return err
	})
}

func (f pbField) fieldsV1(e *meta.ManagedFieldsEntry) error {
	b, err := f.message()
	if err != nil {
		return err
	}
	return eachField(b, "fieldsV1", func(g pbField) (err error) {
		if g.num == 1 {
			var raw []byte
			raw, err = g.message()
			e.FieldsV1 = append([]byte(nil), raw...)
		}
		return err
	})
}
