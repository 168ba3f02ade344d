package rest

import (
	"context"
	"fmt"
	"reflect"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// TypedClient is a typed client over HTTP for the kind whose Go type is T
// (a pointer to a registered struct, e.g. *Order): the calls of
// [ResourceClient] with T in and out, as [apiserver.Client] offers them
// in process. If T is not registered in the client's scheme, each call
// fails with a 400 BadRequest that says so.
//
// A TypedClient is safe for concurrent use.
type TypedClient[T meta.Object] struct {
	c  *Client
	ns string
}

// NewTypedClient returns a typed client for T over c, across all
// namespaces.
func NewTypedClient[T meta.Object](c *Client) *TypedClient[T] {
	return &TypedClient[T]{c: c}
}

// Namespace returns a copy of t scoped to namespace ns.
func (t *TypedClient[T]) Namespace(ns string) *TypedClient[T] {
	return &TypedClient[T]{c: t.c, ns: ns}
}

// Resource returns the untyped client that t uses, or an error if T is
// not registered.
func (t *TypedClient[T]) Resource() (*ResourceClient, error) {
	typ := reflect.TypeFor[T]()
	if typ.Kind() != reflect.Pointer || typ.Elem().Kind() != reflect.Struct {
		return nil, meta.NewBadRequest(fmt.Sprintf("the type parameter %s of TypedClient is not a pointer to a struct", typ))
	}
	info, err := t.c.scheme.KindFor(reflect.New(typ.Elem()).Interface().(meta.Object))
	if err != nil {
		return nil, err
	}
	return t.c.Resource(info.GroupVersionResource()).Namespace(t.ns), nil
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
func (t *TypedClient[T]) Get(ctx context.Context, name string, opts meta.GetOptions) (T, error) {
	rc, err := t.Resource()
	if err != nil {
		var zero T
		return zero, err
	}
	return typed[T](rc.Get(ctx, name, opts))
}

// Create stores obj; see [ResourceClient.Create].
func (t *TypedClient[T]) Create(ctx context.Context, obj T, opts meta.CreateOptions) (T, error) {
	rc, err := t.Resource()
	if err != nil {
		var zero T
		return zero, err
	}
	return typed[T](rc.Create(ctx, obj, opts))
}

// Update replaces obj; see [ResourceClient.Update].
func (t *TypedClient[T]) Update(ctx context.Context, obj T, opts meta.UpdateOptions) (T, error) {
	rc, err := t.Resource()
	if err != nil {
		var zero T
		return zero, err
	}
	return typed[T](rc.Update(ctx, obj, opts))
}

// UpdateStatus writes obj's status; see [ResourceClient.UpdateStatus].
func (t *TypedClient[T]) UpdateStatus(ctx context.Context, obj T, opts meta.UpdateOptions) (T, error) {
	rc, err := t.Resource()
	if err != nil {
		var zero T
		return zero, err
	}
	return typed[T](rc.UpdateStatus(ctx, obj, opts))
}

// Patch applies a patch; see [ResourceClient.Patch].
func (t *TypedClient[T]) Patch(ctx context.Context, name string, pt meta.PatchType, data []byte, opts meta.PatchOptions, subresources ...string) (T, error) {
	rc, err := t.Resource()
	if err != nil {
		var zero T
		return zero, err
	}
	return typed[T](rc.Patch(ctx, name, pt, data, opts, subresources...))
}

// Delete deletes the object name; see [ResourceClient.Delete].
func (t *TypedClient[T]) Delete(ctx context.Context, name string, opts meta.DeleteOptions) error {
	rc, err := t.Resource()
	if err != nil {
		return err
	}
	return rc.Delete(ctx, name, opts)
}

// List returns the selected objects and the list's metadata; see
// [ResourceClient.List].
func (t *TypedClient[T]) List(ctx context.Context, opts meta.ListOptions) ([]T, meta.ListMeta, error) {
	rc, err := t.Resource()
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
func (t *TypedClient[T]) Watch(ctx context.Context, opts meta.ListOptions) (meta.WatchInterface, error) {
	rc, err := t.Resource()
	if err != nil {
		return nil, err
	}
	return rc.Watch(ctx, opts)
}
