package apiserver

import (
	"context"
	"encoding/json"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Apply sends obj as a server-side apply configuration for the object it
// names: a Patch with [meta.ApplyPatchType]. Every field obj's JSON holds is
// part of the configuration, so set only the fields this manager means to
// own: a Go field without omitempty is applied even at its zero value
// (client-go's apply configurations exist for that reason). The object is
// created if missing. An empty apiVersion and kind are filled in.
func (c *Client[T]) Apply(ctx context.Context, obj T, opts meta.ApplyOptions) (T, error) {
	var zero T
	info, err := c.srv.scheme.KindFor(obj)
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
	force := opts.Force
	return c.Namespace(namespaceOr(obj, c)).Patch(ctx, obj.GetName(), meta.ApplyPatchType, data,
		meta.PatchOptions{DryRun: opts.DryRun, FieldManager: opts.FieldManager, Force: &force})
}

// namespaceOr returns obj's namespace, or the client's if obj has none.
func namespaceOr[T meta.Object](obj T, c *Client[T]) string {
	if ns := obj.GetNamespace(); ns != "" {
		return ns
	}
	return c.ns
}
