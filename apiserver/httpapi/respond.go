package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// writeJSON sends v as the JSON body of a response with the given code.
func writeJSON(w http.ResponseWriter, code int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		writeError(w, meta.NewInternalError(fmt.Errorf("encoding the response: %w", err)))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write(append(body, '\n'))
}

// writeError sends err as a Kubernetes Status with its HTTP code. A
// [*meta.StatusError] travels unchanged; any other error becomes a
// 500 InternalError. A 429 or 504 that suggests a delay also gets the
// Retry-After header, as the real server sends it.
func writeError(w http.ResponseWriter, err error) {
	if st, code, ok := errorStatus(w, err); ok {
		writeJSON(w, code, st)
	}
}

// errorStatus is the Status and HTTP code that answer err, with the
// Retry-After header set where it applies. For a path the server does not
// serve it answers itself, in plain text, and returns false.
func errorStatus(w http.ResponseWriter, err error) (*meta.Status, int, bool) {
	var se *meta.StatusError
	if !errors.As(err, &se) || se == nil {
		se = meta.NewInternalError(err)
	}
	if se == pageNotFound {
		http.NotFound(w, nil)
		return nil, 0, false
	}
	st := se.Status()
	code := int(st.Code)
	if code < 400 || code > 599 {
		code = http.StatusInternalServerError
	}
	if secs, ok := meta.SuggestsClientDelay(se); ok {
		w.Header().Set("Retry-After", strconv.Itoa(secs))
	}
	return st, code, true
}

// newStatusError builds a failure Status for the errors only the HTTP
// front produces (415, 405, 406), which the apiserver package has no
// constructor for.
func newStatusError(code int32, reason meta.StatusReason, msg string) *meta.StatusError {
	return &meta.StatusError{ErrStatus: meta.Status{
		TypeMeta: meta.TypeMeta{APIVersion: "v1", Kind: "Status"},
		Status:   "Failure",
		Message:  msg,
		Reason:   reason,
		Code:     code,
	}}
}

// The reasons the apiserver package does not define.
const (
	reasonUnsupportedMediaType meta.StatusReason = "UnsupportedMediaType"
	reasonNotAcceptable        meta.StatusReason = "NotAcceptable"
)

// pageNotFound is the 404 for a path the server does not serve. Like
// kube-apiserver, which hands such a path to Go's http.NotFound,
// writeError sends it as plain text ("404 page not found"), not as a
// Status; clients (client-go, kubectl, package rest) read it as
// NotFound all the same.
var pageNotFound = newStatusError(http.StatusNotFound, meta.StatusReasonNotFound,
	"the server could not find the requested resource")

// errNotFound is the 404 for a path the server does not serve; see
// [pageNotFound].
func errNotFound() *meta.StatusError { return pageNotFound }

// errMethodNotAllowed is the 405 for a method a path does not take; the
// message says which methods it does take.
func errMethodNotAllowed(w http.ResponseWriter, method, path string, allowed ...string) *meta.StatusError {
	w.Header().Set("Allow", strings.Join(allowed, ", "))
	return newStatusError(http.StatusMethodNotAllowed, meta.StatusReasonMethodNotAllowed,
		fmt.Sprintf("%s is not allowed on %s: use %s", method, path, strings.Join(allowed, ", ")))
}

// errUnsupportedPatch is the 415 for a patch type the server cannot apply.
// It is worded as kube-apiserver words it for a custom resource, which
// does not name the type it got.
func errUnsupportedPatch() *meta.StatusError {
	return newStatusError(http.StatusUnsupportedMediaType, reasonUnsupportedMediaType, fmt.Sprintf(
		"the body of the request was in an unknown format - accepted media types include: %s, %s, %s",
		meta.JSONPatchType, meta.MergePatchType, meta.ApplyPatchType))
}

// errUnsupportedBody is the 415 for a create, update or delete body that
// is not JSON, YAML or (for a kind that reads it) protobuf, or has no
// Content-Type (got, ""), in kube-apiserver's words.
func errUnsupportedBody(got string, protobuf bool) *meta.StatusError {
	msg := "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml"
	if protobuf {
		msg += ", " + protobufMediaType
	}
	if got == "" {
		msg += " (this request named none: send a Content-Type header)"
	}
	return newStatusError(http.StatusUnsupportedMediaType, reasonUnsupportedMediaType, msg)
}

// successStatus is the body of a delete that removed the object m, like
// the Status Kubernetes returns: details name it, with its uid, and give
// the resource (not the kind) as kind.
func successStatus(info meta.KindInfo, m *meta.ObjectMeta) *meta.Status {
	return &meta.Status{
		TypeMeta: meta.TypeMeta{APIVersion: "v1", Kind: "Status"},
		Status:   "Success",
		Details:  &meta.StatusDetails{Name: m.Name, Group: info.Group, Kind: info.Resource, UID: m.UID},
	}
}
