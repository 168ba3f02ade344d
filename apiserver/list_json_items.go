package apiserver

import (
	"context"
	"io"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// AppendListItemsJSON appends to out, for each item [ResourceClient.List]
// would return for opts, before, the item's JSON (as
// [ResourceClient.ListJSON] writes it) and after, and returns the list's
// resourceVersion. Unlike List it counts no request and injects no
// fault: it serves a caller that makes a request of its own with it, such
// as an HTTP front that answers a watch's initial events from one
// snapshot shared by its watchers, then watches from the snapshot's
// resourceVersion.
func (c *ResourceClient) AppendListItemsJSON(ctx context.Context, out []byte, opts meta.ListOptions, before, after string) ([]byte, string, error) {
	info, ok := c.srv.scheme.KindForResource(c.gvr)
	if !ok {
		return out, "", errUnknownResource(c.gvr.GroupResource())
	}
	if !info.Namespaced && c.ns != "" {
		return out, "", errClusterScoped(info, c.ns)
	}
	list, selected, err := c.listEntries(ctx, info, opts)
	if err != nil {
		return out, "", err
	}
	for _, e := range selected {
		out = append(out, before...)
		if out, err = appendEntryJSON(out, e); err != nil {
			return out, "", err
		}
		out = append(out, after...)
	}
	return out, list.ResourceVersion, nil
}

// WriteListJSON writes what [ResourceClient.ListJSON] returns to the
// writer that start returns, in pieces of about 64 KiB, so that a large
// list is never whole in memory and its reader can start on it at once.
// It calls start once the list is read, and so not at all on an error of
// the list; an error after start is the writer's.
func (c *ResourceClient) WriteListJSON(ctx context.Context, opts meta.ListOptions, start func() io.Writer) error {
	head, selected, err := c.listJSON(ctx, opts)
	if err != nil {
		return err
	}
	w := start()
	write := func(b []byte) error {
		_, err := w.Write(b)
		return err
	}
	out, err := appendListJSON(make([]byte, 0, listJSONPiece+4<<10), head, selected, write)
	if err != nil {
		return err
	}
	return write(out)
}
