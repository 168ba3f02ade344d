package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// deleteOptionsJSON turns a DeleteOptions body in the protobuf envelope
// (what client-go's typed clients send with a delete) into its JSON form,
// which [deleteOptions] reads; any other body is returned as it is. The
// envelope may carry any apiVersion: DeleteOptions belongs to every
// group, and client-go names its client's. A malformed body is 400.
func deleteOptionsJSON(mediaType string, body []byte) ([]byte, error) {
	if mediaType != protobufMediaType || len(body) == 0 {
		return body, nil
	}
	bad := func(err error) error {
		return meta.NewBadRequest(fmt.Sprintf("DeleteOptions cannot be decoded from protobuf: %v", err))
	}
	rest, ok := bytes.CutPrefix(body, protobufMagic)
	if !ok {
		return nil, bad(fmt.Errorf("the body does not start with the magic number %q", protobufMagic))
	}
	env, err := readEnvelope(rest)
	if err == nil && env.kind != "DeleteOptions" {
		err = fmt.Errorf("the envelope holds a %s %s", env.apiVersion, env.kind)
	}
	if err != nil {
		return nil, bad(err)
	}
	opts, err := readDeleteOptions(env.raw)
	if err != nil {
		return nil, bad(err)
	}
	return json.Marshal(opts)
}

// readDeleteOptions reads a meta/v1 DeleteOptions message {1:
// gracePeriodSeconds, 2: preconditions {1: uid, 2: resourceVersion}, 3:
// orphanDependents, 4: propagationPolicy, 5: dryRun (repeated)} into the
// fields of its JSON form. Field 6
// (ignoreStoreReadErrorWithClusterBreakingPotential) and unknown fields
// are skipped.
func readDeleteOptions(b []byte) (map[string]any, error) {
	out := map[string]any{}
	err := eachWireField(b, func(num protowire.Number, typ protowire.Type, v uint64, s []byte) error {
		switch {
		case num == 1 && typ == protowire.VarintType:
			out["gracePeriodSeconds"] = int64(v)
		case num == 2 && typ == protowire.BytesType:
			pre := map[string]string{}
			out["preconditions"] = pre
			return walkMessage(s, func(num protowire.Number, v []byte) error {
				if name := [...]string{1: "uid", 2: "resourceVersion"}; num > 0 && int(num) < len(name) {
					pre[name[num]] = string(v)
				}
				return nil
			})
		case num == 3 && typ == protowire.VarintType:
			out["orphanDependents"] = v != 0
		case num == 4 && typ == protowire.BytesType:
			out["propagationPolicy"] = string(s)
		case num == 5 && typ == protowire.BytesType:
			dry, _ := out["dryRun"].([]string)
			out["dryRun"] = append(dry, string(s))
		case num <= 5:
			return fmt.Errorf("field %d has wire type %d", num, typ)
		}
		return nil
	})
	return out, err
}

// eachWireField calls fn with each field of the message b: a varint's
// value, or a length-delimited field's bytes. Other wire types are
// skipped.
func eachWireField(b []byte, fn func(protowire.Number, protowire.Type, uint64, []byte) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		var v uint64
		var s []byte
		switch typ {
		case protowire.VarintType:
			v, n = protowire.ConsumeVarint(b)
		case protowire.BytesType:
			s, n = protowire.ConsumeBytes(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return fmt.Errorf("field %d: %w", num, protowire.ParseError(n))
		}
		b = b[n:]
		if err := fn(num, typ, v, s); err != nil {
			return err
		}
	}
	return nil
}
