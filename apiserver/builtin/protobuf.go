package builtin

import (
	"fmt"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// The built-in kinds read Kubernetes' protobuf form of themselves (what
// client-go's typed clients send) with the wire package alone: the field
// numbers are those of k8s.io/api's and k8s.io/apimachinery's
// generated.proto. Fields this package has no place for are skipped, as a
// protobuf decoder skips unknown fields.

// pbField is one field of a protobuf message: its number, wire type, and
// its value (varint, or the bytes of a length-delimited field).
type pbField struct {
	num    protowire.Number
	typ    protowire.Type
	varint uint64
	bytes  []byte
}

// eachField calls fn for each field of the message b, in order. A
// malformed message, or an error from fn, stops it with an error naming
// the message and the field number.
func eachField(b []byte, message string, fn func(pbField) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return fmt.Errorf("%s: %w", message, protowire.ParseError(n))
		}
		b = b[n:]
		f := pbField{num: num, typ: typ}
		switch typ {
		case protowire.VarintType:
			f.varint, n = protowire.ConsumeVarint(b)
		case protowire.BytesType:
			f.bytes, n = protowire.ConsumeBytes(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return fmt.Errorf("%s: field %d: %w", message, num, protowire.ParseError(n))
		}
		b = b[n:]
		if err := fn(f); err != nil {
			return fmt.Errorf("%s: field %d: %w", message, num, err)
		}
	}
	return nil
}

func (f pbField) want(typ protowire.Type) error {
	if f.typ != typ {
		return fmt.Errorf("wire type %d, want %d", f.typ, typ)
	}
	return nil
}

func (f pbField) str() (string, error) { return string(f.bytes), f.want(protowire.BytesType) }

func (f pbField) int64() (int64, error) { return int64(f.varint), f.want(protowire.VarintType) }

func (f pbField) int32() (int32, error) { return int32(f.varint), f.want(protowire.VarintType) }

func (f pbField) bool() (bool, error) { return f.varint != 0, f.want(protowire.VarintType) }

// message returns the bytes of an embedded message.
func (f pbField) message() ([]byte, error) { return f.bytes, f.want(protowire.BytesType) }

// ptr turns a (value, error) pair into (pointer to value, error).
func ptr[T any](v T, err error) (*T, error) { return &v, err }

// timestamp reads a meta/v1 Time or MicroTime message {1: seconds, 2:
// nanos}. Go's zero time stays zero, and so does an empty message, which
// is how client-go sends an unset Time (not as the Unix epoch).
func (f pbField) timestamp() (time.Time, error) {
	b, err := f.message()
	if err != nil || len(b) == 0 {
		return time.Time{}, err
	}
	var secs int64
	var nanos int32
	err = eachField(b, "Time", func(g pbField) (err error) {
		switch g.num {
		case 1:
			secs, err = g.int64()
		case 2:
			nanos, err = g.int32()
		}
		return err
	})
	t := time.Unix(secs, int64(nanos))
	if t.Equal(time.Time{}) {
		return time.Time{}, err
	}
	return t, err
}

// time reads a meta/v1 Time, as its JSON form keeps it: to the second.
func (f pbField) time() (meta.Time, error) {
	t, err := f.timestamp()
	if t.IsZero() {
		return meta.Time{}, err
	}
	return meta.Time{Time: t.Truncate(time.Second).Local()}, err
}

// microTime reads a meta/v1 MicroTime, to the microsecond.
func (f pbField) microTime() (MicroTime, error) {
	t, err := f.timestamp()
	if t.IsZero() {
		return MicroTime{}, err
	}
	return NewMicroTime(t), err
}

// stringMapEntry reads one entry {1: key, 2: value} of a map<string,
// string> into m.
func (f pbField) stringMapEntry(m *map[string]string) error {
	b, err := f.message()
	if err != nil {
		return err
	}
	var k, v string
	if err := eachField(b, "map entry", func(g pbField) (err error) {
		switch g.num {
		case 1:
			k, err = g.str()
		case 2:
			v, err = g.str()
		}
		return err
	}); err != nil {
		return err
	}
	if *m == nil {
		*m = make(map[string]string)
	}
	(*m)[k] = v
	return nil
}
