package httpapi

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/internal/kubeproto"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Metadata-only answers. A client that needs only names, labels, owners
// and resourceVersions (client-go's metadata client and its informers,
// controller-runtime's OnlyMetadata watches, the garbage collector) asks
// for meta.k8s.io/v1's PartialObjectMetadata instead of the objects:
//
//	Accept: application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,
//	        application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1, application/json
//
// and as=PartialObjectMetadataList for a list. As kube-apiserver does,
// the server then answers every object of the request (a get, a write's
// result, each watch event's object, bookmarks included) as
// {"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1",
// "metadata":{...}}, and a list (a list, a deletecollection) as a
// PartialObjectMetadataList of them, in JSON or in protobuf, for every
// kind (custom ones too: the form is meta.k8s.io's, which has a protobuf
// message). A Status stays a Status. Asking for the list form of one
// object, or the object form of a list, is 406 Not Acceptable.

// partialObjectMetadata is an object's metadata alone, the wire form of
// meta/v1's PartialObjectMetadata (also a table row's object).
type partialObjectMetadata struct {
	Kind       string          `json:"kind"`
	APIVersion string          `json:"apiVersion"`
	Metadata   meta.ObjectMeta `json:"metadata"`
}

// partialObjectMetadataList is meta/v1's PartialObjectMetadataList.
type partialObjectMetadataList struct {
	Kind       string                  `json:"kind"`
	APIVersion string                  `json:"apiVersion"`
	Metadata   meta.ListMeta           `json:"metadata"`
	Items      []partialObjectMetadata `json:"items"`
}

const metaV1 = "meta.k8s.io/v1"

// partialOf is obj's metadata as a PartialObjectMetadata (sharing obj's
// maps and slices: for encoding only).
func partialOf(obj meta.Object) partialObjectMetadata {
	return partialObjectMetadata{Kind: "PartialObjectMetadata", APIVersion: metaV1, Metadata: *obj.GetObjectMeta()}
}

// isPartial reports whether as is a metadata-only form, and whether in
// protobuf.
func isPartial(as representation) (partial, protobuf bool) {
	switch as {
	case asPartial, asPartialList:
		return true, false
	case asPartialProtobuf, asPartialListProtobuf:
		return true, true
	}
	return false, false
}

// isPartialForm reports whether as is a metadata-only form.
func isPartialForm(as representation) bool {
	partial, _ := isPartial(as)
	return partial
}

// isPartialList reports whether as is the list form.
func isPartialList(as representation) bool {
	return as == asPartialList || as == asPartialListProtobuf
}

// partialFormFor is the representation an "as" parameter of Accept names
// in JSON or protobuf, or asObject (none).
func partialFormFor(as string, protobuf bool) representation {
	switch {
	case as == "PartialObjectMetadata" && protobuf:
		return asPartialProtobuf
	case as == "PartialObjectMetadata":
		return asPartial
	case as == "PartialObjectMetadataList" && protobuf:
		return asPartialListProtobuf
	case as == "PartialObjectMetadataList":
		return asPartialList
	}
	return asObject
}

// negotiateList is negotiateObject for a request that answers a list:
// the single-object form is 406.
func negotiateList(r *http.Request, info meta.KindInfo) (representation, error) {
	as, err := negotiateObject(r, info)
	if err == nil && isPartialForm(as) && !isPartialList(as) {
		return as, errAList(info)
	}
	return as, err
}

// errNotAList is the 406 for the list form asked of one object (or of a
// watch, whose events carry one object each), errAList the one for the
// object form asked of a list, in kube-apiserver's words: they name the
// Go type the real server holds (its internal type, or unstructured for
// a custom resource).
func errNotAList(info meta.KindInfo) error {
	return newStatusError(http.StatusNotAcceptable, reasonNotAcceptable, fmt.Sprintf(
		"you requested PartialObjectMetadataList, but the requested object is not a list (%s)", internalType(info)))
}

func errAList(info meta.KindInfo) error {
	return newStatusError(http.StatusNotAcceptable, reasonNotAcceptable, fmt.Sprintf(
		"you requested PartialObjectMetadata, but the requested object is a list (%sList)", internalType(info)))
}

// internalType names the Go type kube-apiserver holds objects of the
// kind in: *unstructured.Unstructured for a custom resource, else the
// internal type of the group's package (*core.Event, *coordination.Lease).
func internalType(info meta.KindInfo) string {
	if !isBuiltin(info) {
		return "*unstructured.Unstructured"
	}
	pkg, _, _ := strings.Cut(info.Group, ".")
	if pkg == "" {
		pkg = "core"
	}
	return "*" + pkg + "." + info.Kind
}

// writePartial sends obj (an object, or a Status, sent as it is) in the
// metadata-only form as.
func writePartial(w http.ResponseWriter, as representation, code int, obj any) {
	_, protobuf := isPartial(as)
	o, isObject := obj.(meta.Object)
	if _, isStatus := obj.(*meta.Status); isStatus {
		isObject = false
	}
	switch {
	case !protobuf && isObject:
		writeJSON(w, code, partialOf(o))
	case !protobuf:
		writeJSON(w, code, obj)
	case isObject:
		writeProtobuf(w, code, partialBody(o))
	default:
		body, _ := protobufBody(obj) // a Status always encodes
		writeProtobuf(w, code, body)
	}
}

// writePartialList sends list's items' metadata as a
// PartialObjectMetadataList, in JSON or protobuf as as says.
func writePartialList(w http.ResponseWriter, as representation, list *meta.List) {
	if _, protobuf := isPartial(as); protobuf {
		items := make([][]byte, len(list.Items))
		for i, obj := range list.Items {
			items[i] = partialMessage(obj)
		}
		writeProtobuf(w, http.StatusOK, kubeproto.AppendEnvelope(nil, metaV1, "PartialObjectMetadataList",
			kubeproto.AppendList(nil, list.ListMeta, items)))
		return
	}
	// No items is "items": null, as kube-apiserver writes this list
	// (it fills in [] only for lists of objects).
	out := partialObjectMetadataList{Kind: "PartialObjectMetadataList", APIVersion: metaV1, Metadata: list.ListMeta}
	for _, obj := range list.Items {
		out.Items = append(out.Items, partialOf(obj))
	}
	writeJSON(w, http.StatusOK, out)
}

// partialMessage is the PartialObjectMetadata message of obj: {1:
// metadata}.
func partialMessage(obj meta.Object) []byte {
	return kubeproto.AppendMessage(nil, 1, kubeproto.AppendObjectMeta(nil, obj.GetObjectMeta()))
}

// partialBody is obj's PartialObjectMetadata as a whole protobuf body.
func partialBody(obj meta.Object) []byte {
	return kubeproto.AppendEnvelope(nil, metaV1, "PartialObjectMetadata", partialMessage(obj))
}

// partialEventLine is a watch event in a metadata-only form: its object
// (a bookmark's too) as a PartialObjectMetadata; an ERROR's Status as it
// is.
func partialEventLine(ev meta.Event, as representation) ([]byte, error) {
	_, protobuf := isPartial(as)
	switch {
	case ev.Type == meta.EventError && protobuf:
		return protobufFrame(meta.KindInfo{}, ev)
	case ev.Type == meta.EventError:
		return encodeLine(watchEvent{Type: ev.Type, Object: ev.Object})
	case protobuf:
		return kubeproto.AppendWatchFrame(nil, string(ev.Type), partialBody(ev.Object)), nil
	}
	return encodeLine(watchEvent{Type: ev.Type, Object: partialOf(ev.Object)})
}
