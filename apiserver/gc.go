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

// collectGarbage runs after the owner with the given uid has gone, as the
// Kubernetes garbage collector does with background propagation: a
// dependent whose every owner is now gone is deleted (its own finalizers,
// if any, are honoured, and its own dependents follow when it goes); a
// dependent that still has a living owner only loses the reference to the
// dead one.
//
// Simplified: the real collector is a controller that acts a moment later;
// here it acts within the call that deleted the owner, so the dependents'
// DELETED events follow the owner's directly. There is no foreground or
// orphan propagation, and blockOwnerDeletion is not enforced.
func (s *Server) collectGarbage(uid string, deps []objectRef) {
	for _, ref := range deps {
		s.mutate(ref.gr, ref.key, func(old *entry) (change, error) {
			if old == nil {
				return change{}, nil // gone meanwhile
			}
			refs := old.obj.GetObjectMeta().OwnerReferences
			if !slices.ContainsFunc(refs, func(o OwnerReference) bool { return o.UID == uid }) {
				return change{obj: old}, nil // no longer owned by it
			}
			living := s.livingOwners(old.obj.GetObjectMeta().Namespace, refs)
			if len(living) == 0 {
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
// cluster-scoped owner kinds, in the cluster scope.
func (s *Server) livingOwners(ns string, refs []OwnerReference) []OwnerReference {
	var living []OwnerReference
	for _, o := range refs {
		gv := ParseGroupVersion(o.APIVersion)
		info, ok := s.scheme.KindForGVK(GroupVersionKind{Group: gv.Group, Version: gv.Version, Kind: o.Kind})
		if !ok {
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
