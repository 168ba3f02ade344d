package realserver

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
)

// protobufMediaType is Kubernetes' protobuf envelope.
const protobufMediaType = "application/vnd.kubernetes.protobuf"

// pb decodes the protobuf envelope into client-go's types.
var pb = protobuf.NewSerializer(clientgoscheme.Scheme, clientgoscheme.Scheme)

// decodeProtobuf reads a protobuf body (an object, a list, a Status) with
// client-go and gives it back as the JSON client-go would write of it,
// decoded, so that the two servers' protobuf answers are compared field by
// field after the same normalising as JSON ones, not byte by byte (uids and
// timestamps differ).
func decodeProtobuf(raw []byte) any {
	obj, gvk, err := pb.Decode(raw, nil, nil)
	if err != nil {
		return fmt.Sprintf("undecodable protobuf: %v", err)
	}
	obj.GetObjectKind().SetGroupVersionKind(*gvk)
	b, err := json.Marshal(obj)
	if err != nil {
		return fmt.Sprintf("protobuf decoded to %T, which does not encode as JSON: %v", obj, err)
	}
	return decode(b)
}
