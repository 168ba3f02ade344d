package apiserver

import (
	"github.com/kitchensync/kitchensync/apiserver/gc"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/namespaces"
	"github.com/kitchensync/kitchensync/trace"
)

// The garbage collector (package apiserver/gc) works on the server
// through [gc.Store], which gcStore implements. mutate hands it each
// commit's work; it deletes dependents within the call, so that its
// writes follow that commit's event directly, and carries out Foreground
// and Orphan policies a moment later ([gc.Delay]), as the real one does.

// garbageAfterLocked returns what the garbage collector must look at after
// committing ch to key: for an object that is gone, its dependents (whose
// owner may now be missing) and its owners (which may be waiting for it
// in the foreground); for an object that names owners, or that holds a
// propagation finalizer while being deleted, the object itself. s.mu
// must be held.
func (s *Server) garbageAfterLocked(gr meta.GroupResource, key string, ch change) []gc.Work {
	if s.opts.DisableGarbageCollection {
		return nil
	}
	m := ch.obj.obj.GetObjectMeta()
	if ch.typ == meta.EventDeleted {
		var out []gc.Work
		for _, ref := range s.dependentsLocked(m.UID) {
			out = append(out, gc.Work{Ref: gcRef(ref)})
		}
		for _, o := range m.OwnerReferences {
			if ref, e := s.ownerLocked(m.Namespace, o); e != nil && gc.WaitsForDependents(e.obj.GetObjectMeta()) {
				out = append(out, gc.Work{Ref: gcRef(ref), OwnerOnly: true})
			}
		}
		return out
	}
	if len(m.OwnerReferences) > 0 || m.DeletionTimestamp != nil && gc.HasPropagationFinalizer(m) {
		return []gc.Work{{Ref: gc.Ref{Resource: gr, Key: key}}}
	}
	return nil
}

// gcStore is the server as the garbage collector's [gc.Store].
type gcStore struct{ s *Server }

func gcRef(r objectRef) gc.Ref { return gc.Ref{Resource: r.gr, Key: r.key} }

func (g gcStore) Get(ref gc.Ref) meta.Object {
	if e := g.s.lookup(objectRef{ref.Resource, ref.Key}); e != nil {
		return e.obj
	}
	return nil
}

func (g gcStore) Dependents(uid string) []gc.Ref {
	deps := g.s.dependentsOf(uid)
	out := make([]gc.Ref, len(deps))
	for i, d := range deps {
		out[i] = gcRef(d)
	}
	return out
}

func (g gcStore) Owner(ns string, o meta.OwnerReference) (gc.Ref, meta.Object, bool) {
	ref, e := g.s.owner(ns, o)
	if e == nil {
		return gcRef(ref), nil, g.s.knowsKind(o)
	}
	return gcRef(ref), e.obj, true
}

func (g gcStore) Write(ref gc.Ref, decide func(cur meta.Object) gc.Write) {
	g.s.mutate(ref.Resource, ref.Key, func(old *entry) (change, error) {
		var cur meta.Object
		if old != nil {
			cur = old.obj
		}
		w := decide(cur)
		switch {
		case w.Delete != nil:
			ch, err := g.s.prepareDelete(old, *w.Delete)
			if w.Collected && ch.typ == meta.EventDeleted {
				ch.by = trace.GarbageCollector
			}
			return ch, err
		case w.Update != nil:
			return g.s.updated(old, w.Update)
		}
		return change{obj: old}, nil
	})
}

// modified is the change that stores next, a modified copy.
func (s *Server) modified(next meta.Object) (change, error) {
	e, err := s.newEntry(next)
	if err != nil {
		return change{}, err
	}
	return change{typ: meta.EventModified, obj: e}, nil
}

// updated is the change that stores next, a modified copy of old: an
// update, or, for an object being deleted that nothing holds any more,
// its deletion.
func (s *Server) updated(old *entry, next meta.Object) (change, error) {
	e, err := s.newEntry(next)
	if err != nil {
		return change{}, err
	}
	if next.GetObjectMeta().DeletionTimestamp != nil && namespaces.Finalized(next) {
		return deleteDuringUpdate(old, e), nil
	}
	return change{typ: meta.EventModified, obj: e}, nil
}
