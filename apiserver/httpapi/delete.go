package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// delete answers DELETE on an object as kube-apiserver does: 200 with the
// object when finalizers keep it (deletionTimestamp set), or a Success
// Status naming it, uid included, when it is gone. kubectl's
// `delete --wait` relies on that uid to tell the object it deleted from a
// new one of the same name. Options come from the body (DeleteOptions) or,
// without a body, from the query; all are checked before anything
// changes.
func (h *Handler) delete(w http.ResponseWriter, r *http.Request, t target) error {
	if t.served != nil {
		return h.deleteServed(w, r, t)
	}
	if _, err := negotiateOne(r, t.info); err != nil {
		return err
	}
	opts, err := h.readDeleteOptions(w, r)
	if err != nil {
		return err
	}
	obj, gone, err := h.client(t).DeleteObject(r.Context(), t.name, opts)
	if err != nil {
		return err
	}
	switch {
	case gone && hasFinalize(t.info):
		writeJSON(w, http.StatusOK, obj) // a namespace is answered, not a Status, as kube-apiserver does
	case gone:
		writeObject(w, r, t.info, http.StatusOK, successStatus(t.info, obj.GetObjectMeta()))
	case opts.OrphanDependents != nil && !*opts.OrphanDependents:
		writeObject(w, r, t.info, http.StatusAccepted, obj) // as the real server answers this deprecated form
	default:
		writeObject(w, r, t.info, http.StatusOK, obj)
	}
	return nil
}

// deleteCollection answers DELETE on a collection (the deletecollection
// verb) as kube-apiserver does: it deletes every object the query's
// selectors pick, with the options of the body or query, and answers 200
// with the list of those objects as they were before, in the form Accept
// asks for, as a list is answered (JSON, protobuf, a Table). An Accept the
// server cannot answer is 406 before anything is deleted. In a served
// version, the field selector takes that version's names, and the list
// is in it.
func (h *Handler) deleteCollection(w http.ResponseWriter, r *http.Request, t target) error {
	as, err := negotiateList(r, t.storedInfo())
	if err != nil {
		return err
	}
	opts, err := h.readDeleteOptions(w, r)
	if err != nil {
		return err
	}
	listOpts, _, err := listOptions(r.URL.Query())
	if err == nil && t.served != nil {
		listOpts.FieldSelector, err = t.served.StoredFieldSelector(listOpts.FieldSelector)
	}
	if err != nil {
		return err
	}
	list, err := h.client(t).DeleteCollection(r.Context(), opts, listOpts)
	switch {
	case err != nil:
		return err
	case t.served != nil:
		return h.writeServedList(w, t, as, list)
	}
	return h.writeList(w, t, t.info, as, list)
}

// deleteOptions reads the options of a delete: the JSON body (the wire
// form of metav1.DeleteOptions, as kubectl sends it), or the query
// parameters of the same names when the body is empty. A value of the
// wrong type is 400, worded as Kubernetes' decoder words it.
func deleteOptions(body []byte, v url.Values) (meta.DeleteOptions, error) {
	// Named as the Kubernetes type, so that a decoding error names
	// "DeleteOptions.gracePeriodSeconds" as the real server's does.
	type DeleteOptions struct {
		GracePeriodSeconds *int64 `json:"gracePeriodSeconds"`
		Preconditions      *struct {
			UID             *string `json:"uid"`
			ResourceVersion *string `json:"resourceVersion"`
		} `json:"preconditions"`
		OrphanDependents  *bool                     `json:"orphanDependents"`
		PropagationPolicy *meta.DeletionPropagation `json:"propagationPolicy"`
		DryRun            []string                  `json:"dryRun"`
	}
	var in DeleteOptions
	if len(bytes.TrimSpace(body)) > 0 {
		if err := json.Unmarshal(body, &in); err != nil {
			return meta.DeleteOptions{}, meta.NewBadRequest(err.Error())
		}
	} else {
		q := &query{v: v}
		in.GracePeriodSeconds = q.int("gracePeriodSeconds")
		in.OrphanDependents = q.bool("orphanDependents")
		if p := v.Get("propagationPolicy"); p != "" {
			in.PropagationPolicy = (*meta.DeletionPropagation)(&p)
		}
		if q.err != nil {
			return meta.DeleteOptions{}, q.err
		}
	}
	q := url.Values{"dryRun": append(v["dryRun"], in.DryRun...)}
	dry, err := dryRun(q, "DeleteOptions")
	if err != nil {
		return meta.DeleteOptions{}, err
	}
	opts := meta.DeleteOptions{
		GracePeriodSeconds: in.GracePeriodSeconds,
		OrphanDependents:   in.OrphanDependents,
		PropagationPolicy:  in.PropagationPolicy,
		DryRun:             dry,
	}
	if p := in.Preconditions; p != nil {
		opts.Preconditions = &meta.Preconditions{UID: p.UID, ResourceVersion: p.ResourceVersion}
	}
	return opts, nil
}

// readDeleteOptions reads a DELETE's options: from its body, a
// DeleteOptions in JSON or protobuf, or without a body from its query.
func (h *Handler) readDeleteOptions(w http.ResponseWriter, r *http.Request) (meta.DeleteOptions, error) {
	body, err := h.readBody(w, r)
	switch mt := mediaType(r); {
	case err != nil || len(body) == 0:
	case mt == yamlMediaType:
		body, err = yamlToJSON(body)
	case mt == "application/json" || mt == protobufMediaType:
		body, err = deleteOptionsJSON(mt, body)
	default:
		err = errUnsupportedBody(mt, true)
	}
	if err != nil {
		return meta.DeleteOptions{}, err
	}
	return deleteOptions(body, r.URL.Query())
}
