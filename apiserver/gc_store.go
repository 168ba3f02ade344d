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

// gcStore is the server as the garbage collector's [gc.Store].
type gcStore struct{ s *Server }

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

// dependentsOf returns, sorted, the objects that name uid as an owner.
func (s *Server) dependentsOf(uid string) []objectRef {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.owners.dependents(uid)
}

// owner is ownerLocked, taking s.mu.
func (s *Server) owner(ns string, o meta.OwnerReference) (objectRef, *entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ownerLocked(ns, o)
}

// knowsKind reports whether the server serves the kind o names. Like the
// real collector, it leaves alone a reference it cannot check.
func (s *Server) knowsKind(o meta.OwnerReference) bool {
	_, ok := s.kindOf(o)
	return ok
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
