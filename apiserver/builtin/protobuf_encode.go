package builtin

import (
	"slices"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/kitchensync/kitchensync/apiserver"
)

// MarshalProtobuf writes l in Kubernetes' protobuf form of a
// coordination.k8s.io/v1 Lease (the message that goes inside the
// envelope), as client-go's typed clients read it.
func (l *Lease) MarshalProtobuf() ([]byte, error) {
	b := appendMessage(nil, 1, appendObjectMeta(nil, &l.ObjectMeta))
	var s []byte
	s = appendOptString(s, 1, l.Spec.HolderIdentity)
	s = appendOptInt32(s, 2, l.Spec.LeaseDurationSeconds)
	if t := l.Spec.AcquireTime; t != nil {
		s = appendMessage(s, 3, appendTimestamp(nil, t.Time))
	}
	if t := l.Spec.RenewTime; t != nil {
		s = appendMessage(s, 4, appendTimestamp(nil, t.Time))
	}
	s = appendOptInt32(s, 5, l.Spec.LeaseTransitions)
	s = appendOptString(s, 6, l.Spec.Strategy)
	s = appendOptString(s, 7, l.Spec.PreferredHolder)
	return appendMessage(b, 2, s), nil
}

// appendObjectMeta appends the fields of a meta/v1 ObjectMeta message.
func appendObjectMeta(b []byte, m *apiserver.ObjectMeta) []byte {
	b = appendString(b, 1, m.Name)
	b = appendString(b, 2, m.GenerateName)
	b = appendString(b, 3, m.Namespace)
	b = appendString(b, 5, m.UID)
	b = appendString(b, 6, m.ResourceVersion)
	b = appendVarint(b, 7, uint64(m.Generation))
	if !m.CreationTimestamp.IsZero() {
		b = appendMessage(b, 8, appendTimestamp(nil, m.CreationTimestamp.Time))
	}
	if m.DeletionTimestamp != nil {
		b = appendMessage(b, 9, appendTimestamp(nil, m.DeletionTimestamp.Time))
	}
	if m.DeletionGracePeriodSeconds != nil {
		b = appendVarint(b, 10, uint64(*m.DeletionGracePeriodSeconds))
	}
	b = appendStringMap(b, 11, m.Labels)
	b = appendStringMap(b, 12, m.Annotations)
	for _, r := range m.OwnerReferences {
		var o []byte
		o = appendString(o, 1, r.Kind)
		o = appendString(o, 3, r.Name)
		o = appendString(o, 4, r.UID)
		o = appendString(o, 5, r.APIVersion)
		o = appendOptBool(o, 6, r.Controller)
		o = appendOptBool(o, 7, r.BlockOwnerDeletion)
		b = appendMessage(b, 13, o)
	}
	for _, f := range m.Finalizers {
		b = appendString(b, 14, f)
	}
	for _, e := range m.ManagedFields {
		b = appendMessage(b, 17, appendManagedFieldsEntry(nil, e))
	}
	return b
}

func appendManagedFieldsEntry(b []byte, e apiserver.ManagedFieldsEntry) []byte {
	b = appendString(b, 1, e.Manager)
	b = appendString(b, 2, string(e.Operation))
	b = appendString(b, 3, e.APIVersion)
	if e.Time != nil {
		b = appendMessage(b, 4, appendTimestamp(nil, e.Time.Time))
	}
	b = appendString(b, 6, e.FieldsType)
	if e.FieldsV1 != nil {
		b = appendMessage(b, 7, protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), e.FieldsV1))
	}
	return appendString(b, 8, e.Subresource)
}

// appendTimestamp appends the fields of a meta/v1 Time or MicroTime.
func appendTimestamp(b []byte, t time.Time) []byte {
	b = appendVarint(b, 1, uint64(t.Unix()))
	return appendVarint(b, 2, uint64(int64(t.Nanosecond())))
}

func appendStringMap(b []byte, num protowire.Number, m map[string]string) []byte {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		b = appendMessage(b, num, appendString(appendString(nil, 1, k), 2, m[k]))
	}
	return b
}

func appendMessage(b []byte, num protowire.Number, m []byte) []byte {
	return protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), m)
}

// appendString appends a string field, as Kubernetes' generated code
// does: always, even when empty.
func appendString(b []byte, num protowire.Number, s string) []byte {
	return protowire.AppendString(protowire.AppendTag(b, num, protowire.BytesType), s)
}

func appendVarint(b []byte, num protowire.Number, v uint64) []byte {
	return protowire.AppendVarint(protowire.AppendTag(b, num, protowire.VarintType), v)
}

func appendOptString(b []byte, num protowire.Number, s *string) []byte {
	if s == nil {
		return b
	}
	return appendString(b, num, *s)
}

func appendOptInt32(b []byte, num protowire.Number, v *int32) []byte {
	if v == nil {
		return b
	}
	return appendVarint(b, num, uint64(int64(*v)))
}

func appendOptBool(b []byte, num protowire.Number, v *bool) []byte {
	if v == nil {
		return b
	}
	return appendVarint(b, num, protowire.EncodeBool(*v))
}
