package httpapi

import (
	"net/http"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// patch answers PATCH on an object or its status: the Content-Type names
// the patch type, and the server's Patch applies it. A strategic merge
// patch is 415 for a kind that does not take it (a custom kind), as on
// the real server. A server-side apply that creates the object is 201
// Created, any other patch 200.
func (h *Handler) patch(w http.ResponseWriter, r *http.Request, t target) error {
	if t.served != nil {
		return h.patchServed(w, r, t)
	}
	if _, err := negotiateOne(r, t.info); err != nil {
		return err
	}
	pt := meta.PatchType(mediaType(r))
	smp := pt == meta.StrategicMergePatchType && t.info.StrategicMergePatch
	if pt != meta.MergePatchType && pt != meta.JSONPatchType && pt != meta.ApplyPatchType && !smp {
		return errUnsupportedPatch()
	}
	opts, err := patchOptions(r, pt)
	if err != nil {
		return err
	}
	data, err := h.readBody(w, r)
	if err != nil {
		return err
	}
	var subresources []string
	if t.subresource != "" {
		subresources = []string{t.subresource}
	}
	out, created, err := h.client(t).PatchObject(r.Context(), t.name, pt, data, opts, subresources...)
	if err != nil {
		return err
	}
	code := http.StatusOK
	if created { // a server-side apply of a missing object
		code = http.StatusCreated
	}
	writeObject(w, r, t.info, code, out)
	return nil
}
