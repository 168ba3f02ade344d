package httpapi

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// serveResource dispatches a request on a resource path by method and by
// whether it names an object. It returns the watch to stream, if the
// request started one (see [watchStream]).
func (h *Handler) serveResource(w http.ResponseWriter, r *http.Request, t target) *watchStream {
	t.path, t.includeObject = r.URL.Path, r.URL.Query().Get("includeObject")
	var err error
	var ws *watchStream
	switch {
	case t.name == "" && r.Method == http.MethodGet:
		ws, err = h.list(w, r, t)
	case r.Method == http.MethodPost && t.subresource == "" && t.namespaced == t.info.Namespaced:
		// Like a custom resource's: POST on an object's path creates
		// too, the object named in the body.
		t.name = ""
		err = h.create(w, r, t)
	case t.name == "" && r.Method == http.MethodDelete && t.namespaced == t.info.Namespaced:
		err = h.deleteCollection(w, r, t)
	case t.name == "" && t.namespaced == t.info.Namespaced:
		err = errMethodNotAllowed(w, r.Method, t.path, http.MethodGet, http.MethodPost, http.MethodDelete)
	case t.name == "":
		err = errMethodNotAllowed(w, r.Method, t.path+fmt.Sprintf(
			" (%s is namespaced: write through /namespaces/{namespace}/%s)", t.info.GroupResource(), t.info.Resource),
			http.MethodGet)
	case t.subresource == "scale":
		err = h.serveScale(w, r, t)
	case t.subresource == "finalize" && r.Method != http.MethodPut:
		err = errVerbNotServed()
	case r.Method == http.MethodGet:
		err = h.get(w, r, t)
	case r.Method == http.MethodPut:
		err = h.update(w, r, t)
	case r.Method == http.MethodPatch:
		err = h.patch(w, r, t)
	case r.Method == http.MethodDelete && t.subresource == "":
		err = h.delete(w, r, t)
	case t.subresource != "":
		err = errMethodNotAllowed(w, r.Method, t.path, http.MethodGet, http.MethodPut, http.MethodPatch)
	default:
		err = errMethodNotAllowed(w, r.Method, t.path, http.MethodGet, http.MethodPut, http.MethodPatch, http.MethodDelete)
	}
	if err != nil {
		writeResourceError(w, r, t.info, servedError(t, err))
	}
	return ws
}

// errVerbNotServed is kube-apiserver's 405 for a verb a subresource does
// not serve (a GET on a namespace's finalize), in its words.
func errVerbNotServed() error {
	err := newStatusError(http.StatusMethodNotAllowed, meta.StatusReasonMethodNotAllowed,
		"the server does not allow this method on the requested resource")
	err.ErrStatus.Details = &meta.StatusDetails{}
	return err
}

// list answers GET on a collection: a list, or with watch=true a watch,
// which it returns to be streamed.
func (h *Handler) list(w http.ResponseWriter, r *http.Request, t target) (*watchStream, error) {
	if t.served != nil {
		return h.listServed(w, r, t)
	}
	opts, watch, err := listOptions(r.URL.Query())
	if err != nil {
		return nil, err
	}
	if watch {
		as, err := negotiateOne(r, t.info) // each event carries one object
		if err != nil {
			return nil, err
		}
		return h.watch(w, r, t, opts, as)
	}
	as, err := negotiateList(r, t.info)
	if err != nil {
		return nil, err
	}
	if as == asObject && !isBuiltin(t.info) {
		return nil, writeListJSON(w, r, h.client(t), opts)
	}
	list, err := h.client(t).List(r.Context(), opts)
	if err != nil {
		return nil, err
	}
	return nil, h.writeList(w, t, t.info, as, list)
}

// writeList sends list, of the kind info, as the client asked (as): a Table
// (its rows' objects as t's request asks),
// the list kind (LeaseList, ...) in the protobuf envelope, or as JSON.
// The items of a built-in kind's list carry no apiVersion and kind, as
// kube-apiserver's typed storage writes them (a custom resource's items
// keep theirs); the list's own kind says what they are.
func (h *Handler) writeList(w http.ResponseWriter, t target, info meta.KindInfo, as representation, list *meta.List) error {
	switch {
	case as == asTable:
		writeJSON(w, http.StatusOK, h.table(info, list.ListMeta, t.rowObject, list.Items...))
		return nil
	case isPartialList(as):
		writePartialList(w, as, list)
		return nil
	case as == asProtobuf:
		return writeListProtobuf(w, info, list)
	case isBuiltin(info):
		for _, item := range list.Items {
			*item.GetTypeMeta() = meta.TypeMeta{}
		}
	}
	writeJSON(w, http.StatusOK, list)
	return nil
}

// get answers GET on an object (or its status, which is the object). As
// in kube-apiserver, watch=true on an object's path is still a GET (to
// watch one object, watch the collection with the field selector
// metadata.name), and of the query only resourceVersion counts.
func (h *Handler) get(w http.ResponseWriter, r *http.Request, t target) error {
	if t.served != nil {
		return h.getServed(w, r, t)
	}
	as, err := negotiateOne(r, t.info)
	if err != nil {
		return err
	}
	rv := r.URL.Query().Get("resourceVersion")
	if as == asObject && !wantsProtobuf(r) {
		body, err := h.client(t).GetJSON(r.Context(), t.name, meta.GetOptions{ResourceVersion: rv})
		if err != nil {
			return err
		}
		writeRawJSON(w, http.StatusOK, body)
		return nil
	}
	obj, err := h.client(t).Get(r.Context(), t.name, meta.GetOptions{ResourceVersion: rv})
	if err != nil {
		return err
	}
	if as == asTable {
		om := meta.ListMeta{ResourceVersion: obj.GetObjectMeta().ResourceVersion}
		writeJSON(w, http.StatusOK, h.table(t.info, om, t.rowObject, obj))
		return nil
	}
	writeObject(w, r, t.info, http.StatusOK, obj)
	return nil
}

// readObject reads and decodes the body of a create or update, sending
// unknown-field warnings as Warning headers.
func (h *Handler) readObject(w http.ResponseWriter, r *http.Request, t target) (meta.Object, error) {
	mt := mediaType(r)
	if mt != "application/json" && mt != yamlMediaType && mt != protobufMediaType {
		return nil, errUnsupportedBody(mt, readsProtobuf(t.info))
	}
	if _, err := negotiateOne(r, t.info); err != nil {
		return nil, err
	}
	optionsKind := "UpdateOptions"
	if r.Method == http.MethodPost {
		optionsKind = "CreateOptions"
	}
	fv, err := parseFieldValidation(r.URL.Query(), optionsKind)
	if err != nil {
		return nil, err
	}
	body, err := h.readBody(w, r)
	if err == nil && mt == yamlMediaType {
		body, err = yamlToJSON(body)
	}
	if err != nil {
		return nil, err
	}
	var obj meta.Object
	var warnings []string
	if mt == protobufMediaType {
		obj, err = decodeProtobuf(t.info, body)
	} else {
		obj, warnings, err = decodeObject(t.info, body, fv)
	}
	warn(w, warnings) // a refused body may have warnings too
	if err != nil {
		return nil, err
	}
	m := obj.GetObjectMeta()
	if t.namespaced && m.Namespace != "" && m.Namespace != t.namespace {
		return nil, meta.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	if t.name != "" && m.Name != t.name {
		return nil, meta.NewBadRequest(fmt.Sprintf(
			"the name of the object (%s) does not match the name on the URL (%s)", m.Name, t.name))
	}
	return obj, nil
}

// create answers POST on a collection: 201 Created with the stored object,
// and kube-apiserver's warnings for finalizer names without a domain.
// (The real server warns too when an update adds such a finalizer; here
// only a create does, since an update's body does not say which
// finalizers are new.)
func (h *Handler) create(w http.ResponseWriter, r *http.Request, t target) error {
	if t.served != nil {
		return h.createServed(w, r, t)
	}
	dry, err := dryRun(r.URL.Query(), "CreateOptions")
	if err != nil {
		return err
	}
	obj, err := h.readObject(w, r, t)
	if err != nil {
		return err
	}
	warn(w, meta.FinalizerWarnings(obj.GetObjectMeta().Finalizers, nil))
	out, err := h.client(t).Create(r.Context(), obj, meta.CreateOptions{DryRun: dry, FieldManager: fieldManager(r)})
	if err != nil {
		return err
	}
	writeObject(w, r, t.info, http.StatusCreated, out)
	return nil
}

// update answers PUT on an object (Update), on its status
// (UpdateStatus) or on a namespace's finalize (Finalize): 200 with the
// stored object, or 201 when the PUT created it (see
// [meta.KindInfo.AllowCreateOnUpdate]).
func (h *Handler) update(w http.ResponseWriter, r *http.Request, t target) error {
	if t.served != nil {
		return h.updateServed(w, r, t)
	}
	dry, err := dryRun(r.URL.Query(), "UpdateOptions")
	if err != nil {
		return err
	}
	obj, err := h.readObject(w, r, t)
	if err != nil {
		return err
	}
	c, opts := h.client(t), meta.UpdateOptions{DryRun: dry, FieldManager: fieldManager(r)}
	var out meta.Object
	var created bool
	switch t.subresource {
	case "status":
		out, err = c.UpdateStatus(r.Context(), obj, opts)
	case "finalize":
		out, err = c.Finalize(r.Context(), obj, opts)
	default:
		out, created, err = c.UpdateObject(r.Context(), obj, opts)
	}
	if err != nil {
		return err
	}
	code := http.StatusOK
	if created { // a kind that allows create on update (Event, Lease)
		code = http.StatusCreated
	}
	writeObject(w, r, t.info, code, out)
	return nil
}

// warn sends each message as a Warning header, as kube-apiserver sends
// its warnings: code 299, no agent, the text quoted.
func warn(w http.ResponseWriter, msgs []string) {
	for _, msg := range msgs {
		w.Header().Add("Warning", "299 - "+strconv.Quote(msg))
	}
}
