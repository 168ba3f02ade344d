package apiserver

import (
	"cmp"
	"slices"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// The owner index: every owner UID named in an object's ownerReferences
// maps to that object, so that the garbage collector (package
// apiserver/gc) can find an owner's dependents without a scan.

// objectRef locates one stored object: its resource and storage key.
type objectRef struct {
	gr  meta.GroupResource
	key string
}

// indexOwnersLocked keeps s.dependents up to date for a commit that turns
// prev into obj (or deletes it, for EventDeleted): every owner UID named in
// an object's ownerReferences maps to that object. s.mu must be held.
func (s *Server) indexOwnersLocked(ref objectRef, typ meta.EventType, obj, prev *entry) {
	if prev != nil {
		for _, o := range prev.obj.GetObjectMeta().OwnerReferences {
			deps := s.dependents[o.UID]
			delete(deps, ref)
			if len(deps) == 0 {
				delete(s.dependents, o.UID)
			}
		}
	}
	if typ == meta.EventDeleted {
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

// dependentsOf returns, sorted, the objects that name uid as an owner.
func (s *Server) dependentsOf(uid string) []objectRef {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dependentsLocked(uid)
}

// lookup returns the stored entry at ref, or nil.
func (s *Server) lookup(ref objectRef) *entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.objects[ref.gr][ref.key]
}

// owner finds the owner o names (same kind, name and uid) for a dependent
// in namespace ns, looking in the cluster scope for cluster-scoped owner
// kinds. The entry is nil when there is no such owner, or its kind is not
// served here.
func (s *Server) owner(ns string, o meta.OwnerReference) (objectRef, *entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ownerLocked(ns, o)
}

// ownerLocked is owner with s.mu held.
func (s *Server) ownerLocked(ns string, o meta.OwnerReference) (objectRef, *entry) {
	info, ok := s.kindOf(o)
	if !ok {
		return objectRef{}, nil
	}
	ref := objectRef{gr: info.GroupResource(), key: o.Name}
	if info.Namespaced {
		ref.key = objectKey(ns, o.Name)
	}
	e := s.objects[ref.gr][ref.key]
	if e == nil || e.obj.GetObjectMeta().UID != o.UID {
		return ref, nil
	}
	return ref, e
}

// knowsKind reports whether the server serves the kind o names. Like the
// real collector, it leaves alone a reference it cannot check.
func (s *Server) knowsKind(o meta.OwnerReference) bool {
	_, ok := s.kindOf(o)
	return ok
}

func (s *Server) kindOf(o meta.OwnerReference) (meta.KindInfo, bool) {
	gv := meta.ParseGroupVersion(o.APIVersion)
	return s.scheme.KindForGVK(meta.GroupVersionKind{Group: gv.Group, Version: gv.Version, Kind: o.Kind})
}
