package apiserver

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/kitchensync/kitchensync/apiserver/fieldmanager"
	"github.com/kitchensync/kitchensync/apiserver/internal/jsonenc"
	"github.com/kitchensync/kitchensync/apiserver/internal/patch"
	"github.com/kitchensync/kitchensync/apiserver/meta"
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
	out, err := c.srv.mutateCopy(info.GroupResource(), key, func(old *entry) (change, error) {
		created = old == nil
		return c.preparePatch(info, old, name, pt, data, status, opts)
	})
	if err != nil {
		return nil, false, err
	}
	return out, created, nil
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
	next, err := patch.Apply(info, old.obj, doc, pt, data)
	if err != nil {
		return change{}, err
	}
	return c.srv.prepareUpdate(info, old, next, status, opts.DryRun, c.updateTracker(opts.FieldManager))
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
	return patch.Apply(info, cur, doc, pt, data)
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
