package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/kitchensync/kitchensync/apiserver"
)

// jsonPatchType is a JSON patch (RFC 6902): a list of operations.
const jsonPatchType = "application/json-patch+json"

// patchRetries is how often a read-modify-write patch retries after a
// conflict with another writer.
const patchRetries = 5

// patch answers PATCH on an object or its status. A JSON merge patch of
// the object goes to the server's Patch. A JSON patch, and any patch of
// the status, are applied here, read-modify-write: get the object, apply
// the patch, update it (UpdateStatus for /status) with the
// resourceVersion read, and try again if another writer came first, as
// the real server does internally. Other types (strategic merge, apply)
// are 415.
func (h *Handler) patch(w http.ResponseWriter, r *http.Request, t target) error {
	pt := mediaType(r)
	if pt != string(apiserver.MergePatchType) && pt != jsonPatchType {
		return errUnsupportedPatch(pt)
	}
	dry, err := dryRun(r.URL.Query())
	if err != nil {
		return err
	}
	data, err := h.readBody(w, r)
	if err != nil {
		return err
	}
	var out apiserver.Object
	if pt == string(apiserver.MergePatchType) && t.subresource == "" {
		out, err = h.client(t).Patch(r.Context(), t.name, apiserver.MergePatchType, data, apiserver.PatchOptions{DryRun: dry})
	} else {
		out, err = h.patchByUpdate(r.Context(), t, pt, data, dry)
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// patchByUpdate applies a patch read-modify-write. A patch that sets
// metadata.resourceVersion itself is a precondition: its conflict is not
// retried.
func (h *Handler) patchByUpdate(ctx context.Context, t target, pt string, data []byte, dry bool) (apiserver.Object, error) {
	apply, err := patchFunc(pt, data)
	if err != nil {
		return nil, err
	}
	pinned := bytes.Contains(data, []byte(`resourceVersion`))
	c := h.client(t)
	for attempt := 0; ; attempt++ {
		cur, err := c.Get(ctx, t.name, apiserver.GetOptions{})
		if err != nil {
			return nil, err
		}
		next, err := applyPatch(t.info, cur, apply)
		if err != nil {
			return nil, err
		}
		opts := apiserver.UpdateOptions{DryRun: dry}
		var out apiserver.Object
		if t.subresource == "status" {
			out, err = c.UpdateStatus(ctx, next, opts)
		} else {
			out, err = c.Update(ctx, next, opts)
		}
		if apiserver.IsConflict(err) && !pinned && attempt < patchRetries {
			continue
		}
		return out, err
	}
}

// patchFunc returns the function that applies a patch of type pt to a
// JSON document.
func patchFunc(pt string, data []byte) (func(doc []byte) ([]byte, error), error) {
	if pt == string(apiserver.MergePatchType) {
		if !json.Valid(data) {
			return nil, apiserver.NewBadRequest(fmt.Sprintf("the patch is not valid JSON: %q", truncate(data, 100)))
		}
		return func(doc []byte) ([]byte, error) { return jsonpatch.MergePatch(doc, data) }, nil
	}
	p, err := jsonpatch.DecodePatch(data)
	if err != nil {
		return nil, apiserver.NewBadRequest(fmt.Sprintf("the JSON patch cannot be decoded: %v", err))
	}
	if len(p) > maxJSONPatchOperations {
		return nil, apiserver.NewRequestEntityTooLarge(fmt.Sprintf(
			"the JSON patch has %d operations; at most %d are allowed", len(p), maxJSONPatchOperations))
	}
	// A few "copy" operations can double the document again and again: cap
	// what copies may add, as the real server does, so that a small patch
	// cannot exhaust memory before the size limit is checked.
	opts := jsonpatch.NewApplyOptions()
	opts.AccumulatedCopySizeLimit = maxCopyBytes
	return func(doc []byte) ([]byte, error) { return p.ApplyWithOptions(doc, opts) }, nil
}

// Limits on JSON patches, like kube-apiserver's: how many operations one
// patch may have, and how many bytes its copy operations may add.
const (
	maxJSONPatchOperations = 10_000
	maxCopyBytes           = apiserver.DefaultMaxObjectBytes
)

// applyPatch applies a patch to cur and decodes the result as a new object
// of the kind, keeping cur's resourceVersion unless the patch set one.
func applyPatch(info apiserver.KindInfo, cur apiserver.Object, apply func([]byte) ([]byte, error)) (apiserver.Object, error) {
	doc, err := json.Marshal(cur)
	if err != nil {
		return nil, apiserver.NewInternalError(err)
	}
	patched, err := apply(doc)
	if err != nil {
		return nil, apiserver.NewBadRequest(fmt.Sprintf("the patch cannot be applied: %v", err))
	}
	next := info.New()
	if err := json.Unmarshal(patched, next); err != nil {
		return nil, apiserver.NewBadRequest(fmt.Sprintf("the patched object does not decode as a %s: %v", info.Kind, err))
	}
	cm, nm := cur.GetObjectMeta(), next.GetObjectMeta()
	if nm.ResourceVersion == "" {
		nm.ResourceVersion = cm.ResourceVersion
	}
	var errs apiserver.FieldErrors
	if nm.Name != cm.Name {
		errs.Invalid("metadata.name", nm.Name, "field is immutable")
	}
	if nm.Namespace != cm.Namespace {
		errs.Invalid("metadata.namespace", nm.Namespace, "field is immutable")
	}
	return next, errs.ToError(info.GroupKind(), cm.Name)
}

func truncate(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "..."
}
