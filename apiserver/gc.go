package apiserver

import (
	"cmp"
	"slices"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/trace"
)

// objectRef locates one stored object: its resource and storage key.
type objectRef struct {
	gr  meta.GroupResource
	key string
}

// gcWork is one piece of work for the garbage collector.
type gcWork struct {
	ref objectRef
	// ownerOnly asks only whether ref, an owner being deleted in the
	// foreground, may go now that one of its dependents has gone.
	ownerOnly bool
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

// garbageAfterLocked returns what the garbage collector must look at after
// committing ch to key: for an object that is gone, its dependents (whose
// owner may now be missing) and its owners (which may be waiting for it
// in the foreground); for an object that names owners, or that holds a
// propagation finalizer while being deleted, the object itself. s.mu
// must be held.
func (s *Server) garbageAfterLocked(gr meta.GroupResource, key string, ch change) []gcWork {
	if s.opts.DisableGarbageCollection {
		return nil
	}
	m := ch.obj.obj.GetObjectMeta()
	if ch.typ == meta.EventDeleted {
		var out []gcWork
		for _, ref := range s.dependentsLocked(m.UID) {
			out = append(out, gcWork{ref: ref})
		}
		for _, o := range m.OwnerReferences {
			if ref, e := s.ownerLocked(m.Namespace, o); e != nil && waitsForDependents(e.obj.GetObjectMeta()) {
				out = append(out, gcWork{ref: ref, ownerOnly: true})
			}
		}
		return out
	}
	if len(m.OwnerReferences) > 0 || m.DeletionTimestamp != nil && hasPropagationFinalizer(m) {
		return []gcWork{{ref: objectRef{gr, key}}}
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

// dependentsOf returns, sorted, the objects that name uid as an owner.
func (s *Server) dependentsOf(uid string) []objectRef {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dependentsLocked(uid)
}

// collectGarbage does the garbage collector's work on each of work, as
// the Kubernetes garbage collector would. It runs after every commit that
// may have made garbage (see garbageAfterLocked), so that the
// collector's writes follow that commit's event directly:
//
//   - A dependent whose owners are all gone, or waiting in the foreground
//     for their dependents, is deleted (its own finalizers, if any, are
//     honoured, and its own dependents follow when it goes). One that
//     still has a living owner only loses its references to the others.
//   - An owner being deleted in the foreground (finalizer
//     [meta.FinalizerDeleteDependents]) has its dependents deleted, and loses
//     the finalizer once no dependent with blockOwnerDeletion is left.
//   - An owner being deleted with [meta.FinalizerOrphanDependents] has its
//     references removed from every dependent, and then loses the
//     finalizer.
//
// An object goes when it loses its last finalizer. Simplified: the real
// collector is a controller that acts a moment later; here it acts within
// the call that made the garbage. It does not break cycles of blocking
// references (the real one makes such references non-blocking), so two
// objects that own each other and are both deleted in the foreground stay.
func (s *Server) collectGarbage(work []gcWork) {
	for _, g := range work {
		e := s.lookup(g.ref)
		switch {
		case e == nil:
		case g.ownerOnly:
			s.releaseForegroundOwner(g.ref)
		case e.obj.GetObjectMeta().DeletionTimestamp != nil:
			s.processDeletion(g.ref, e.obj.GetObjectMeta())
		default:
			s.mutate(g.ref.gr, g.ref.key, s.collected)
		}
	}
}

// processDeletion carries out the propagation finalizers of m, an owner
// being deleted and stored at ref.
func (s *Server) processDeletion(ref objectRef, m *meta.ObjectMeta) {
	switch {
	case slices.Contains(m.Finalizers, meta.FinalizerOrphanDependents):
		for _, dep := range s.dependentsOf(m.UID) {
			s.mutate(dep.gr, dep.key, func(old *entry) (change, error) {
				return s.withoutOwner(old, m.UID)
			})
		}
		s.removeFinalizer(ref, m.UID, meta.FinalizerOrphanDependents)
	case slices.Contains(m.Finalizers, meta.FinalizerDeleteDependents):
		for _, dep := range s.dependentsOf(m.UID) {
			if e := s.lookup(dep); e != nil && e.obj.GetObjectMeta().DeletionTimestamp == nil {
				s.mutate(dep.gr, dep.key, s.attemptToDelete)
			}
		}
		s.releaseForegroundOwner(ref)
	}
}

// attemptToDelete decides what becomes of old, a dependent, given the
// state of its owners.
func (s *Server) attemptToDelete(old *entry) (change, error) {
	if old == nil || old.obj.GetObjectMeta().DeletionTimestamp != nil {
		return change{obj: old}, nil // gone, or going
	}
	m := old.obj.GetObjectMeta()
	var solid, gone []meta.OwnerReference
	waiting := false
	for _, o := range m.OwnerReferences {
		_, e := s.owner(m.Namespace, o)
		switch {
		case e == nil && s.knowsKind(o):
			gone = append(gone, o) // dangling
		case e != nil && waitsForDependents(e.obj.GetObjectMeta()):
			gone, waiting = append(gone, o), true
		default:
			solid = append(solid, o)
		}
	}
	switch {
	case len(gone) == 0:
		return change{obj: old}, nil // nothing dead: not garbage
	case len(solid) > 0:
		next := old.obj.DeepCopyObject()
		next.GetObjectMeta().OwnerReferences = solid
		return s.modified(next)
	case waiting && len(s.dependentsOf(m.UID)) > 0:
		// An owner waits for it in the foreground: its own dependents
		// must go first, so it is deleted in the foreground too.
		fg := meta.DeletePropagationForeground
		return s.prepareDelete(old, meta.DeleteOptions{PropagationPolicy: &fg})
	}
	return s.prepareDelete(old, meta.DeleteOptions{})
}

// collected is attemptToDelete, with a delete it makes signed by the
// collector for the trace: no client asked for it.
func (s *Server) collected(old *entry) (change, error) {
	ch, err := s.attemptToDelete(old)
	if ch.typ == meta.EventDeleted {
		ch.by = trace.GarbageCollector
	}
	return ch, err
}

// withoutOwner drops the references to owner uid from old, a dependent of
// an owner deleted with orphan propagation.
func (s *Server) withoutOwner(old *entry, uid string) (change, error) {
	if old == nil {
		return change{}, nil
	}
	next := old.obj.DeepCopyObject()
	nm := next.GetObjectMeta()
	nm.OwnerReferences = slices.DeleteFunc(nm.OwnerReferences, func(o meta.OwnerReference) bool { return o.UID == uid })
	if len(nm.OwnerReferences) == len(old.obj.GetObjectMeta().OwnerReferences) {
		return change{obj: old}, nil
	}
	if len(nm.OwnerReferences) == 0 {
		nm.OwnerReferences = nil
	}
	return s.modified(next)
}

// releaseForegroundOwner removes the foreground finalizer from the owner
// at ref once no dependent that blocks its deletion is left.
func (s *Server) releaseForegroundOwner(ref objectRef) {
	e := s.lookup(ref)
	if e == nil || !waitsForDependents(e.obj.GetObjectMeta()) || s.hasBlockingDependents(e.obj.GetObjectMeta().UID) {
		return
	}
	s.removeFinalizer(ref, e.obj.GetObjectMeta().UID, meta.FinalizerDeleteDependents)
}

// removeFinalizer removes finalizer f from the object at ref if it is
// still the object with the given uid; without finalizers left, the
// object, being deleted, goes.
func (s *Server) removeFinalizer(ref objectRef, uid, f string) {
	s.mutate(ref.gr, ref.key, func(old *entry) (change, error) {
		if old == nil || old.obj.GetObjectMeta().UID != uid || !slices.Contains(old.obj.GetObjectMeta().Finalizers, f) {
			return change{obj: old}, nil
		}
		next := old.obj.DeepCopyObject()
		nm := next.GetObjectMeta()
		nm.Finalizers = slices.DeleteFunc(nm.Finalizers, func(x string) bool { return x == f })
		if len(nm.Finalizers) == 0 {
			nm.Finalizers = nil
		}
		if !finalized(next) {
			return s.modified(next)
		}
		e, err := s.newEntry(next)
		if err != nil {
			return change{}, err
		}
		return deleteDuringUpdate(old, e), nil
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

// hasBlockingDependents reports whether a dependent of owner uid has a
// reference to it with blockOwnerDeletion set.
func (s *Server) hasBlockingDependents(uid string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ref := range s.dependents[uid] {
		e := s.objects[ref.gr][ref.key]
		if e == nil {
			continue
		}
		for _, o := range e.obj.GetObjectMeta().OwnerReferences {
			if o.UID == uid && o.BlockOwnerDeletion != nil && *o.BlockOwnerDeletion {
				return true
			}
		}
	}
	return false
}

// waitsForDependents reports whether m is being deleted in the
// foreground, waiting for its dependents.
func waitsForDependents(m *meta.ObjectMeta) bool {
	return m.DeletionTimestamp != nil && slices.Contains(m.Finalizers, meta.FinalizerDeleteDependents)
}

// hasPropagationFinalizer reports whether m holds one of the garbage
// collector's finalizers.
func hasPropagationFinalizer(m *meta.ObjectMeta) bool {
	return slices.Contains(m.Finalizers, meta.FinalizerDeleteDependents) || slices.Contains(m.Finalizers, meta.FinalizerOrphanDependents)
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
