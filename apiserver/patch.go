package apiserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"unicode"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/kitchensync/kitchensync/apiserver/fieldmanager"
	"github.com/kitchensync/kitchensync/apiserver/internal/jsonenc"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/strategicpatch"
)

// Limits on JSON patches, like kube-apiserver's: how many operations one
// patch may have, and how many bytes its copy operations may add.
const (
	maxJSONPatchOperations = 10_000
	maxCopyBytes           = DefaultMaxObjectBytes
)

// Patch applies the patch data, of type pt, to the object name and stores
// the result by the rules of Update: status in the patch is ignored. With
// the subresource "status" (passed as client-go's dynamic client takes
// it) only the patched status is stored, by the rules of UpdateStatus.
//
// The patch applies to the object as stored. If another writer comes
// first, the server applies it again to the newer object, as
// kube-apiserver does, so a patch does not fail for a write it never saw.
// A metadata.resourceVersion that the patch sets is a precondition
// instead: 409 Conflict if stale.
//
// A strategic merge patch ([meta.StrategicMergePatchType]) is taken by kinds
// that declare KindInfo.StrategicMergePatch (Kubernetes' built-in kinds);
// it merges metadata.finalizers as a set, metadata.ownerReferences on
// uid and the kind's ListMapKeys lists item by item, with the "$patch",
// "$retainKeys", "$deleteFromPrimitiveList" and "$setElementOrder"
// directives, and is otherwise a JSON merge patch.
//
// A server-side apply ([meta.ApplyPatchType], opts.FieldManager required)
// creates the object if it is missing, and is 409 Conflict when it would
// change a field another manager owns, unless opts.Force; see the
// package doc's "Server-side apply".
//
// Errors: 404 NotFound for a missing object (not for apply), or a subresource the kind
// does not have; 400 BadRequest for another patch type, or a patch that
// is malformed, cannot be applied (a merge patch), does not decode into
// the kind, changes apiVersion or kind, or changes metadata.name or
// metadata.namespace (the message says which); 422 Invalid for a JSON
// patch that does not apply (a failed "test", a missing path, an unknown
// operation), with
// kube-apiserver's generic message, and for options Kubernetes refuses
// (apply without a field manager, force on another patch type); 413
// RequestEntityTooLarge for a JSON patch of more than 10,000 operations;
// the errors of Update.
//
// As in kube-apiserver (whose JSON patch library is json-patch v4), a
// "replace" of a key that an object does not have adds it.
func (c *ResourceClient) Patch(ctx context.Context, name string, pt meta.PatchType, data []byte, opts meta.PatchOptions, subresources ...string) (meta.Object, error) {
	out, _, err := c.PatchObject(ctx, name, pt, data, opts, subresources...)
	return out, err
}

// PatchObject is [ResourceClient.Patch], and also reports whether the
// patch created the object (a server-side apply of a missing object),
// which the HTTP front answers 201 Created, as kube-apiserver does.
func (c *ResourceClient) PatchObject(ctx context.Context, name string, pt meta.PatchType, data []byte, opts meta.PatchOptions, subresources ...string) (meta.Object, bool, error) {
	info, err := c.begin(ctx, VerbPatch)
	if err != nil {
		return nil, false, err
	}
	if pt != meta.MergePatchType && pt != meta.JSONPatchType && pt != meta.ApplyPatchType && (pt != meta.StrategicMergePatchType || !info.StrategicMergePatch) {
		return nil, false, meta.NewBadRequest(fmt.Sprintf("patch type %q is not supported: use %q, %q or %q",
			pt, meta.MergePatchType, meta.JSONPatchType, meta.ApplyPatchType))
	}
	if err := validatePatchOptions(pt, opts); err != nil {
		return nil, false, err
	}
	status, err := patchesStatus(info, subresources)
	if err != nil {
		return nil, false, err
	}
	key, err := c.key(info, name)
	if err != nil {
		return nil, false, err
	}
	var created bool
	e, err := c.srv.mutate(info.GroupResource(), key, func(old *entry) (change, error) {
		created = old == nil
		return c.preparePatch(info, old, name, pt, data, status, opts)
	})
	if err != nil {
		return nil, false, err
	}
	return e.obj.DeepCopyObject(), created, nil
}

// patchesStatus reports whether subresources, as Patch takes them, name
// the status subresource; one the kind does not have is 404 NotFound.
func patchesStatus(info meta.KindInfo, subresources []string) (bool, error) {
	switch {
	case len(subresources) == 0:
		return false, nil
	case len(subresources) == 1 && subresources[0] == "status" && info.HasStatusSubresource():
		return true, nil
	}
	return false, errUnknownResource(meta.GroupResource{Group: info.Group, Resource: info.Resource + "/" + strings.Join(subresources, "/")})
}

// preparePatch decides what applying the patch to old (nil if there is
// no such object) means: the patched object, stored by the rules of
// Update or UpdateStatus; for server-side apply, see prepareApply.
func (c *ResourceClient) preparePatch(info meta.KindInfo, old *entry, name string, pt meta.PatchType, data []byte, status bool, opts meta.PatchOptions) (change, error) {
	if pt == meta.ApplyPatchType {
		return c.prepareApply(info, old, name, data, status, opts)
	}
	if old == nil {
		return change{}, meta.NewNotFound(info.GroupResource(), name)
	}
	doc, err := appendEntryJSON(nil, old)
	if err != nil {
		return change{}, meta.NewInternalError(err)
	}
	next, err := applyPatch(info, old.obj, doc, pt, data)
	if err != nil {
		return change{}, err
	}
	return c.srv.prepareUpdate(info, old, next, status, opts.DryRun, c.updateTracker(opts.FieldManager))
}

// applyPatch returns cur, whose JSON is doc, with the patch applied, as a
// new object of the kind. The patch may change neither the kind nor the
// object's identity (name, namespace); every other rule is Update's.
func applyPatch(info meta.KindInfo, cur meta.Object, doc []byte, pt meta.PatchType, data []byte) (meta.Object, error) {
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
	if err := json.Unmarshal(patched, next); err != nil {
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
	opts.AccumulatedCopySizeLimit = maxCopyBytes
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

// PatchObject applies a patch of type pt (JSON merge, JSON or strategic
// merge patch; not apply) to cur, an object of kind info, and returns the
// result as a new object of the kind, with the rules and errors of
// [ResourceClient.Patch]: the patch may change neither apiVersion and
// kind nor the object's name and namespace. It stores nothing; the HTTP
// front patches a [meta.ServedVersion]'s objects with it, in that version's
// form.
func PatchObject(info meta.KindInfo, cur meta.Object, pt meta.PatchType, data []byte) (meta.Object, error) {
	if pt == meta.ApplyPatchType {
		return nil, meta.NewBadRequest("PatchObject does not apply server-side apply patches")
	}
	doc, err := jsonenc.Marshal(cur)
	if err != nil {
		return nil, meta.NewInternalError(err)
	}
	return applyPatch(info, cur, doc, pt, data)
}

// prepareApply decides what applying the configuration data as manager
// opts.FieldManager means, on old or, if there is none, on a new object
// (apply creates): the config is merged into the object, the manager's
// fields become exactly the config's, fields it no longer applies and no
// one else owns are removed, and changing a field another manager owns is
// a 409 Conflict unless opts.Force takes it.
func (c *ResourceClient) prepareApply(info meta.KindInfo, old *entry, name string, data []byte, status bool, opts meta.PatchOptions) (change, error) {
	if old == nil && status {
		return change{}, meta.NewNotFound(info.GroupResource(), name)
	}
	var live meta.Object
	if old != nil {
		live = old.obj
	}
	force := opts.Force != nil && *opts.Force
	vs := fieldmanager.VersionsOf(c.srv.scheme, info.GroupVersionKind())
	next, err := fieldmanager.Apply(info, vs, live, c.ns, name, data, c.writer(opts.FieldManager, status), force)
	if err != nil {
		return change{}, err
	}
	if old != nil {
		entries := next.GetObjectMeta().ManagedFields
		keep := func(info meta.KindInfo, live, n meta.Object, _ bool) error {
			n.GetObjectMeta().ManagedFields = entries
			return c.checkServed(info, vs, n, live)
		}
		return c.srv.prepareUpdate(info, old, next, status, opts.DryRun, keep)
	}
	if err := c.srv.checkNamespace(info, next.GetObjectMeta()); err != nil {
		return change{}, err
	}
	if err := c.checkServed(info, vs, next, nil); err != nil {
		return change{}, err
	}
	return c.srv.createChange(info, next, opts.DryRun)
}

// validatePatchOptions checks the options of a patch of type pt as
// Kubernetes does: apply needs a field manager, only apply takes force,
// and a field manager is at most 128 printable characters.
func validatePatchOptions(pt meta.PatchType, opts meta.PatchOptions) error {
	var errs meta.FieldErrors
	switch {
	case pt == meta.ApplyPatchType && opts.FieldManager == "":
		errs.Required("fieldManager", "is required for apply patch")
	case pt != meta.ApplyPatchType && opts.Force != nil:
		errs.Forbidden("force", "may not be specified for non-apply patch")
	}
	if len(opts.FieldManager) > 128 {
		errs.TooLong("fieldManager", 128)
	}
	for _, r := range opts.FieldManager {
		if !unicode.IsPrint(r) {
			errs.Invalid("fieldManager", opts.FieldManager, "must only contain printable characters")
			break
		}
	}
	return errs.ToError(meta.GroupKind{Group: "meta.k8s.io", Kind: "PatchOptions"}, "")
}
