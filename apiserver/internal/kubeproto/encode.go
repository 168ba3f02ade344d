package kubeproto

import (
	"slices"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// AppendMessage appends an embedded message m as field num.
func AppendMessage(b []byte, num protowire.Number, m []byte) []byte {
	return protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), m)
}

// AppendString appends a string field, as Kubernetes' generated code
// does: always, even when empty.
func AppendString(b []byte, num protowire.Number, s string) []byte {
	return protowire.AppendString(protowire.AppendTag(b, num, protowire.BytesType), s)
}

// AppendVarint appends an integer field (int32, int64, bool): always,
// even when zero.
func AppendVarint(b []byte, num protowire.Number, v uint64) []byte {
	return protowire.AppendVarint(protowire.AppendTag(b, num, protowire.VarintType), v)
}

// AppendInt32 appends an int32 field; a negative value takes ten bytes,
// as protobuf's int32 does.
func AppendInt32(b []byte, num protowire.Number, v int32) []byte {
	return AppendVarint(b, num, uint64(int64(v)))
}

// AppendOptString appends *s as field num, or nothing if s is nil.
func AppendOptString(b []byte, num protowire.Number, s *string) []byte {
	if s == nil {
		return b
	}
	return AppendString(b, num, *s)
}

// AppendOptInt32 appends *v as field num, or nothing if v is nil.
func AppendOptInt32(b []byte, num protowire.Number, v *int32) []byte {
	if v == nil {
		return b
	}
	return AppendInt32(b, num, *v)
}

// AppendOptBool appends *v as field num, or nothing if v is nil.
func AppendOptBool(b []byte, num protowire.Number, v *bool) []byte {
	if v == nil {
		return b
	}
	return AppendVarint(b, num, protowire.EncodeBool(*v))
}

// AppendTimestamp appends the fields of a meta/v1 Time or MicroTime
// message: {1: seconds, 2: nanos}.
func AppendTimestamp(b []byte, t time.Time) []byte {
	b = AppendVarint(b, 1, uint64(t.Unix()))
	return AppendVarint(b, 2, uint64(int64(t.Nanosecond())))
}

// AppendTime appends t as a Time or MicroTime message in field num, or
// nothing if t is the zero time (a nil *Time in Kubernetes' types).
func AppendTime(b []byte, num protowire.Number, t time.Time) []byte {
	if t.IsZero() {
		return b
	}
	return AppendMessage(b, num, AppendTimestamp(nil, t))
}

// AppendStringMap appends a map<string, string> as field num: one entry
// message {1: key, 2: value} per key, in key order, as Kubernetes'
// generated code writes them.
func AppendStringMap(b []byte, num protowire.Number, m map[string]string) []byte {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		b = AppendMessage(b, num, AppendString(AppendString(nil, 1, k), 2, m[k]))
	}
	return b
}

// AppendStrings appends each string of ss as a repeated field num.
func AppendStrings(b []byte, num protowire.Number, ss []string) []byte {
	for _, s := range ss {
		b = AppendString(b, num, s)
	}
	return b
}
