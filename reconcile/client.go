package reconcile

import (
	"cmp"
	"context"
	"reflect"
	"slices"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/store"
)

// Client is what a reconciler uses to read and write objects of kind T: it
// reads from an informer's cache (cheap, no request to the API server, but
// possibly a little behind) and writes to the API server. Like
// controller-runtime's default client, which reads from the manager's cache.
//
// Reads return deep copies, so a reconciler may modify what it got and
// write it back. Because the cache lags behind writes, an Update based on
// a Get can fail with 409 Conflict; return the error (the request is
// retried) or use [client.RetryOnConflict].
//
// A Client is safe for concurrent use.
type Client[T meta.Object] struct {
	cache  *store.Indexer[T]
	server *client.Client[T]
	gr     meta.GroupResource
}

// NewClient returns a client for T that reads from cache — typically
// informer.GetIndexer() — and writes through api: the server in process
// (*apiserver.Server) or in another one (*rest.Client). It fails if T is
// not registered in api's scheme.
func NewClient[T meta.Object](api client.Interface, cache *store.Indexer[T]) (*Client[T], error) {
	if api == nil || cache == nil {
		return nil, meta.NewBadRequest("reconcile.NewClient needs an API and a cache")
	}
	t := reflect.TypeFor[T]()
	if t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		return nil, meta.NewBadRequest("reconcile.NewClient: " + t.String() + " is not a pointer to a struct")
	}
	info, err := api.Scheme().KindForType(t)
	if err != nil {
		return nil, err
	}
	return &Client[T]{cache: cache, server: client.New[T](api), gr: info.GroupResource()}, nil
}

// Get returns a copy of the cached object key, or a NotFound error
// (meta.IsNotFound) if the cache does not have it. For a reconciler,
// NotFound usually means the object was deleted: nothing to do.
func (c *Client[T]) Get(_ context.Context, key NamespacedName) (T, error) {
	obj, ok, err := c.cache.GetByKey(key.String())
	if err == nil && !ok {
		err = meta.NewNotFound(c.gr, key.Name)
	}
	if err != nil {
		var zero T
		return zero, err
	}
	return meta.DeepCopy(obj), nil
}

// List returns copies of the cached objects in namespace (all namespaces
// if empty) whose labels sel matches (all if sel is nil), sorted by
// namespace and name.
func (c *Client[T]) List(_ context.Context, namespace string, sel *meta.LabelSelector) ([]T, error) {
	var objs []T
	if namespace == "" {
		objs = c.cache.List()
	} else if byNS, err := c.cache.ByIndex(store.NamespaceIndex, namespace); err == nil {
		objs = byNS
	} else {
		objs = slices.DeleteFunc(c.cache.List(), func(o T) bool { return o.GetObjectMeta().Namespace != namespace })
	}
	out := make([]T, 0, len(objs))
	for _, o := range objs {
		if sel.Matches(o.GetObjectMeta().Labels) {
			out = append(out, meta.DeepCopy(o))
		}
	}
	slices.SortFunc(out, func(a, b T) int {
		return compareKeys(NamespacedNameOf(a), NamespacedNameOf(b))
	})
	return out, nil
}

func compareKeys(a, b NamespacedName) int {
	return cmp.Or(strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Name, b.Name))
}

// Create creates obj on the API server and returns what was stored.
func (c *Client[T]) Create(ctx context.Context, obj T) (T, error) {
	return c.in(obj).Create(ctx, obj, meta.CreateOptions{})
}

// Update writes obj's spec and metadata (not its status) to the API
// server, if obj's resourceVersion is still the latest, and returns what
// was stored.
func (c *Client[T]) Update(ctx context.Context, obj T) (T, error) {
	return c.in(obj).Update(ctx, obj, meta.UpdateOptions{})
}

// UpdateStatus writes obj's status (only) through the status subresource,
// if obj's resourceVersion is still the latest, and returns what was stored.
func (c *Client[T]) UpdateStatus(ctx context.Context, obj T) (T, error) {
	return c.in(obj).UpdateStatus(ctx, obj, meta.UpdateOptions{})
}

// Patch applies a patch of type pt to the object key on the API server and
// returns the result. A merge patch needs no resourceVersion, so it never
// conflicts.
func (c *Client[T]) Patch(ctx context.Context, key NamespacedName, pt meta.PatchType, data []byte) (T, error) {
	return c.server.Namespace(key.Namespace).Patch(ctx, key.Name, pt, data, meta.PatchOptions{})
}

// Delete asks the API server to delete obj. With finalizers, that only
// sets its deletionTimestamp.
func (c *Client[T]) Delete(ctx context.Context, obj T) error {
	m := metaOf(obj)
	if m == nil {
		return meta.NewBadRequest("reconcile.Client.Delete: the object is nil")
	}
	return c.server.Namespace(m.Namespace).Delete(ctx, m.Name, meta.DeleteOptions{})
}

// in returns the server client for obj's namespace.
func (c *Client[T]) in(obj T) *client.Client[T] {
	ns := ""
	if m := metaOf(obj); m != nil {
		ns = m.Namespace
	}
	return c.server.Namespace(ns)
}
