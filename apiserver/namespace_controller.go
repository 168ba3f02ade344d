package apiserver

import (
	"cmp"
	"context"
	"slices"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/namespaces"
	"github.com/kitchensync/kitchensync/trace"
)

// The namespace controller (package apiserver/namespaces) works on the
// server through [namespaces.Store], which nsStore implements. As the
// garbage collector does with dependents, it acts inside the call that
// gave it work: the delete of the namespace, or of the last object in
// it. The DELETE of a namespace still answers the namespace as it marked
// it (Terminating); the events that follow tell the rest.

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

// prepareFinalize decides what setting the spec.finalizers of old, a
// namespace, to fins means: nothing if they are the same; the namespace
// goes if it is being deleted and nothing holds it any more; else an
// update.
func (s *Server) prepareFinalize(old *entry, fins []string) (change, error) {
	next := old.obj.DeepCopyObject()
	if len(fins) == 0 {
		fins = nil
	}
	next.(namespaces.Object).SetNamespaceFinalizers(fins)
	e, err := s.newEntry(next)
	switch {
	case err != nil:
		return change{}, err
	case string(e.content) == string(old.content):
		return change{obj: old}, nil
	case old.obj.GetObjectMeta().DeletionTimestamp != nil && namespaces.Finalized(next):
		return deleteDuringUpdate(old, e), nil
	}
	return change{typ: meta.EventModified, obj: e}, nil
}

// Finalize writes the spec.finalizers of obj, a namespace, through the
// finalize subresource, as client-go's Namespaces().Finalize does: only
// spec.finalizers change (an update keeps them as they were), with the
// resourceVersion rules of [ResourceClient.Update]. The namespace
// controller removes [namespaces.FinalizerKubernetes] this way; removing the last
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
	in, ok := obj.(namespaces.Object)
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

// nsStore is the server as the namespace controller's [namespaces.Store].
type nsStore struct{ s *Server }

func (n nsStore) Get(ref namespaces.Ref) meta.Object {
	if e := n.s.lookup(objectRef{ref.Resource, ref.Key}); e != nil {
		return e.obj
	}
	return nil
}

func (n nsStore) Contents(ns string) []namespaces.Ref {
	refs := n.s.contentsOf(ns)
	out := make([]namespaces.Ref, len(refs))
	for i, r := range refs {
		out[i] = namespaces.Ref{Resource: r.gr, Key: r.key}
	}
	return out
}

func (n nsStore) Write(ref namespaces.Ref, decide func(cur meta.Object) namespaces.Write) {
	n.s.mutate(ref.Resource, ref.Key, func(old *entry) (change, error) {
		var cur meta.Object
		if old != nil {
			cur = old.obj
		}
		w := decide(cur)
		var ch change
		var err error
		switch {
		case w.Delete != nil:
			ch, err = n.s.prepareDelete(old, *w.Delete)
		case w.Update != nil:
			ch, err = n.s.modified(w.Update)
		case w.Finalize != nil:
			ch, err = n.s.prepareFinalize(old, w.Finalize)
			if ch.typ != meta.EventDeleted {
				return ch, err // the namespace going is the controller's; the rest is the finalize subresource's
			}
		default:
			return change{obj: old}, nil
		}
		if ch.typ != "" {
			ch.by = trace.NamespaceController
		}
		return ch, err
	})
}
