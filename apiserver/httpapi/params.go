package httpapi

import (
	"fmt"
	"net/url"
	"strconv"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// query reads the parameters of one request, remembering the first one
// that does not parse.
type query struct {
	v   url.Values
	err error
}

// bool reads a boolean parameter ("true", "1", "false", "0", ...); absent
// is nil.
func (q *query) bool(name string) *bool {
	s := q.v.Get(name)
	if s == "" {
		return nil
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		q.fail(name, s, "must be true or false")
		return nil
	}
	return &b
}

// int reads an integer parameter; absent is nil.
func (q *query) int(name string) *int64 {
	s := q.v.Get(name)
	if s == "" {
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		q.fail(name, s, "must be an integer")
		return nil
	}
	return &n
}

func (q *query) fail(name, value, why string) {
	if q.err == nil {
		q.err = meta.NewBadRequest(fmt.Sprintf("invalid query parameter %s=%q: %s", name, value, why))
	}
}

// listOptions reads the parameters of a list or watch, and whether the
// request is a watch (watch=true or watch=1).
func listOptions(v url.Values) (meta.ListOptions, bool, error) {
	q := &query{v: v}
	opts := meta.ListOptions{
		LabelSelector:        v.Get("labelSelector"),
		FieldSelector:        v.Get("fieldSelector"),
		ResourceVersion:      v.Get("resourceVersion"),
		ResourceVersionMatch: meta.ResourceVersionMatch(v.Get("resourceVersionMatch")),
		Continue:             v.Get("continue"),
		SendInitialEvents:    q.bool("sendInitialEvents"),
		TimeoutSeconds:       q.int("timeoutSeconds"),
	}
	if b := q.bool("allowWatchBookmarks"); b != nil {
		opts.AllowWatchBookmarks = *b
	}
	if n := q.int("limit"); n != nil {
		opts.Limit = *n
	}
	// A negative limit asks for no limit, as kube-apiserver reads it.
	opts.Limit = max(opts.Limit, 0)
	watch := q.bool("watch")
	return opts, watch != nil && *watch, q.err
}

// dryRun reads dryRun: absent, or "All" (the only value Kubernetes
// knows); anything else is 422 Invalid on the request's options
// (optionsKind: CreateOptions, UpdateOptions, PatchOptions,
// DeleteOptions), worded as kube-apiserver words it.
func dryRun(v url.Values, optionsKind string) (bool, error) {
	vals := v["dryRun"]
	for _, s := range vals {
		if s != "All" {
			var errs meta.FieldErrors
			errs.NotSupported("dryRun", vals, []string{"All"})
			return false, errs.ToError(meta.GroupKind{Group: "meta.k8s.io", Kind: optionsKind}, "")
		}
	}
	return len(vals) > 0, nil
}

// fieldValidation says what to do with unknown fields in a body, as the
// Kubernetes fieldValidation parameter does.
type fieldValidation string

const (
	validationIgnore fieldValidation = "Ignore" // drop them silently
	validationWarn   fieldValidation = "Warn"   // drop them and send a Warning header (the default)
	validationStrict fieldValidation = "Strict" // refuse the request with 400
)

// parseFieldValidation reads fieldValidation; absent means Warn, as in
// Kubernetes. Another value is 422 Invalid on the options of the request
// (optionsKind: CreateOptions, UpdateOptions), worded as kube-apiserver
// words it.
func parseFieldValidation(v url.Values, optionsKind string) (fieldValidation, error) {
	switch s := fieldValidation(v.Get("fieldValidation")); s {
	case "":
		return validationWarn, nil
	case validationIgnore, validationWarn, validationStrict:
		return s, nil
	default:
		var errs meta.FieldErrors
		errs.NotSupported("fieldValidation", string(s), []string{"", "Ignore", "Strict", "Warn"})
		return "", errs.ToError(meta.GroupKind{Group: "meta.k8s.io", Kind: optionsKind}, "")
	}
}
