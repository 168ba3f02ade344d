package reconcile

import (
	"context"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// API is what a reconciler asks of the API server about kind T in one
// namespace: the calls of a typed client. *apiserver.Client[T] answers
// in process and *rest.TypedClient[T] (package apiserver/rest) over HTTP:
// both have these methods, so the same reconciler runs beside the server
// or in another process. Like controller-runtime's client.Client, for one
// kind.
type API[T meta.Object] interface {
	Get(ctx context.Context, name string, opts meta.GetOptions) (T, error)
	List(ctx context.Context, opts meta.ListOptions) ([]T, meta.ListMeta, error)
	Create(ctx context.Context, obj T, opts meta.CreateOptions) (T, error)
	Update(ctx context.Context, obj T, opts meta.UpdateOptions) (T, error)
	UpdateStatus(ctx context.Context, obj T, opts meta.UpdateOptions) (T, error)
	Patch(ctx context.Context, name string, pt meta.PatchType, data []byte, opts meta.PatchOptions, subresources ...string) (T, error)
	Delete(ctx context.Context, name string, opts meta.DeleteOptions) error
}

// NamespacedAPI hands out an [API] per namespace ("" for all namespaces
// and for cluster-scoped kinds). Make one from a typed client with
// [Namespaced].
type NamespacedAPI[T meta.Object] interface {
	Namespace(ns string) API[T]
}

// Namespaced adapts a typed client — *apiserver.Client[T] or
// *rest.TypedClient[T] — to a [NamespacedAPI]:
//
//	orders := reconcile.Namespaced[*Order](apiserver.NewClient[*Order](srv))
//	orders := reconcile.Namespaced[*Order](rest.NewTypedClient[*Order](c))
//
// Its Namespace method returns an API whose type is erased; the client's
// own Namespace returns its concrete type, which an interface cannot say.
func Namespaced[T meta.Object, C interface {
	API[T]
	Namespace(ns string) C
}](c C) NamespacedAPI[T] {
	return namespaced[T, C]{c}
}

type namespaced[T meta.Object, C interface {
	API[T]
	Namespace(ns string) C
}] struct{ c C }

func (n namespaced[T, C]) Namespace(ns string) API[T] { return n.c.Namespace(ns) }
