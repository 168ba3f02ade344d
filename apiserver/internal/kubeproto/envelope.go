package kubeproto

import "encoding/binary"

// MediaType is Kubernetes' protobuf media type; a watch stream in it is
// MediaType + ";stream=watch".
const MediaType = "application/vnd.kubernetes.protobuf"

// Magic starts every protobuf body: "k8s" and a zero byte.
var Magic = []byte("k8s\x00")

// AppendEnvelope appends a whole protobuf body: the magic, then a
// runtime.Unknown {1: typeMeta {1: apiVersion, 2: kind}, 2: raw} whose raw
// is the object's own message. contentEncoding and contentType are left
// out, as the real server leaves them.
func AppendEnvelope(b []byte, apiVersion, kind string, raw []byte) []byte {
	b = append(b, Magic...)
	b = AppendMessage(b, 1, AppendString(AppendString(nil, 1, apiVersion), 2, kind))
	return AppendMessage(b, 2, raw)
}

// AppendWatchFrame appends one frame of a protobuf watch stream: a
// 4-byte big-endian length, then a meta/v1 WatchEvent {1: type, 2:
// object {1: raw}} with no envelope of its own, whose object's raw is a
// whole protobuf body (see [AppendEnvelope]). This is client-go's
// LengthDelimitedFramer around its RawSerializer.
func AppendWatchFrame(b []byte, eventType string, body []byte) []byte {
	ev := AppendString(nil, 1, eventType)
	ev = AppendMessage(ev, 2, AppendMessage(nil, 1, body))
	b = binary.BigEndian.AppendUint32(b, uint32(len(ev)))
	return append(b, ev...)
}
