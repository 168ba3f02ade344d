// Package kubeproto writes Kubernetes' protobuf wire form with the
// protobuf wire package alone, no generated types: the envelope every
// protobuf body travels in (the "k8s\x00" magic and a runtime.Unknown),
// meta/v1's ObjectMeta, ListMeta, Time and Status, and the frames of a
// protobuf watch stream. The field numbers are those of k8s.io/api's and
// k8s.io/apimachinery's generated.proto (v0.37.2).
//
// It is shared by package builtin, whose kinds write their own messages,
// and package httpapi, which wraps them in envelopes, lists and watch
// frames.
//
// Like Kubernetes' generated marshallers, the Append functions write a
// string or number field even when it is empty or zero, and leave out
// only nil pointers and empty repeated fields.
package kubeproto
