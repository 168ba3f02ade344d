package patch

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/kitchensync/kitchensync/apiserver/internal/jsonenc"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/strategicpatch"
)

// Limits on JSON patches, like kube-apiserver's: how many operations one
// patch may have, and how many bytes its copy operations may add (the
// largest object etcd takes, the server's DefaultMaxObjectBytes).
const (
	maxJSONPatchOperations = 10_000
	MaxCopyBytes           = 1_572_864
)

// Apply returns cur, an object of kind info whose JSON is doc, with the
// patch data of type pt (JSON merge, JSON or strategic merge patch)
// applied, as a new object of the kind, or the typed error
// kube-apiserver answers. The patch may change neither the kind nor the
// object's identity (name, namespace); every other rule is the server's
// Update's.
func Apply(info meta.KindInfo, cur meta.Object, doc []byte, pt meta.PatchType, data []byte) (meta.Object, error) {
	apply := func(doc []byte) ([]byte, error) { return strategicpatch.Merge(info, doc, data) }
	if pt != meta.StrategicMergePatchType {
		var err error
		if apply, err = patchFunc(pt, data); err != nil {
			return nil, err
		}
	}
	patched, err := apply(doc)
	switch {
	case err != nil && pt == meta.JSONPatchType:
		return nil, errJSONPatchFailed(err)
	case err != nil && pt == meta.StrategicMergePatchType:
		return nil, err
	case err != nil:
		return nil, meta.NewBadRequest(fmt.Sprintf("the patch cannot be applied: %v", err))
	}
	next := info.New()
	if err := jsonenc.Unmarshal(patched, next); err != nil { // next is new: the typed decoder, or json.Unmarshal
		return nil, meta.NewBadRequest(fmt.Sprintf("the patched object does not decode as a %s: %v", info.Kind, err))
	}
	if *next.GetTypeMeta() != info.TypeMeta() {
		return nil, meta.NewBadRequest(fmt.Sprintf("a patch cannot change apiVersion or kind (of %s)", info.GroupVersionKind()))
	}
	// The patched object must still be the one the request named; an
	// emptied namespace is the request's again. Worded as kube-apiserver
	// words it.
	cm, nm := cur.GetObjectMeta(), next.GetObjectMeta()
	if nm.Name != cm.Name {
		return nil, meta.NewBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", nm.Name, cm.Name))
	}
	if nm.Namespace != "" && nm.Namespace != cm.Namespace {
		return nil, meta.NewBadRequest(fmt.Sprintf(
			"the namespace of the object (%s) does not match the namespace on the request (%s)", nm.Namespace, cm.Namespace))
	}
	nm.Namespace = cm.Namespace
	return next, nil
}

// checkJSONPatchList returns kube-apiserver's 400 for a JSON patch that is
// not a list of objects, worded as it words it (naming its own Go type).
func checkJSONPatchList(data []byte) error {
	var ops []map[string]json.RawMessage
	err := json.Unmarshal(data, &ops)
	var typ *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &typ) && typ.Field == "":
		return meta.NewBadRequest(fmt.Sprintf("error decoding patch: json: cannot unmarshal %s into Go value of type []handlers.jsonPatchOp", typ.Value))
	}
	return meta.NewBadRequest(fmt.Sprintf("error decoding patch: %v", err))
}

// errJSONPatchFailed is kube-apiserver's answer to a JSON patch that does
// not apply (a "test" that fails, a path that is not there): 422 with a
// generic message, which does not say why (err): the real server drops
// it too.
func errJSONPatchFailed(error) *meta.StatusError {
	return &meta.StatusError{ErrStatus: meta.Status{
		TypeMeta: meta.TypeMeta{APIVersion: "v1", Kind: "Status"},
		Status:   "Failure",
		Code:     422,
		Reason:   meta.StatusReasonInvalid,
		Message:  "the server rejected our request due to an error in our request",
		Details:  &meta.StatusDetails{},
	}}
}

// patchFunc returns the function that applies a patch of type pt to a
// JSON document, or the error that the patch itself is.
func patchFunc(pt meta.PatchType, data []byte) (func(doc []byte) ([]byte, error), error) {
	if pt == meta.MergePatchType {
		if !json.Valid(data) {
			return nil, meta.NewBadRequest("invalid JSON patch") // kube-apiserver's words
		}
		return func(doc []byte) ([]byte, error) {
			if out, ok := jsonenc.MergePatch(doc, data); ok {
				return out, nil // json-patch's merge, reading doc where it lies
			}
			return jsonpatch.MergePatch(doc, data)
		}, nil
	}
	if err := checkJSONPatchList(data); err != nil {
		return nil, err
	}
	p, err := jsonpatch.DecodePatch(data)
	if err != nil {
		// A list whose operations are bad: kube-apiserver finds out when
		// it applies them.
		return nil, errJSONPatchFailed(err)
	}
	if len(p) > maxJSONPatchOperations {
		return nil, meta.NewRequestEntityTooLarge(fmt.Sprintf(
			"the JSON patch has %d operations; at most %d are allowed", len(p), maxJSONPatchOperations))
	}
	// A few "copy" operations can double the document again and again: cap
	// what copies may add, as the real server does, so that a small patch
	// cannot exhaust memory before the size limit is checked.
	opts := jsonpatch.NewApplyOptions()
	opts.AccumulatedCopySizeLimit = MaxCopyBytes
	return func(doc []byte) (out []byte, err error) {
		// json-patch panics on a few malformed operations (a "test" of
		// the root without a value, found by FuzzPatch): that is a bad
		// patch, answered as one, not a crash of the server.
		defer func() {
			if r := recover(); r != nil {
				out, err = nil, fmt.Errorf("invalid operation: %v", r)
			}
		}()
		return applyReplacingMissing(p, doc, opts)
	}, nil
}

// applyReplacingMissing applies p to doc as kube-apiserver's json-patch v4
// does, where a "replace" of a key that an object lacks adds it (v5, used
// here, refuses it). The whole patch is tried first; only if it fails on
// such a replace is it applied again one operation at a time (for
// patches of at most a hundred operations, so that a long patch cannot
// make the server parse the document thousands of times).
func applyReplacingMissing(p jsonpatch.Patch, doc []byte, opts *jsonpatch.ApplyOptions) ([]byte, error) {
	out, err := p.ApplyWithOptions(doc, opts)
	if err == nil || !errors.Is(err, jsonpatch.ErrMissing) || len(p) > 100 {
		return out, err
	}
	for _, op := range p {
		next, err := jsonpatch.Patch{op}.ApplyWithOptions(doc, opts)
		if err != nil && op.Kind() == "replace" && errors.Is(err, jsonpatch.ErrMissing) && lastIsKey(op) {
			add := maps.Clone(op)
			raw := json.RawMessage(`"add"`)
			add["op"] = &raw
			next, err = jsonpatch.Patch{add}.ApplyWithOptions(doc, opts)
		}
		if err != nil {
			return nil, err
		}
		doc = next
	}
	return doc, nil
}

// lastIsKey reports whether op's path ends in an object key rather than
// an array index ("-" or a number), which a replace may not add.
func lastIsKey(op jsonpatch.Operation) bool {
	path, err := op.Path()
	if err != nil {
		return false
	}
	last := path[strings.LastIndexByte(path, '/')+1:]
	if last == "-" {
		return false
	}
	_, err = strconv.Atoi(last)
	return err != nil
}
