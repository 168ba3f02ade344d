package client

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sync/atomic"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Client is a typed client for the kind whose Go type is T (a pointer to
// a registered struct, e.g. *Order): the calls of [ResourceInterface] with
// T in and out instead of [meta.Object], like a client-go typed clientset.
// It works over any [Interface], in process or over HTTP. It finds the
// kind through the scheme, so if T is not registered each call fails with
// a 400 BadRequest that says so; once found, the kind is kept (a Go type's
// kind never changes).
//
// A Client is safe for concurrent use.
type Client[T meta.Object] struct {
	api Interface
	ns  string
	gvr *meta.GroupVersionResource        // set by ForResource: the resource, whatever T is
	rc  atomic.Pointer[ResourceInterface] // set once T's kind is found
}

// New returns a typed client for T on api, across all namespaces:
//
//	orders := client.New[*Order](srv)                  // in process
//	orders := client.New[*Order](restClient)           // over HTTP
//	order, err := orders.Namespace("dinner").Get(ctx, "table-7", meta.GetOptions{})
func New[T meta.Object](api Interface) *Client[T] {
	return &Client[T]{api: api}
}

// Namespace returns a copy of c scoped to namespace ns.
func (c *Client[T]) Namespace(ns string) *Client[T] {
	return &Client[T]{api: c.api, ns: ns, gvr: c.gvr}
}

// Resource returns the untyped calls that c makes, or an error if T is not
// registered.
func (c *Client[T]) Resource() (ResourceInterface, error) {
	if rc := c.rc.Load(); rc != nil {
		return *rc, nil
	}
	if c.gvr != nil {
		rc := forResource[T](c.api, *c.gvr, c.ns)
		c.rc.Store(&rc)
		return rc, nil
	}
	t := reflect.TypeFor[T]()
	if t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		return nil, meta.NewBadRequest(fmt.Sprintf("the type parameter %s of Client is not a pointer to a struct", t))
	}
	info, err := c.api.Scheme().KindForType(t)
	if err != nil {
		return nil, err
	}
	rc := c.api.ResourceFor(info.GroupVersionResource(), c.ns)
	c.rc.Store(&rc)
	return rc, nil
}

// typed converts a result of the untyped calls.
func typed[T meta.Object](obj meta.Object, err error) (T, error) {
	if err != nil {
		var zero T
		return zero, err
	}
	return obj.(T), nil
}

// Get returns the object name.
func (c *Client[T]) Get(ctx context.Context, name string, opts meta.GetOptions) (T, error) {
	rc, err := c.Resource()
	if err != nil {
		var zero T
		return zero, err
	}
	return typed[T](rc.Get(ctx, name, opts))
}

// List returns the selected objects and the list's metadata (its
// resourceVersion and continue token).
func (c *Client[T]) List(ctx context.Context, opts meta.ListOptions) ([]T, meta.ListMeta, error) {
	rc, err := c.Resource()
	if err != nil {
		return nil, meta.ListMeta{}, err
	}
	list, err := rc.List(ctx, opts)
	if err != nil {
		return nil, meta.ListMeta{}, err
	}
	items := make([]T, len(list.Items))
	for i, obj := range list.Items {
		items[i] = obj.(T)
	}
	return items, list.ListMeta, nil
}

// Watch starts a watch. Event objects are of type T (or *[meta.Status]
// for ERROR).
func (c *Client[T]) Watch(ctx context.Context, opts meta.ListOptions) (meta.WatchInterface, error) {
	rc, err := c.Resource()
	if err != nil {
		return nil, err
	}
	return rc.Watch(ctx, opts)
}

// Create stores obj and returns it as stored.
func (c *Client[T]) Create(ctx context.Context, obj T, opts meta.CreateOptions) (T, error) {
	rc, err := c.Resource()
	if err != nil {
		var zero T
		return zero, err
	}
	return typed[T](rc.Create(ctx, obj, opts))
}

// Update replaces obj, if it carries the stored resourceVersion.
func (c *Client[T]) Update(ctx context.Context, obj T, opts meta.UpdateOptions) (T, error) {
	rc, err := c.Resource()
	if err != nil {
		var zero T
		return zero, err
	}
	return typed[T](rc.Update(ctx, obj, opts))
}

// UpdateStatus writes obj's status through the status subresource.
func (c *Client[T]) UpdateStatus(ctx context.Context, obj T, opts meta.UpdateOptions) (T, error) {
	rc, err := c.Resource()
	if err != nil {
		var zero T
		return zero, err
	}
	return typed[T](rc.UpdateStatus(ctx, obj, opts))
}

// Patch applies a patch to the object name, or to its status with the
// subresource "status".
func (c *Client[T]) Patch(ctx context.Context, name string, pt meta.PatchType, data []byte, opts meta.PatchOptions, subresources ...string) (T, error) {
	rc, err := c.Resource()
	if err != nil {
		var zero T
		return zero, err
	}
	return typed[T](rc.Patch(ctx, name, pt, data, opts, subresources...))
}

// Delete deletes the object name.
func (c *Client[T]) Delete(ctx context.Context, name string, opts meta.DeleteOptions) error {
	rc, err := c.Resource()
	if err != nil {
		return err
	}
	return rc.Delete(ctx, name, opts)
}

// Apply sends obj as a server-side apply configuration for the object it
// names: a Patch with [meta.ApplyPatchType]. Every field obj's JSON holds
// is part of the configuration, so set only the fields this manager means
// to own: a Go field without omitempty is applied even at its zero value
// (client-go's apply configurations exist for that reason). The object is
// created if missing. An empty apiVersion and kind are filled in.
func (c *Client[T]) Apply(ctx context.Context, obj T, opts meta.ApplyOptions) (T, error) {
	var zero T
	info, err := c.applyKind(obj)
	if err != nil {
		return zero, err
	}
	config := obj.DeepCopyObject()
	if tm := config.GetTypeMeta(); *tm == (meta.TypeMeta{}) {
		*tm = info.TypeMeta()
	}
	data, err := json.Marshal(config)
	if err != nil {
		return zero, meta.NewBadRequest("the apply configuration cannot be encoded as JSON: " + err.Error())
	}
	ns := obj.GetNamespace()
	if ns == "" {
		ns = c.ns
	}
	force := opts.Force
	return c.Namespace(ns).Patch(ctx, obj.GetName(), meta.ApplyPatchType, data,
		meta.PatchOptions{DryRun: opts.DryRun, FieldManager: opts.FieldManager, Force: &force})
}
