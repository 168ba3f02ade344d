package apiserver

import "context"

// AppendListItemsJSON appends to out, for each item [ResourceClient.List]
// would return for opts, before, the item's JSON (as
// [ResourceClient.ListJSON] writes it) and after, and returns the list's
// resourceVersion. Unlike List it counts no request and injects no
// fault: it serves a caller that makes a request of its own with it, such
// as an HTTP front that answers a watch's initial events from one
// snapshot shared by its watchers, then watches from the snapshot's
// resourceVersion.
func (c *ResourceClient) AppendListItemsJSON(ctx context.Context, out []byte, opts ListOptions, before, after string) ([]byte, string, error) {
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
