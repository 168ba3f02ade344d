package apiserver

import (
	"cmp"
	"context"
	"slices"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/trace"
)

// The namespace controller, like kube-controller-manager's
// (pkg/controller/namespace): when a namespace is being deleted and still
// holds [FinalizerKubernetes], it deletes every object in it (background
// propagation, as the real one asks), waits for those held by finalizers,
// and once nothing is left removes its finalizer, after which the
// namespace goes. Like the garbage collector, it acts inside the call
// that gave it work: the delete of the namespace, or the delete of the
// last object in it. The DELETE of a namespace still answers the
// namespace as it marked it (Terminating); the events that follow tell
// the rest.
//
// After each pass it writes the namespace's status.conditions, as the
// real controller does (see namespaceConditions): all five False once
// the content is gone (just before the namespace goes, so the DELETED
// event carries them); NamespaceContentRemaining and
// NamespaceFinalizersRemaining True, naming what remains and the
// finalizers holding it, while objects wait for their finalizers.
//
// Simplified: it deletes object by object, resources in the order of
// their names (group, then resource) and objects in the order of their
// names, where the real controller sends one deletecollection per
// resource in discovery's order.

// namespaceAfterLocked returns the name of the namespace the namespace
// controller must look at after committing ch to resource gr, or "": a
// namespace marked for deletion that holds the controller's finalizer,
// or the namespace of an object deleted while its namespace is being
// deleted. The controller's own deletes give it no new work. s.mu must
// be held.
func (s *Server) namespaceAfterLocked(gr meta.GroupResource, ch change) string {
	if s.opts.DisableNamespaceController || ch.by == trace.NamespaceController {
		return ""
	}
	m := ch.obj.obj.GetObjectMeta()
	nsGR := NamespacesResource.GroupResource()
	if gr == nsGR {
		if ch.typ != meta.EventDeleted && awaitsController(ch.obj) {
			return m.Name
		}
		return ""
	}
	if ch.typ != meta.EventDeleted || m.Namespace == "" || !awaitsController(s.objects[nsGR][m.Namespace]) {
		return ""
	}
	return m.Namespace
}

// awaitsController reports whether e is a namespace being deleted that
// still holds [FinalizerKubernetes].
func awaitsController(e *entry) bool {
	if e == nil || e.obj.GetObjectMeta().DeletionTimestamp == nil {
		return false
	}
	ns, ok := e.obj.(NamespaceObject)
	return ok && slices.Contains(ns.NamespaceFinalizers(), FinalizerKubernetes)
}

// syncNamespace is the namespace controller's work on namespace name
// ("" is none): delete what is in it, and remove the finalizer once it is
// empty.
func (s *Server) syncNamespace(name string) {
	if name == "" {
		return
	}
	ref := objectRef{NamespacesResource.GroupResource(), name}
	e := s.lookup(ref)
	if !awaitsController(e) {
		return
	}
	for _, obj := range s.contentsOf(name) {
		s.mutate(obj.gr, obj.key, s.deleteContent)
	}
	uid := e.obj.GetObjectMeta().UID
	remaining := s.contentsOf(name)
	s.writeNamespaceConditions(ref, uid, remaining)
	if len(remaining) > 0 {
		return // held by finalizers: the delete of the last one brings it back here
	}
	s.mutate(ref.gr, ref.key, func(old *entry) (change, error) {
		if old == nil || old.obj.GetObjectMeta().UID != uid {
			return change{obj: old}, nil
		}
		fins := slices.DeleteFunc(slices.Clone(old.obj.(NamespaceObject).NamespaceFinalizers()),
			func(f string) bool { return f == FinalizerKubernetes })
		ch, err := s.prepareFinalize(old, fins)
		if ch.typ == meta.EventDeleted {
			ch.by = trace.NamespaceController
		}
		return ch, err
	})
}

// contentsOf returns, sorted by resource and key, every object stored in
// namespace ns.
func (s *Server) contentsOf(ns string) []objectRef {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []objectRef
	for gr, objs := range s.objects {
		for key, e := range objs {
			if e.obj.GetObjectMeta().Namespace == ns {
				out = append(out, objectRef{gr, key})
			}
		}
	}
	slices.SortFunc(out, func(a, b objectRef) int {
		return cmp.Or(cmp.Compare(a.gr.String(), b.gr.String()), cmp.Compare(a.key, b.key))
	})
	return out
}

// deleteContent is the namespace controller's delete of old, an object
// in a namespace being deleted: with background propagation, unless it
// is being deleted already.
func (s *Server) deleteContent(old *entry) (change, error) {
	if old == nil || old.obj.GetObjectMeta().DeletionTimestamp != nil {
		return change{obj: old}, nil
	}
	bg := meta.DeletePropagationBackground
	ch, err := s.prepareDelete(old, meta.DeleteOptions{PropagationPolicy: &bg})
	ch.by = trace.NamespaceController
	return ch, err
}

// prepareFinalize decides what setting the spec.finalizers of old, a
// namespace, to fins means: nothing if they are the same; the namespace
// goes if it is being deleted and nothing holds it any more; else an
// update.
func (s *Server) prepareFinalize(old *entry, fins []string) (change, error) {
	next := old.obj.DeepCopyObject()
	if len(fins) == 0 {
		fins = nil
	}
	next.(NamespaceObject).SetNamespaceFinalizers(fins)
	e, err := s.newEntry(next)
	switch {
	case err != nil:
		return change{}, err
	case string(e.content) == string(old.content):
		return change{obj: old}, nil
	case old.obj.GetObjectMeta().DeletionTimestamp != nil && finalized(next):
		return deleteDuringUpdate(old, e), nil
	}
	return change{typ: meta.EventModified, obj: e}, nil
}

// Finalize writes the spec.finalizers of obj, a namespace, through the
// finalize subresource, as client-go's Namespaces().Finalize does: only
// spec.finalizers change (an update keeps them as they were), with the
// resourceVersion rules of [ResourceClient.Update]. The namespace
// controller removes [FinalizerKubernetes] this way; removing the last
// finalizer of a namespace being deleted, with no metadata.finalizers
// left, deletes it (the answer is the namespace as asked for, as for
// Update). On a cluster whose namespace controller is stuck, this is how
// an administrator forces a namespace out, leaving its contents behind.
//
// Simplified: the real subresource also takes metadata changes.
//
// Errors: 404 NotFound for another resource than namespaces (or a
// missing namespace); those of Update.
func (c *ResourceClient) Finalize(ctx context.Context, obj meta.Object, opts meta.UpdateOptions) (meta.Object, error) {
	info, err := c.begin(ctx, VerbUpdate)
	if err != nil {
		return nil, err
	}
	if err := c.checkBody(info, obj); err != nil {
		return nil, err
	}
	in, ok := obj.(NamespaceObject)
	if !ok {
		return nil, errUnknownResource(meta.GroupResource{Group: info.Group, Resource: info.Resource + "/finalize"})
	}
	nm := obj.GetObjectMeta()
	e, err := c.srv.mutate(info.GroupResource(), nm.Name, func(old *entry) (change, error) {
		if old == nil {
			return change{}, meta.NewNotFound(info.GroupResource(), nm.Name)
		}
		if err := checkUpdate(info, old.obj.GetObjectMeta(), nm); err != nil {
			return change{}, err
		}
		ch, err := c.srv.prepareFinalize(old, in.NamespaceFinalizers())
		if opts.DryRun {
			ch.typ = ""
		}
		return ch, err
	})
	if err != nil {
		return nil, err
	}
	return e.obj.DeepCopyObject(), nil
}
