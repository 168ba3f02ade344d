package apiextensions

import (
	"context"
	"slices"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// finalize deletes a definition's objects once its deletion has begun:
// no new objects are taken (403 Forbidden), every object is deleted
// (those with finalizers wait for them), and when none is left the kind
// is no longer served and the cleanup finalizer goes, which deletes the
// definition. Objects that finalizers hold bring the controller back
// when they go.
func (c *Controller) finalize(ctx context.Context, crd *CustomResourceDefinition) {
	st := c.stateOf(crd)
	st.terminating.Store(true)
	if !slices.Contains(crd.Finalizers, FinalizerCleanup) {
		return
	}
	c.writeStatus(ctx, crd.Name, func(s *CustomResourceDefinition, now meta.Time) {
		setCondition(s, Terminating, ConditionTrue, "InstanceDeletionInProgress", "CustomResource deletion is in progress", now.Time)
	})
	if c.deleteObjects(ctx, crd) > 0 {
		return
	}
	c.stopServing(crd.Name)
	c.writeFinalizers(ctx, crd.Name)
}

// deleteObjects deletes every object of the definition's kind and
// returns how many are left (held by finalizers).
func (c *Controller) deleteObjects(ctx context.Context, crd *CustomResourceDefinition) int {
	gvr := meta.GroupVersionResource{Group: crd.Spec.Group, Version: crd.StorageVersion(), Resource: crd.Status.AcceptedNames.Plural}
	if _, ok := c.srv.Scheme().KindForResource(gvr); !ok {
		return 0 // never served
	}
	rc := c.srv.Resource(gvr)
	list, err := rc.List(ctx, meta.ListOptions{})
	if err != nil {
		return 1 // an injected fault: try again at the next write
	}
	left := 0
	for _, obj := range list.Items {
		m := obj.GetObjectMeta()
		_, gone, err := rc.Namespace(m.Namespace).DeleteObject(ctx, m.Name, meta.DeleteOptions{})
		if err != nil && !meta.IsNotFound(err) || err == nil && !gone {
			left++
		}
	}
	return left
}

// writeFinalizers removes the cleanup finalizer, which lets the
// definition go.
func (c *Controller) writeFinalizers(ctx context.Context, name string) {
	for range 5 {
		crd, err := c.crds.Get(ctx, name, meta.GetOptions{})
		if err != nil {
			return
		}
		crd.Finalizers = slices.DeleteFunc(crd.Finalizers, func(f string) bool { return f == FinalizerCleanup })
		if _, err = c.crds.Update(ctx, crd, meta.UpdateOptions{FieldManager: "kube-apiserver"}); !meta.IsConflict(err) {
			return
		}
	}
}
