package httpapi

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// A resource served in a second version ([meta.ServedVersion], such
// as events.k8s.io/v1 Events beside core/v1's) is the stored kind's
// objects seen through a pair of conversions: a read converts what the
// stored kind's client returns; a write decodes the body in the served
// version, converts it, checks it against the served version's own rules
// and writes it as the stored kind. Tables are the stored kind's, as
// kube-apiserver prints both versions with one printer. Errors name the
// served group ("events.events.k8s.io").

// storedInfo is the kind whose objects t's requests read and write: the
// stored kind of a served version, or else t's own.
func (t target) storedInfo() meta.KindInfo {
	if t.served != nil {
		return t.stored
	}
	return t.info
}

// servedTarget finds the served version at gvr, for parseTarget.
func (h *Handler) servedTarget(gvr meta.GroupVersionResource) (target, bool) {
	v, ok := h.srv.Scheme().ServedVersionForResource(gvr)
	if !ok {
		return target{}, false
	}
	stored, ok := h.srv.Scheme().KindForGVK(v.Stored)
	if !ok {
		return target{}, false
	}
	return target{info: v.Info, stored: stored, served: &v}, true
}

// listServed lists, or watches, a served version's objects: its field
// selector translated to the stored kind's names, each object converted.
func (h *Handler) listServed(w http.ResponseWriter, r *http.Request, t target) (*watchStream, error) {
	opts, watch, err := listOptions(r.URL.Query())
	if err != nil {
		return nil, err
	}
	if opts.FieldSelector, err = t.served.StoredFieldSelector(opts.FieldSelector); err != nil {
		return nil, err
	}
	if watch {
		as, err := negotiateOne(r, t.info)
		if err != nil {
			return nil, err
		}
		return h.watch(w, r, t, opts, as)
	}
	as, err := negotiateList(r, t.stored)
	if err != nil {
		return nil, err
	}
	list, err := h.client(t).List(r.Context(), opts)
	if err != nil {
		return nil, err
	}
	return nil, h.writeServedList(w, t, as, list)
}

// writeServedList sends list, of stored objects, as writeList does: a
// Table of the stored kind, or the served version's list (EventList),
// each item converted.
func (h *Handler) writeServedList(w http.ResponseWriter, t target, as representation, list *meta.List) error {
	if as == asTable || isPartialList(as) {
		return h.writeList(w, t, t.stored, as, list)
	}
	out := &meta.List{TypeMeta: t.info.TypeMeta(), ListMeta: list.ListMeta, Items: make([]meta.Object, len(list.Items))}
	out.Kind += "List"
	for i, item := range list.Items {
		out.Items[i] = t.served.FromStored(item)
	}
	return h.writeList(w, t, t.info, as, out)
}

// getServed answers GET on a served version's object.
func (h *Handler) getServed(w http.ResponseWriter, r *http.Request, t target) error {
	as, err := negotiateOne(r, t.info)
	if err != nil {
		return err
	}
	rv := r.URL.Query().Get("resourceVersion")
	obj, err := h.client(t).Get(r.Context(), t.name, meta.GetOptions{ResourceVersion: rv})
	if err != nil {
		return err
	}
	if as == asTable {
		om := meta.ListMeta{ResourceVersion: obj.GetObjectMeta().ResourceVersion}
		writeJSON(w, http.StatusOK, h.table(t.stored, om, t.rowObject, obj))
		return nil
	}
	writeObject(w, r, t.info, http.StatusOK, t.served.FromStoredObject(obj))
	return nil
}

// readStored reads a create or update body in the served version and
// returns it converted to the stored kind, in the request's namespace.
func (h *Handler) readStored(w http.ResponseWriter, r *http.Request, t target) (meta.Object, error) {
	obj, err := h.readObject(w, r, t)
	if err != nil {
		return nil, err
	}
	stored := t.served.ToStored(obj)
	if m := stored.GetObjectMeta(); m.Namespace == "" && t.info.Namespaced {
		m.Namespace = t.namespace
	}
	return stored, nil
}

// servedClient is the stored kind's client for t's resource and
// namespace, writing in t's served version: held to its rules, and
// recorded in managedFields in its field names
// ([apiserver.ResourceClient.InVersion]).
func (h *Handler) servedClient(t target) *apiserver.ResourceClient {
	return h.client(t).InVersion(t.info.TypeMeta().APIVersion)
}

// createServed answers POST on a served version's collection: the body is
// held to the served version's create rules before the stored kind's.
func (h *Handler) createServed(w http.ResponseWriter, r *http.Request, t target) error {
	dry, err := dryRun(r.URL.Query(), "CreateOptions")
	if err != nil {
		return err
	}
	stored, err := h.readStored(w, r, t)
	if err != nil {
		return err
	}
	warn(w, meta.FinalizerWarnings(stored.GetObjectMeta().Finalizers, nil))
	out, err := h.servedClient(t).Create(r.Context(), stored, meta.CreateOptions{DryRun: dry, FieldManager: fieldManager(r)})
	if err != nil {
		return err
	}
	writeObject(w, r, t.info, http.StatusCreated, t.served.FromStoredObject(out))
	return nil
}

// updateServed answers PUT on a served version's object.
func (h *Handler) updateServed(w http.ResponseWriter, r *http.Request, t target) error {
	dry, err := dryRun(r.URL.Query(), "UpdateOptions")
	if err != nil {
		return err
	}
	stored, err := h.readStored(w, r, t)
	if err != nil {
		return err
	}
	opts := meta.UpdateOptions{DryRun: dry, FieldManager: fieldManager(r)}
	out, created, err := h.writeOver(r.Context(), t, opts, func(meta.Object) (meta.Object, error) {
		return stored.DeepCopyObject(), nil
	})
	if err != nil {
		return err
	}
	code := http.StatusOK
	if created { // the stored kind allows create on update (Event)
		code = http.StatusCreated
	}
	writeObject(w, r, t.info, code, t.served.FromStoredObject(out))
	return nil
}

// writeOver stores next(old), the new stored form of the object as it is
// now (old, nil if there is none), by the rules of an update in the
// served version ([Handler.servedClient]). The write is made conditional
// on old's resourceVersion, so that next was made from what it replaces,
// and is tried again (read, made, written) if another writer came first:
// a write that named a resourceVersion, now stale, then gets its 409. It
// reports whether the write created the object
// ([meta.KindInfo.AllowCreateOnUpdate]).
func (h *Handler) writeOver(ctx context.Context, t target, opts meta.UpdateOptions,
	next func(old meta.Object) (meta.Object, error)) (meta.Object, bool, error) {
	c := h.servedClient(t)
	for attempt := 0; ; attempt++ {
		old, err := c.Get(ctx, t.name, meta.GetOptions{})
		if err != nil && !meta.IsNotFound(err) {
			return nil, false, err
		}
		obj, err := next(old)
		if err != nil {
			return nil, false, err
		}
		m, conditioned := obj.GetObjectMeta(), false
		if old != nil && (m.ResourceVersion == "" || m.ResourceVersion == old.GetObjectMeta().ResourceVersion) {
			m.ResourceVersion, conditioned = old.GetObjectMeta().ResourceVersion, true
		}
		out, created, err := c.UpdateObject(ctx, obj, opts)
		if meta.IsConflict(err) && conditioned && attempt < maxWriteAttempts {
			continue
		}
		return out, created, err
	}
}

// maxWriteAttempts is how often writeOver tries again after losing a race.
const maxWriteAttempts = 5

// patchServed answers PATCH on a served version's object: the patch
// applies to the object in the served version's form, and the result is
// written as an update; a server-side apply takes its configuration in
// that version (applyServed).
func (h *Handler) patchServed(w http.ResponseWriter, r *http.Request, t target) error {
	if _, err := negotiateOne(r, t.info); err != nil {
		return err
	}
	pt := meta.PatchType(mediaType(r))
	if pt != meta.MergePatchType && pt != meta.JSONPatchType && pt != meta.ApplyPatchType &&
		(pt != meta.StrategicMergePatchType || !t.info.StrategicMergePatch) {
		return newStatusError(http.StatusUnsupportedMediaType, reasonUnsupportedMediaType,
			"the body of the request was in an unknown format - accepted media types include: "+
				strings.Join([]string{string(meta.JSONPatchType), string(meta.MergePatchType),
					string(meta.StrategicMergePatchType), string(meta.ApplyPatchType)}, ", "))
	}
	popts, err := patchOptions(r, pt)
	if err != nil {
		return err
	}
	data, err := h.readBody(w, r)
	if err != nil {
		return err
	}
	if pt == meta.ApplyPatchType {
		return h.applyServed(w, r, t, data, popts)
	}
	opts := meta.UpdateOptions{DryRun: popts.DryRun, FieldManager: popts.FieldManager}
	out, _, err := h.writeOver(r.Context(), t, opts, func(old meta.Object) (meta.Object, error) {
		if old == nil {
			return nil, meta.NewNotFound(t.stored.GroupResource(), t.name)
		}
		next, err := apiserver.PatchObject(t.info, t.served.FromStoredObject(old), pt, data)
		if err != nil {
			return nil, err
		}
		return t.served.ToStored(next), nil
	})
	if err != nil {
		return err
	}
	writeObject(w, r, t.info, http.StatusOK, t.served.FromStoredObject(out))
	return nil
}

// applyServed answers a server-side apply in a served version: the
// configuration is in that version, and so are the manager's fields in
// managedFields; a missing object is created (201).
func (h *Handler) applyServed(w http.ResponseWriter, r *http.Request, t target, data []byte, opts meta.PatchOptions) error {
	out, created, err := h.servedClient(t).PatchObject(r.Context(), t.name, meta.ApplyPatchType, data, opts)
	if err != nil {
		return err
	}
	code := http.StatusOK
	if created {
		code = http.StatusCreated
	}
	writeObject(w, r, t.info, code, t.served.FromStoredObject(out))
	return nil
}

// servedError rewrites an error of the stored kind's client so that it
// names the served version's resource, as a real server's errors name
// the resource of the request: `events "x" not found` becomes
// `events.events.k8s.io "x" not found`. Invalid errors keep the stored
// kind, as kube-apiserver's do: it validates the internal form of the
// object.
func servedError(t target, err error) error {
	var se *meta.StatusError
	if t.served == nil || !errors.As(err, &se) || se == pageNotFound {
		return err
	}
	out := *se
	st := &out.ErrStatus
	d := st.Details
	if d == nil || d.Group != t.stored.Group || d.Kind != t.stored.Resource {
		return err
	}
	copied := *d
	copied.Group = t.info.Group
	st.Details = &copied
	from, to := t.stored.GroupResource().String()+` "`, t.info.GroupResource().String()+` "`
	if rest, ok := strings.CutPrefix(st.Message, from); ok {
		st.Message = to + rest
	} else {
		st.Message = strings.Replace(st.Message, " on "+from, " on "+to, 1)
	}
	return &out
}
