package httpapi

import (
	"bytes"
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/kitchensync/kitchensync/apiserver/internal/kubeproto"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// protobufMediaType is Kubernetes' protobuf envelope, which client-go's
// typed clients send built-in kinds in.
const protobufMediaType = kubeproto.MediaType

// protobufMagic starts every body in the envelope.
var protobufMagic = kubeproto.Magic

// protobufUnmarshaler is a kind that reads its own protobuf message (the
// built-in kinds of package builtin do).
type protobufUnmarshaler interface {
	UnmarshalProtobuf([]byte) error
}

// envelope is Kubernetes' runtime.Unknown: the object's apiVersion and
// kind, and its message in raw.
type envelope struct {
	apiVersion, kind, contentEncoding, contentType string
	raw                                            []byte
}

// readsProtobuf reports whether objects of the kind decode from protobuf
// (built-in kinds do; custom resources, as on kube-apiserver, do not).
func readsProtobuf(info meta.KindInfo) bool {
	_, ok := info.New().(protobufUnmarshaler)
	return ok
}

// decodeProtobuf decodes a create or update body sent in the protobuf
// envelope into a new object of the kind: the magic, then a runtime.Unknown
// {1: typeMeta {1: apiVersion, 2: kind}, 2: raw, 3: contentEncoding, 4:
// contentType}, whose raw is the kind's message. A body that is not such
// an envelope, or names another kind, is 400.
func decodeProtobuf(info meta.KindInfo, body []byte) (meta.Object, error) {
	obj := info.New()
	pu, ok := obj.(protobufUnmarshaler)
	if !ok {
		return nil, errUnsupportedBody(protobufMediaType, false)
	}
	bad := func(format string, args ...any) error {
		return meta.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: ", info.Kind, info.Version, info.Kind) +
			fmt.Sprintf(format, args...))
	}
	rest, ok := bytes.CutPrefix(body, protobufMagic)
	if !ok {
		return nil, bad("the body does not start with the protobuf envelope's magic number %q", protobufMagic)
	}
	env, err := readEnvelope(rest)
	if err != nil {
		return nil, bad("reading the protobuf envelope: %v", err)
	}
	tm := info.TypeMeta()
	if env.apiVersion != tm.APIVersion || env.kind != tm.Kind {
		return nil, bad("the envelope holds a %s %s", env.apiVersion, env.kind)
	}
	if env.contentEncoding != "" {
		return nil, bad("content encoding %q is not supported", env.contentEncoding)
	}
	if err := pu.UnmarshalProtobuf(env.raw); err != nil {
		return nil, bad("%v", err)
	}
	*obj.GetTypeMeta() = tm
	return obj, nil
}

// readEnvelope reads a runtime.Unknown message.
func readEnvelope(b []byte) (envelope, error) {
	var env envelope
	err := walkMessage(b, func(num protowire.Number, v []byte) error {
		switch num {
		case 1:
			return walkMessage(v, func(num protowire.Number, v []byte) error {
				switch num {
				case 1:
					env.apiVersion = string(v)
				case 2:
					env.kind = string(v)
				}
				return nil
			})
		case 2:
			env.raw = v
		case 3:
			env.contentEncoding = string(v)
		case 4:
			env.contentType = string(v)
		}
		return nil
	})
	return env, err
}

// walkMessage calls fn with each length-delimited field of the message b;
// the envelope has no other kind. A field of another wire type is an
// error.
func walkMessage(b []byte, fn func(protowire.Number, []byte) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		if typ != protowire.BytesType {
			return fmt.Errorf("field %d has wire type %d, want %d", num, typ, protowire.BytesType)
		}
		v, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return fmt.Errorf("field %d: %w", num, protowire.ParseError(n))
		}
		b = b[n:]
		if err := fn(num, v); err != nil {
			return err
		}
	}
	return nil
}
