package kubeproto

import (
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// AppendObjectMeta appends the fields of a meta/v1 ObjectMeta message.
func AppendObjectMeta(b []byte, m *meta.ObjectMeta) []byte {
	b = AppendString(b, 1, m.Name)
	b = AppendString(b, 2, m.GenerateName)
	b = AppendString(b, 3, m.Namespace)
	b = AppendString(b, 5, m.UID)
	b = AppendString(b, 6, m.ResourceVersion)
	b = AppendVarint(b, 7, uint64(m.Generation))
	b = AppendTime(b, 8, m.CreationTimestamp.Time)
	if m.DeletionTimestamp != nil {
		b = AppendMessage(b, 9, AppendTimestamp(nil, m.DeletionTimestamp.Time))
	}
	if m.DeletionGracePeriodSeconds != nil {
		b = AppendVarint(b, 10, uint64(*m.DeletionGracePeriodSeconds))
	}
	b = AppendStringMap(b, 11, m.Labels)
	b = AppendStringMap(b, 12, m.Annotations)
	for _, r := range m.OwnerReferences {
		var o []byte
		o = AppendString(o, 1, r.Kind)
		o = AppendString(o, 3, r.Name)
		o = AppendString(o, 4, r.UID)
		o = AppendString(o, 5, r.APIVersion)
		o = AppendOptBool(o, 6, r.Controller)
		o = AppendOptBool(o, 7, r.BlockOwnerDeletion)
		b = AppendMessage(b, 13, o)
	}
	b = AppendStrings(b, 14, m.Finalizers)
	for _, e := range m.ManagedFields {
		b = AppendMessage(b, 17, appendManagedFieldsEntry(nil, e))
	}
	return b
}

func appendManagedFieldsEntry(b []byte, e meta.ManagedFieldsEntry) []byte {
	b = AppendString(b, 1, e.Manager)
	b = AppendString(b, 2, string(e.Operation))
	b = AppendString(b, 3, e.APIVersion)
	if e.Time != nil {
		b = AppendMessage(b, 4, AppendTimestamp(nil, e.Time.Time))
	}
	b = AppendString(b, 6, e.FieldsType)
	if e.FieldsV1 != nil {
		b = AppendMessage(b, 7, AppendMessage(nil, 1, e.FieldsV1))
	}
	return AppendString(b, 8, e.Subresource)
}

// AppendListMeta appends the fields of a meta/v1 ListMeta message:
// {1: selfLink, 2: resourceVersion, 3: continue, 4: remainingItemCount}.
func AppendListMeta(b []byte, m meta.ListMeta) []byte {
	b = AppendString(b, 1, "")
	b = AppendString(b, 2, m.ResourceVersion)
	b = AppendString(b, 3, m.Continue)
	if m.RemainingItemCount != nil {
		b = AppendVarint(b, 4, uint64(*m.RemainingItemCount))
	}
	return b
}

// AppendStatus appends the fields of a meta/v1 Status message: {1:
// metadata, 2: status, 3: message, 4: reason, 5: details, 6: code}.
func AppendStatus(b []byte, s *meta.Status) []byte {
	b = AppendMessage(b, 1, AppendListMeta(nil, meta.ListMeta{ResourceVersion: s.ResourceVersion}))
	b = AppendString(b, 2, s.Status)
	b = AppendString(b, 3, s.Message)
	b = AppendString(b, 4, string(s.Reason))
	if d := s.Details; d != nil {
		var m []byte
		m = AppendString(m, 1, d.Name)
		m = AppendString(m, 2, d.Group)
		m = AppendString(m, 3, d.Kind)
		for _, c := range d.Causes {
			m = AppendMessage(m, 4, AppendString(AppendString(AppendString(nil,
				1, string(c.Type)), 2, c.Message), 3, c.Field))
		}
		m = AppendInt32(m, 5, d.RetryAfterSeconds)
		m = AppendString(m, 6, d.UID)
		b = AppendMessage(b, 5, m)
	}
	return AppendInt32(b, 6, s.Code)
}

// AppendList appends the fields of a list message (LeaseList, EventList,
// ...): {1: metadata, 2: items}, each item its kind's own message.
func AppendList(b []byte, m meta.ListMeta, items [][]byte) []byte {
	b = AppendMessage(b, 1, AppendListMeta(nil, m))
	for _, item := range items {
		b = AppendMessage(b, 2, item)
	}
	return b
}
