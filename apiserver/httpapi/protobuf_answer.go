package httpapi

import (
	"fmt"
	"mime"
	"net/http"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/internal/kubeproto"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Answers in Kubernetes' protobuf envelope. As on the real server, only
// kinds that have a protobuf form (package builtin's) are answered in
// it, and only when the client puts protobuf before any JSON in Accept,
// as client-go's typed clients do ("application/vnd.kubernetes.protobuf,
// application/json"). Then every answer of a request on such a kind is
// protobuf: an object, a list (LeaseList, ...), a watch stream
// ("application/vnd.kubernetes.protobuf;stream=watch") and an error's
// Status. Custom kinds are answered in JSON whatever Accept says, and a
// client that accepts only protobuf for them gets 406.

// protobufMarshaler is a kind that writes its own protobuf message
// (package builtin's kinds do).
type protobufMarshaler interface {
	MarshalProtobuf() ([]byte, error)
}

// speaksProtobuf reports whether the kind has a protobuf form.
func speaksProtobuf(info meta.KindInfo) bool {
	_, ok := info.New().(protobufMarshaler)
	return ok
}

// wantsProtobuf reports whether the client prefers the protobuf envelope:
// it comes in Accept before any JSON form. A watch may name the stream
// form ("application/vnd.kubernetes.protobuf;stream=watch").
func wantsProtobuf(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		switch {
		case err != nil:
		case mt == protobufMediaType && (len(params) == 0 || len(params) == 1 && params["stream"] == "watch"):
			return true
		case mt == "application/json" || mt == "application/*" || mt == "*/*":
			return false
		}
	}
	return false
}

// writeObject sends obj (an object of the kind, or a Status) with the
// given code: its metadata alone when the client asks for that, in the
// protobuf envelope when the kind speaks it and the client prefers it,
// else as JSON.
func writeObject(w http.ResponseWriter, r *http.Request, info meta.KindInfo, code int, obj any) {
	if as, _ := negotiateObject(r, info); isPartialForm(as) {
		writePartial(w, as, code, obj)
		return
	}
	if !speaksProtobuf(info) || !wantsProtobuf(r) {
		writeJSON(w, code, obj)
		return
	}
	body, err := protobufBody(obj)
	if err != nil {
		writeError(w, meta.NewInternalError(fmt.Errorf("encoding the response: %w", err)))
		return
	}
	writeProtobuf(w, code, body)
}

func writeProtobuf(w http.ResponseWriter, code int, body []byte) {
	w.Header().Set("Content-Type", protobufMediaType)
	w.WriteHeader(code)
	_, _ = w.Write(body)
}

// protobufBody is the whole protobuf body of obj: the magic, and the
// envelope around obj's message. A Status is meta/v1's, in version v1.
func protobufBody(obj any) ([]byte, error) {
	if st, ok := obj.(*meta.Status); ok {
		return kubeproto.AppendEnvelope(nil, "v1", "Status", kubeproto.AppendStatus(nil, st)), nil
	}
	pm, ok := obj.(protobufMarshaler)
	if !ok {
		return nil, fmt.Errorf("%T has no protobuf form", obj)
	}
	raw, err := pm.MarshalProtobuf()
	if err != nil {
		return nil, err
	}
	tm := obj.(meta.Object).GetTypeMeta()
	return kubeproto.AppendEnvelope(nil, tm.APIVersion, tm.Kind, raw), nil
}

// writeListProtobuf answers a list of the kind as its list kind
// (LeaseList, ...) in the envelope: the ListMeta, then each item's own
// message.
func writeListProtobuf(w http.ResponseWriter, info meta.KindInfo, list *meta.List) error {
	items := make([][]byte, len(list.Items))
	for i, obj := range list.Items {
		var err error
		if items[i], err = obj.(protobufMarshaler).MarshalProtobuf(); err != nil {
			return meta.NewInternalError(fmt.Errorf("encoding the response: %w", err))
		}
	}
	tm := info.TypeMeta()
	writeProtobuf(w, http.StatusOK, kubeproto.AppendEnvelope(nil, tm.APIVersion, tm.Kind+"List",
		kubeproto.AppendList(nil, list.ListMeta, items)))
	return nil
}

// writeResourceError sends err, the failure of a request on the kind, as
// [writeError] does, but as a protobuf Status when the kind speaks
// protobuf and the client prefers it, as the real server negotiates an
// error's body like any other answer.
func writeResourceError(w http.ResponseWriter, r *http.Request, info meta.KindInfo, err error) {
	if !speaksProtobuf(info) || !wantsProtobuf(r) {
		writeError(w, err)
		return
	}
	if st, code, ok := errorStatus(w, err); ok {
		body, _ := protobufBody(st) // a Status always encodes
		writeProtobuf(w, code, body)
	}
}

// watchMediaType is the Content-Type of a watch stream.
func watchMediaType(as representation) string {
	if _, protobuf := isPartial(as); protobuf || as == asProtobuf {
		return protobufMediaType + ";stream=watch"
	}
	return "application/json"
}

// protobufFrame is one event of a protobuf watch stream: a
// length-prefixed WatchEvent whose object is a whole protobuf body (the
// kind's, or a Status for ERROR). A bookmark carries the kind's apiVersion
// and kind, as the real server's do.
func protobufFrame(info meta.KindInfo, ev meta.Event) ([]byte, error) {
	obj := any(ev.Object)
	if ev.Type != meta.EventError {
		if tm := ev.Object.GetTypeMeta(); tm.Kind == "" {
			c := ev.Object.DeepCopyObject()
			*c.GetTypeMeta() = info.TypeMeta()
			obj = c
		}
	}
	body, err := protobufBody(obj)
	if err != nil {
		return nil, err
	}
	return kubeproto.AppendWatchFrame(nil, string(ev.Type), body), nil
}
