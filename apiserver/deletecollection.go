package apiserver

import (
	"context"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// DeleteCollection deletes every object that listOpts select, as
// kube-apiserver's deletecollection verb (DELETE on a collection) does:
// it lists them, with listOpts' selectors and paging, in the client's
// namespace (in every namespace when it has none), then deletes each one
// with opts, as [ResourceClient.DeleteObject] would: an object with
// finalizers is only marked, and one that another writer deleted in the
// meantime is skipped. It returns the list as it was read, before the
// deletes, as the real server answers.
//
// The deletes are separate writes, each with its own resourceVersion and
// event; they are not one transaction. On the first error other than 404
// NotFound, DeleteCollection stops and returns it: the objects before it
// are deleted, the rest are not.
//
// Errors: those of List, and of DeleteObject (422 Invalid for bad options,
// checked before anything changes; 409 Conflict for a precondition that
// does not hold).
func (c *ResourceClient) DeleteCollection(ctx context.Context, opts meta.DeleteOptions, listOpts meta.ListOptions) (*meta.List, error) {
	info, err := c.begin(ctx, VerbDeleteCollection)
	if err != nil {
		return nil, err
	}
	if err := ValidateDeleteOptions(opts); err != nil {
		return nil, err
	}
	list, err := c.list(ctx, info, listOpts)
	if err != nil {
		return nil, err
	}
	for _, obj := range list.Items {
		m := obj.GetObjectMeta()
		_, _, err := c.Namespace(m.Namespace).deleteObject(info, m.Name, opts)
		if err != nil && !meta.IsNotFound(err) {
			return nil, err
		}
	}
	return list, nil
}
