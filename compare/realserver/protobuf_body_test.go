package realserver

import (
	"encoding/binary"
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
)

// protobufMediaType is Kubernetes' protobuf envelope; a watch stream in
// it is protobufWatchType.
const (
	protobufMediaType = "application/vnd.kubernetes.protobuf"
	protobufWatchType = protobufMediaType + ";stream=watch"
)

// pbScheme is client-go's scheme with meta.k8s.io/v1's own kinds
// (PartialObjectMetadata and its list, Table), which metadata-only
// clients receive.
var pbScheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		panic(err)
	}
	metav1.AddMetaToScheme(s)
	return s
}()

// pb decodes the protobuf envelope into client-go's types.
var pb = protobuf.NewSerializer(pbScheme, pbScheme)

// decodeProtobuf reads a protobuf body (an object, a list, a Status) with
// client-go and gives it back as the JSON client-go would write of it,
// decoded, so that the two servers' protobuf answers are compared field by
// field after the same normalising as JSON ones, not byte by byte (uids and
// timestamps differ).
func decodeProtobuf(raw []byte) any {
	b, err := protobufJSON(raw)
	if err != nil {
		return err.Error()
	}
	return decode(b)
}

// protobufJSON decodes a protobuf body and encodes it as JSON.
func protobufJSON(raw []byte) ([]byte, error) {
	obj, gvk, err := pb.Decode(raw, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("undecodable protobuf: %v", err)
	}
	obj.GetObjectKind().SetGroupVersionKind(*gvk)
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("protobuf decoded to %T, which does not encode as JSON: %v", obj, err)
	}
	return b, nil
}

// decodeProtobufStream reads a protobuf watch stream: frames of a 4-byte
// big-endian length and a meta/v1 WatchEvent, whose object is a whole
// protobuf body. It gives the events back as decode gives a JSON stream's.
func decodeProtobufStream(raw []byte) any {
	var lines []byte
	for len(raw) > 0 {
		if len(raw) < 4 || int(binary.BigEndian.Uint32(raw)) > len(raw)-4 {
			return "truncated protobuf watch frame"
		}
		n := binary.BigEndian.Uint32(raw)
		var ev metav1.WatchEvent
		if err := ev.Unmarshal(raw[4 : 4+n]); err != nil {
			return fmt.Sprintf("undecodable watch frame: %v", err)
		}
		raw = raw[4+n:]
		obj, err := protobufJSON(ev.Object.Raw)
		if err != nil {
			return err.Error()
		}
		line, _ := json.Marshal(map[string]any{"type": ev.Type, "object": json.RawMessage(obj)})
		lines = append(append(lines, line...), '\n')
	}
	return decode(lines)
}
