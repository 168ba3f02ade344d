package apiserver

import (
	"context"
	"fmt"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"reflect"
	"sync/atomic"
)

// Client is a typed client for the kind whose Go type is T (a pointer to
// a registered struct, e.g. *Order): the calls of [ResourceClient], with
// T in and out instead of [meta.Object], like a client-go typed clientset.
// It finds the kind through the server's scheme, so if T is not
// registered each call fails with a 400 BadRequest that says so; once
// found, the kind is kept (a Go type's kind never changes).
//
// A Client is safe for concurrent use.
type Client[T meta.Object] struct {
	srv *Server
	ns  string
	rc  atomic.Pointer[ResourceClient] // set once T's kind is found
}

// NewClient returns a typed client for T on s, across all namespaces.
func NewClient[T meta.Object](s *Server) *Client[T] {
	return &Client[T]{srv: s}
}

// Namespace returns a copy of c scoped to namespace ns.
func (c *Client[T]) Namespace(ns string) *Client[T] {
	return &Client[T]{srv: c.srv, ns: ns}
}

// Resource returns the untyped client that c uses, or an error if T is
// not registered.
func (c *Client[T]) Resource() (*ResourceClient, error) {
	if rc := c.rc.Load(); rc != nil {
		return rc, nil
	}
	t := reflect.TypeFor[T]()
	if t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		return nil, meta.NewBadRequest(fmt.Sprintf("the type parameter %s of Client is not a pointer to a struct", t))
	}
	info, err := c.srv.scheme.KindForType(t)
	if err != nil {
		return nil, err
	}
	rc := &ResourceClient{srv: c.srv, gvr: info.GroupVersionResource(), ns: c.ns}
	c.rc.Store(rc)
	return rc, nil
}

// typed converts a result of the untyped client.
func typed[T meta.Object](obj meta.Object, err error) (T, error) {
	if err != nil {
		var zero T
		return zero, err
	}
	return obj.(T), nil
}

// Get returns the object name; see [ResourceClient.Get].
func (c *Client[T]) Get(ctx context.Context, name string, opts meta.GetOptions) (T, error) {
	rc, err := c.Resource()
	if err != nil {
		var zero T
		return zero, err
	}
	return typed[T](rc.Get(ctx, name, opts))
}

// Create stores obj; see [ResourceClient.Create].
func (c *Client[T]) Create(ctx context.Context, obj T, opts meta.CreateOptions) (T, error) {
	rc, err := c.Resource()
	if err != nil {
		var zero T
		return zero, err
	}
	return typed[T](rc.Create(ctx, obj, opts))
}

// Update replaces obj; see [ResourceClient.Update].
func (c *Client[T]) Update(ctx context.Context, obj T, opts meta.UpdateOptions) (T, error) {
	rc, err := c.Resource()
	if err != nil {
		var zero T
		return zero, err
	}
	return typed[T](rc.Update(ctx, obj, opts))
}

// UpdateStatus writes obj's status; see [ResourceClient.UpdateStatus].
func (c *Client[T]) UpdateStatus(ctx context.Context, obj T, opts meta.UpdateOptions) (T, error) {
	rc, err := c.Resource()
	if err != nil {
		var zero T
		return zero, err
	}
	return typed[T](rc.UpdateStatus(ctx, obj, opts))
}

// Patch applies a patch to the object name, or to its status with the
// subresource "status"; see [ResourceClient.Patch].
func (c *Client[T]) Patch(ctx context.Context, name string, pt meta.PatchType, data []byte, opts meta.PatchOptions, subresources ...string) (T, error) {
	rc, err := c.Resource()
	if err != nil {
		var zero T
		return zero, err
	}
	return typed[T](rc.Patch(ctx, name, pt, data, opts, subresources...))
}

// Delete deletes the object name; see [ResourceClient.Delete].
func (c *Client[T]) Delete(ctx context.Context, name string, opts meta.DeleteOptions) error {
	rc, err := c.Resource()
	if err != nil {
		return err
	}
	return rc.Delete(ctx, name, opts)
}

// DeleteCollection deletes every object that listOpts select; see
// [ResourceClient.DeleteCollection]. Like client-go's typed clients, it
// returns only the error.
func (c *Client[T]) DeleteCollection(ctx context.Context, opts meta.DeleteOptions, listOpts meta.ListOptions) error {
	rc, err := c.Resource()
	if err != nil {
		return err
	}
	_, err = rc.DeleteCollection(ctx, opts, listOpts)
	return err
}

// List returns the selected objects and the list's metadata (its
// resourceVersion and continue token); see [ResourceClient.List].
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

// Watch starts a watch; see [ResourceClient.Watch]. Event objects are of
// type T (or *[meta.Status] for ERROR).
func (c *Client[T]) Watch(ctx context.Context, opts meta.ListOptions) (meta.WatchInterface, error) {
	rc, err := c.Resource()
	if err != nil {
		return nil, err
	}
	return rc.Watch(ctx, opts)
}
