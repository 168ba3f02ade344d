package apiserver

import (
	"cmp"
	"slices"
)

// objectRef locates one stored object: its resource and storage key.
type objectRef struct {
	gr  GroupResource
	key string
}

// indexOwnersLocked keeps s.dependents up to date for a commit that turns
// prev into obj (or deletes it, for EventDeleted): every owner UID named in
// an object's ownerReferences maps to that object. s.mu must be held.
func (s *Server) indexOwnersLocked(ref objectRef, typ EventType, obj, prev *entry) {
	if prev != nil {
		for _, o := range prev.obj.GetObjectMeta().OwnerReferences {
			deps := s.dependents[o.UID]
			delete(deps, ref)
			if len(deps) == 0 {
				delete(s.dependents, o.UID)
			}
		}
	}
	if typ == EventDeleted {
		return
	}
	for _, o := range obj.obj.GetObjectMeta().OwnerReferences {
		deps := s.dependents[o.UID]
		if deps == nil {
			deps = make(map[objectRef]struct{})
			s.dependents[o.UID] = deps
		}
		deps[ref] = struct{}{}
	}
}

// garbageAfterLocked returns what the garbage collector must look at after
// committing ch to key: the dependents of an object that is gone, or the
// object itself when it names owners (one of which may not exist). s.mu
// must be held.
func (s *Server) garbageAfterLocked(gr GroupResource, key string, ch change) []objectRef {
	switch {
	case s.opts.DisableGarbageCollection:
		return nil
	case ch.typ == EventDeleted:
		return s.dependentsLocked(ch.obj.obj.GetObjectMeta().UID)
	case len(ch.obj.obj.GetObjectMeta().OwnerReferences) > 0:
		return []objectRef{{gr, key}}
	}
	return nil
}

// dependentsLocked returns, sorted, the objects that name uid as an owner.
// s.mu must be held.
func (s *Server) dependentsLocked(uid string) []objectRef {
	var out []objectRef
	for ref := range s.dependents[uid] {
		out = append(out, ref)
	}
	slices.SortFunc(out, func(a, b objectRef) int {
		if a.gr != b.gr {
			return cmp.Compare(a.gr.String(), b.gr.String())
		}
		return cmp.Compare(a.key, b.key)
	})
	return out
}

// collectGarbage checks each of deps, as the Kubernetes garbage collector
// does with background propagation: a dependent whose owners are all gone
// is deleted (its own finalizers, if any, are honoured, and its own
// dependents follow when it goes); a dependent that still has a living
// owner only loses its references to the dead ones. It runs after an
// owner has gone, and after any write of an object with ownerReferences,
// so that a child created for an owner that no longer exists (a dangling
// reference) is collected too.
//
// Simplified: the real collector is a controller that acts a moment later;
// here it acts within the call that made the garbage, so the dependents'
// events follow that call's event directly. There is no foreground or
// orphan propagation, and blockOwnerDeletion is not enforced.
func (s *Server) collectGarbage(deps []objectRef) {
	for _, ref := range deps {
		s.mutate(ref.gr, ref.key, func(old *entry) (change, error) {
			if old == nil {
				return change{}, nil // gone meanwhile
			}
			refs := old.obj.GetObjectMeta().OwnerReferences
			living := s.livingOwners(old.obj.GetObjectMeta().Namespace, refs)
			switch {
			case len(living) == len(refs):
				return change{obj: old}, nil // nothing dead: not garbage
			case len(living) == 0:
				return s.prepareDelete(old, false)
			}
			next := old.obj.DeepCopyObject()
			next.GetObjectMeta().OwnerReferences = living
			e, err := s.newEntry(next)
			if err != nil {
				return change{}, err
			}
			return change{typ: EventModified, obj: e}, nil
		})
	}
}

// livingOwners returns the references in refs whose owner still exists
// (same kind, name and uid), looking in namespace ns and, for
// cluster-scoped owner kinds, in the cluster scope. References to kinds
// the scheme does not know count as living.
func (s *Server) livingOwners(ns string, refs []OwnerReference) []OwnerReference {
	var living []OwnerReference
	for _, o := range refs {
		gv := ParseGroupVersion(o.APIVersion)
		info, ok := s.scheme.KindForGVK(GroupVersionKind{Group: gv.Group, Version: gv.Version, Kind: o.Kind})
		if !ok {
			// A kind this server does not serve cannot be checked; like
			// the real collector, leave such a dependent alone.
			living = append(living, o)
			continue
		}
		key := o.Name
		if info.Namespaced {
			key = objectKey(ns, o.Name)
		}
		s.mu.Lock()
		e := s.objects[info.GroupResource()][key]
		s.mu.Unlock()
		if e != nil && e.obj.GetObjectMeta().UID == o.UID {
			living = append(living, o)
		}
	}
	return living
}
