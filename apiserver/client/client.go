package client

import (
	"context"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// ResourceInterface is the calls on one resource, in one namespace (or in
// all of them, or for a cluster-scoped kind), with objects of any kind in
// and out, like client-go's dynamic.ResourceInterface. The in-process
// server answers them (*apiserver.ResourceClient) and so does the HTTP
// client (*rest.ResourceClient): a program written against this interface
// runs beside the server or in another process unchanged.
//
// Its List and Watch are what an informer's ListerWatcher asks for, so a
// ResourceInterface is one.
type ResourceInterface interface {
	// Get returns the object name.
	Get(ctx context.Context, name string, opts meta.GetOptions) (meta.Object, error)
	// List returns the objects that opts select, and the resourceVersion
	// the list was read at.
	List(ctx context.Context, opts meta.ListOptions) (*meta.List, error)
	// Watch streams the changes after opts.ResourceVersion.
	Watch(ctx context.Context, opts meta.ListOptions) (meta.WatchInterface, error)
	// Create stores a new object and returns it as stored.
	Create(ctx context.Context, obj meta.Object, opts meta.CreateOptions) (meta.Object, error)
	// Update replaces the object, if obj carries its current
	// resourceVersion (409 Conflict if not); status is left as it was.
	Update(ctx context.Context, obj meta.Object, opts meta.UpdateOptions) (meta.Object, error)
	// UpdateStatus replaces the object's status only, through the status
	// subresource.
	UpdateStatus(ctx context.Context, obj meta.Object, opts meta.UpdateOptions) (meta.Object, error)
	// Patch changes the object name (or its status, with the subresource
	// "status") by a patch of type pt.
	Patch(ctx context.Context, name string, pt meta.PatchType, data []byte, opts meta.PatchOptions, subresources ...string) (meta.Object, error)
	// Delete deletes the object name, or starts its deletion if
	// finalizers hold it.
	Delete(ctx context.Context, name string, opts meta.DeleteOptions) error
}

// Interface is an API server as its clients see it: the scheme that maps
// Go types to kinds, and a [ResourceInterface] per resource and namespace.
// *apiserver.Server implements it in process and *rest.Client over HTTP;
// the typed [Client], informer factories and reconcilers take either.
type Interface interface {
	// Scheme returns the kinds the server serves.
	Scheme() *meta.Scheme
	// ResourceFor returns the calls on resource gvr in namespace ("" for
	// all namespaces, and for cluster-scoped kinds).
	ResourceFor(gvr meta.GroupVersionResource, namespace string) ResourceInterface
}
