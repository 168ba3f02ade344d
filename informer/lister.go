package informer

import (
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/store"
)

// Lister reads one kind from an informer's cache, typed: what a
// controller uses instead of asking the server (client-go's generated
// listers, e.g. PodLister). Objects are shared with the cache and every
// other reader: never mutate them. Safe for concurrent use.
type Lister[T meta.Object] struct {
	indexer  *store.Indexer[T]
	resource meta.GroupResource
}

// NewLister returns a Lister over indexer; resource names the kind in
// NotFound errors.
func NewLister[T meta.Object](indexer *store.Indexer[T], resource meta.GroupResource) *Lister[T] {
	return &Lister[T]{indexer: indexer, resource: resource}
}

// List returns the cached objects whose labels match sel (all of them for
// a nil selector), sorted by key.
func (l *Lister[T]) List(sel *meta.LabelSelector) ([]T, error) {
	return filter(l.indexer.List(), sel), nil
}

// Get returns the cluster-scoped object called name, or the apiserver's
// NotFound error. For a namespaced kind use Namespace(ns).Get(name).
func (l *Lister[T]) Get(name string) (T, error) {
	return l.get(name, name)
}

func (l *Lister[T]) get(key, name string) (T, error) {
	obj, ok, err := l.indexer.GetByKey(key)
	if err != nil {
		var zero T
		return zero, err
	}
	if !ok {
		var zero T
		return zero, meta.NewNotFound(l.resource, name)
	}
	return obj, nil
}

// Namespace returns a Lister for one namespace.
func (l *Lister[T]) Namespace(namespace string) NamespaceLister[T] {
	return NamespaceLister[T]{lister: l, namespace: namespace}
}

// NamespaceLister reads the objects of one namespace from the cache.
type NamespaceLister[T meta.Object] struct {
	lister    *Lister[T]
	namespace string
}

// List returns the namespace's objects whose labels match sel (all of
// them for a nil selector), sorted by key. It uses the namespace index.
func (l NamespaceLister[T]) List(sel *meta.LabelSelector) ([]T, error) {
	objs, err := l.lister.indexer.ByIndex(store.NamespaceIndex, l.namespace)
	if err != nil {
		return nil, err
	}
	return filter(objs, sel), nil
}

// Get returns the object called name in the namespace, or the apiserver's
// NotFound error.
func (l NamespaceLister[T]) Get(name string) (T, error) {
	return l.lister.get(l.namespace+"/"+name, name)
}

func filter[T meta.Object](objs []T, sel *meta.LabelSelector) []T {
	if sel.Empty() {
		return objs
	}
	out := objs[:0:0]
	for _, o := range objs {
		if sel.Matches(o.GetObjectMeta().Labels) {
			out = append(out, o)
		}
	}
	return out
}
