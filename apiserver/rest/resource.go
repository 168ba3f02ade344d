package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/namespaces"
)

// ResourceClient makes requests for one resource (one kind) over HTTP,
// across all namespaces or, after [ResourceClient.Namespace], in one. It
// has the methods of [apiserver.ResourceClient], with the same meaning and
// the same errors, so code written against the in-process server runs
// against a real one; in particular it satisfies informer.ListerWatcher.
//
// Every object it returns is freshly decoded, the caller's own; objects
// passed in are never modified. A ResourceClient is safe for concurrent
// use and cheap to make.
type ResourceClient struct {
	c   *Client
	gvr meta.GroupVersionResource
	ns  string
}

// Resource returns a client for the resource gvr in all namespaces. An
// unregistered gvr is not an error here: each request then fails with 404
// NotFound, as a server answers a path it does not serve.
func (c *Client) Resource(gvr meta.GroupVersionResource) *ResourceClient {
	return &ResourceClient{c: c, gvr: gvr}
}

// ResourceFor returns a client for the resource gvr in namespace ns, as
// a [client.ResourceInterface]: with it, the client is a
// [client.Interface], which the typed [client.Client], informer factories
// and reconcilers take.
func (c *Client) ResourceFor(gvr meta.GroupVersionResource, ns string) client.ResourceInterface {
	return &ResourceClient{c: c, gvr: gvr, ns: ns}
}

var _ client.Interface = (*Client)(nil)

// Namespace returns a copy of r scoped to namespace ns ("" means all
// namespaces).
func (r *ResourceClient) Namespace(ns string) *ResourceClient {
	out := *r
	out.ns = ns
	return &out
}

// kind finds the resource's kind in the client's scheme.
func (r *ResourceClient) kind() (meta.KindInfo, error) {
	info, ok := r.c.scheme.KindForResource(r.gvr)
	if !ok {
		return info, meta.NewNotFound(r.gvr.GroupResource(), "")
	}
	if !info.Namespaced && r.ns != "" {
		return info, meta.NewBadRequest(fmt.Sprintf(
			"%s is cluster-scoped: the namespace %q is not allowed; use a client without Namespace", info.GroupResource(), r.ns))
	}
	return info, nil
}

// path builds the URL path of the resource: the collection, or with a
// name the object, or with a subresource that part of it. The core group
// lives under /api/v1, the others under /apis/{group}/{version}.
func path(info meta.KindInfo, ns, name, subresource string) string {
	p := "/apis/" + url.PathEscape(info.Group) + "/" + url.PathEscape(info.Version)
	if info.Group == "" {
		p = "/api/" + url.PathEscape(info.Version)
	}
	if info.Namespaced && ns != "" {
		p += "/namespaces/" + url.PathEscape(ns)
	}
	p += "/" + url.PathEscape(info.Resource)
	if name != "" {
		p += "/" + url.PathEscape(name)
	}
	if subresource != "" {
		p += "/" + subresource
	}
	return p
}

// objectPath is the path of the object name in namespace ns, or a typed
// error when the name or a needed namespace is missing.
func objectPath(info meta.KindInfo, ns, name, subresource string) (string, error) {
	switch {
	case name == "":
		return "", meta.NewBadRequest("resource name may not be empty")
	case info.Namespaced && ns == "":
		return "", meta.NewBadRequest(fmt.Sprintf(
			"%s is namespaced: set metadata.namespace or use Namespace(ns) on the client", info.GroupResource()))
	}
	return path(info, ns, name, subresource), nil
}

// writeQuery is the query of a write: dryRun=All when asked, the field
// manager, and force for an apply.
func writeQuery(dry bool, fieldManager string, force *bool) url.Values {
	q := url.Values{}
	if dry {
		q.Set("dryRun", "All")
	}
	if fieldManager != "" {
		q.Set("fieldManager", fieldManager)
	}
	if force != nil {
		q.Set("force", strconv.FormatBool(*force))
	}
	return q
}

// decodeInto returns a request's answer decoded as an object of the kind.
func (r *ResourceClient) do(ctx context.Context, info meta.KindInfo, req request) (meta.Object, error) {
	out := info.New()
	if err := r.c.call(ctx, req, out); err != nil {
		return nil, err
	}
	return out, nil
}

// Get returns the object name (in the client's namespace).
func (r *ResourceClient) Get(ctx context.Context, name string, opts meta.GetOptions) (meta.Object, error) {
	info, err := r.kind()
	if err != nil {
		return nil, err
	}
	p, err := objectPath(info, r.ns, name, "")
	if err != nil {
		return nil, err
	}
	var q url.Values
	if opts.ResourceVersion != "" {
		q = url.Values{"resourceVersion": {opts.ResourceVersion}}
	}
	return r.do(ctx, info, request{method: http.MethodGet, path: p, query: q})
}

// body encodes obj for a write, with the kind's apiVersion and kind (a
// real server insists on them), without touching the caller's object.
func body(info meta.KindInfo, obj meta.Object) ([]byte, error) {
	if obj == nil {
		return nil, meta.NewBadRequest("the object is nil")
	}
	in := obj.DeepCopyObject()
	*in.GetTypeMeta() = info.TypeMeta()
	b, err := json.Marshal(in)
	if err != nil {
		return nil, meta.NewBadRequest(fmt.Sprintf("the object cannot be encoded as JSON: %v", err))
	}
	return b, nil
}

// writeNamespace is the namespace a write of obj goes to: the object's,
// or the client's when the object has none.
func (r *ResourceClient) writeNamespace(obj meta.Object) string {
	if obj != nil {
		if ns := obj.GetObjectMeta().Namespace; ns != "" {
			return ns
		}
	}
	return r.ns
}

// Create stores a new object and returns it as stored; see
// [apiserver.ResourceClient.Create]. The namespace comes from the object
// or, if empty there, from the client.
func (r *ResourceClient) Create(ctx context.Context, obj meta.Object, opts meta.CreateOptions) (meta.Object, error) {
	info, err := r.kind()
	if err != nil {
		return nil, err
	}
	b, err := body(info, obj)
	if err != nil {
		return nil, err
	}
	ns := r.writeNamespace(obj)
	if info.Namespaced && ns == "" {
		var errs meta.FieldErrors
		errs.Required("metadata.namespace", "")
		return nil, errs.ToError(info.GroupKind(), obj.GetObjectMeta().Name)
	}
	req := request{method: http.MethodPost, path: path(info, ns, "", ""), query: writeQuery(opts.DryRun, opts.FieldManager, nil),
		body: b, contentType: "application/json"}
	return r.do(ctx, info, req)
}

// Update replaces the object with obj, if obj's resourceVersion is still
// the latest; see [apiserver.ResourceClient.Update].
func (r *ResourceClient) Update(ctx context.Context, obj meta.Object, opts meta.UpdateOptions) (meta.Object, error) {
	return r.put(ctx, obj, opts, "")
}

// UpdateStatus writes obj's status through the status subresource; see
// [apiserver.ResourceClient.UpdateStatus].
func (r *ResourceClient) UpdateStatus(ctx context.Context, obj meta.Object, opts meta.UpdateOptions) (meta.Object, error) {
	return r.put(ctx, obj, opts, "status")
}

// Finalize writes the spec.finalizers of obj, a namespace, through its
// finalize subresource; see [apiserver.ResourceClient.Finalize].
func (r *ResourceClient) Finalize(ctx context.Context, obj meta.Object, opts meta.UpdateOptions) (meta.Object, error) {
	return r.put(ctx, obj, opts, "finalize")
}

// put sends obj with PUT to the object or its subresource.
func (r *ResourceClient) put(ctx context.Context, obj meta.Object, opts meta.UpdateOptions, sub string) (meta.Object, error) {
	info, err := r.kind()
	if err != nil {
		return nil, err
	}
	b, err := body(info, obj)
	if err != nil {
		return nil, err
	}
	p, err := objectPath(info, r.writeNamespace(obj), obj.GetObjectMeta().Name, sub)
	if err != nil {
		return nil, err
	}
	req := request{method: http.MethodPut, path: p, query: writeQuery(opts.DryRun, opts.FieldManager, nil), body: b, contentType: "application/json"}
	return r.do(ctx, info, req)
}

// Patch applies a patch of type pt (its media type, e.g.
// [meta.MergePatchType]) to the object name, or with the subresource
// "status" to its status, and returns the result; see
// [apiserver.ResourceClient.Patch].
func (r *ResourceClient) Patch(ctx context.Context, name string, pt meta.PatchType, data []byte, opts meta.PatchOptions, subresources ...string) (meta.Object, error) {
	info, err := r.kind()
	if err != nil {
		return nil, err
	}
	p, err := objectPath(info, r.ns, name, strings.Join(subresources, "/"))
	if err != nil {
		return nil, err
	}
	req := request{method: http.MethodPatch, path: p, query: writeQuery(opts.DryRun, opts.FieldManager, opts.Force), body: data, contentType: string(pt)}
	return r.do(ctx, info, req)
}

// deleteOptions is the wire form of metav1.DeleteOptions.
type deleteOptions struct {
	meta.TypeMeta      `json:",inline"`
	GracePeriodSeconds *int64                    `json:"gracePeriodSeconds,omitempty"`
	Preconditions      *preconditions            `json:"preconditions,omitempty"`
	OrphanDependents   *bool                     `json:"orphanDependents,omitempty"`
	PropagationPolicy  *meta.DeletionPropagation `json:"propagationPolicy,omitempty"`
	DryRun             []string                  `json:"dryRun,omitempty"`
}

type preconditions struct {
	UID             *string `json:"uid,omitempty"`
	ResourceVersion *string `json:"resourceVersion,omitempty"`
}

// Delete deletes the object name; see [apiserver.ResourceClient.Delete].
func (r *ResourceClient) Delete(ctx context.Context, name string, opts meta.DeleteOptions) error {
	_, _, err := r.DeleteObject(ctx, name, opts)
	return err
}

// DeleteObject deletes the object name and returns what the server
// answered, and whether the object is gone; see
// [apiserver.ResourceClient.DeleteObject]. The options travel in the body,
// as client-go sends them.
//
// Unlike in process, an object that is gone comes back as the server
// sends it: a server that answers a Success Status (as httpapi does)
// gives a nil object, with gone true.
func (r *ResourceClient) DeleteObject(ctx context.Context, name string, opts meta.DeleteOptions) (meta.Object, bool, error) {
	info, err := r.kind()
	if err != nil {
		return nil, false, err
	}
	p, err := objectPath(info, r.ns, name, "")
	if err != nil {
		return nil, false, err
	}
	in := deleteOptions{
		TypeMeta:           meta.TypeMeta{APIVersion: "v1", Kind: "DeleteOptions"},
		GracePeriodSeconds: opts.GracePeriodSeconds, OrphanDependents: opts.OrphanDependents,
		PropagationPolicy: opts.PropagationPolicy,
	}
	if pc := opts.Preconditions; pc != nil {
		in.Preconditions = &preconditions{UID: pc.UID, ResourceVersion: pc.ResourceVersion}
	}
	if opts.DryRun {
		in.DryRun = []string{"All"}
	}
	b, err := json.Marshal(in)
	if err != nil {
		return nil, false, err
	}
	var raw json.RawMessage
	if err := r.c.call(ctx, request{method: http.MethodDelete, path: p, body: b, contentType: "application/json"}, &raw); err != nil {
		return nil, false, err
	}
	return decodeDeleted(info, raw)
}

// decodeDeleted reads the answer to a delete: a Success Status (gone), or
// the object, gone unless it still has finalizers. A namespace is
// answered as the object whether it went or only began terminating (as
// kube-apiserver answers): it counts as not gone, and a Get tells.
func decodeDeleted(info meta.KindInfo, raw []byte) (meta.Object, bool, error) {
	var head meta.TypeMeta
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, false, fmt.Errorf("decoding the answer to a delete: %w", err)
	}
	if head.Kind == "Status" {
		return nil, true, nil
	}
	obj := info.New()
	if err := json.Unmarshal(raw, obj); err != nil {
		return nil, false, fmt.Errorf("decoding the answer to a delete: %w", err)
	}
	if _, ok := obj.(namespaces.Object); ok {
		return obj, false, nil
	}
	return obj, len(obj.GetObjectMeta().Finalizers) == 0, nil
}

// listQuery encodes list and watch options as Kubernetes' query
// parameters.
func listQuery(opts meta.ListOptions) url.Values {
	q := url.Values{}
	set := func(k, v string) {
		if v != "" {
			q.Set(k, v)
		}
	}
	set("labelSelector", opts.LabelSelector)
	set("fieldSelector", opts.FieldSelector)
	set("resourceVersion", opts.ResourceVersion)
	set("resourceVersionMatch", string(opts.ResourceVersionMatch))
	set("continue", opts.Continue)
	if opts.Limit > 0 {
		q.Set("limit", strconv.FormatInt(opts.Limit, 10))
	}
	if opts.AllowWatchBookmarks {
		q.Set("allowWatchBookmarks", "true")
	}
	if opts.SendInitialEvents != nil {
		q.Set("sendInitialEvents", strconv.FormatBool(*opts.SendInitialEvents))
	}
	if opts.TimeoutSeconds != nil {
		q.Set("timeoutSeconds", strconv.FormatInt(*opts.TimeoutSeconds, 10))
	}
	return q
}

// wireList is a list response as it arrives: the items are decoded one
// by one into the kind's Go type.
type wireList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata"`
	Items         []json.RawMessage `json:"items"`
}

// List returns one page of the selected objects and the resourceVersion
// they were read at; see [apiserver.ResourceClient.List].
func (r *ResourceClient) List(ctx context.Context, opts meta.ListOptions) (*meta.List, error) {
	info, err := r.kind()
	if err != nil {
		return nil, err
	}
	var wl wireList
	req := request{method: http.MethodGet, path: path(info, r.ns, "", ""), query: listQuery(opts)}
	if err := r.c.call(ctx, req, &wl); err != nil {
		return nil, err
	}
	out := &meta.List{TypeMeta: wl.TypeMeta, ListMeta: wl.ListMeta, Items: make([]meta.Object, len(wl.Items))}
	for i, raw := range wl.Items {
		obj := info.New()
		if err := json.Unmarshal(raw, obj); err != nil {
			return nil, fmt.Errorf("GET %s: decoding item %d: %w", req.path, i, err)
		}
		*obj.GetTypeMeta() = info.TypeMeta() // a built-in kind's items come without it
		out.Items[i] = obj
	}
	return out, nil
}
