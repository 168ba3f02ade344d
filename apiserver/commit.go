package apiserver

import (
	"cmp"

	"github.com/kitchensync/kitchensync/apiserver/gc"
	"github.com/kitchensync/kitchensync/apiserver/internal/owncopy"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/namespaces"
	"github.com/kitchensync/kitchensync/trace"
)

// Every write goes through mutate: it reads, lets its caller decide the
// change, and commits it under the lock (commitLocked: the next
// resourceVersion, the store, the history, the fan-out); then, outside
// the lock, it sets off what the commit asks for: the garbage
// collector's work (gc_store.go), the namespace controller's
// (namespace_controller.go), and the resource's hook ([Server.OnCommit]).

// mutate reads the current state of key (nil if absent), lets fn decide
// the change outside the lock, and commits it if nobody wrote key in the
// meantime; otherwise fn runs again on the newer state. It returns the
// committed (or returned) entry.
func (s *Server) mutate(gr meta.GroupResource, key string, fn func(old *entry) (change, error)) (*entry, error) {
	ch, err := s.write(gr, key, fn)
	return ch.result(), err
}

// mutateCopy is mutate for a writer: it returns the writer's own copy of
// the entry, the one the change made before the commit if any (see
// owncopy.Split), with the resourceVersion the commit gave it.
func (s *Server) mutateCopy(gr meta.GroupResource, key string, fn func(old *entry) (change, error)) (meta.Object, error) {
	ch, err := s.write(gr, key, fn)
	if err != nil {
		return nil, err
	}
	if ch.out == nil {
		return ch.result().obj.DeepCopyObject(), nil
	}
	ch.out.GetObjectMeta().ResourceVersion = ch.result().obj.GetObjectMeta().ResourceVersion
	return ch.out, nil
}

// writerCopy makes the writer's copy of e, the next state of old (nil
// for a create), before e is committed (see owncopy): e keeps old's
// labels, if equal, or for a create those of an earlier create. Not with
// the cache mutation detector on: then no two states share a map, so
// that the detector names the object that was changed.
func (s *Server) writerCopy(e, old *entry) meta.Object {
	switch {
	case s.opts.CacheMutationDetector:
		return e.obj.DeepCopyObject()
	case old == nil:
		return s.recent.Split(e.obj)
	}
	out, _ := owncopy.Split(e.obj, old.obj.GetObjectMeta().Labels)
	return out
}

// write is mutate, returning the change it committed (or fn's, with
// fn's error).
func (s *Server) write(gr meta.GroupResource, key string, fn func(old *entry) (change, error)) (change, error) {
	for {
		s.mu.Lock()
		old, seen := s.objects[gr][key], s.hist.last
		s.mu.Unlock()
		if err := checkShared(gr, key, old); err != nil {
			return change{}, err
		}
		ch, err := fn(old)
		if err != nil || ch.typ == "" {
			return ch, cmp.Or(s.awaitDurable(seen), err) // the answer tells of what it read
		}
		s.mu.Lock()
		if s.objects[gr][key] != old {
			s.mu.Unlock()
			continue
		}
		if err := s.persistLocked(key, ch); err != nil {
			s.mu.Unlock()
			return change{}, err
		}
		s.commitLocked(gr, key, ch, old)
		rv := s.hist.last
		garbage := s.garbageAfterLocked(gr, key, ch)
		terminating := s.namespaceAfterLocked(gr, ch)
		hook := s.hooks[gr]
		s.mu.Unlock()
		if err := s.awaitDurable(rv); err != nil {
			return change{}, err
		}
		s.collector.Collect(garbage)
		s.syncNamespace(terminating)
		if hook != nil {
			hook(ch.typ, ch.obj.obj)
		}
		return ch, nil
	}
}

// commitLocked makes ch.obj the state of key with the next resourceVersion,
// records the event and has it fanned out to the resource's watchers. For
// EventDeleted obj is the final state and the key is removed. s.mu must
// be held; obj must not be shared yet (its resourceVersion is set here).
func (s *Server) commitLocked(gr meta.GroupResource, key string, ch change, prev *entry) {
	typ, obj := ch.typ, ch.obj
	rv := s.hist.last + 1
	obj.rv = rv
	obj.obj.GetObjectMeta().ResourceVersion = formatRV(rv)
	s.rememberJSONLocked(obj)
	s.storeLocked(gr, key, typ, obj, prev)
	ev := &event{typ: typ, gr: gr, key: key, ns: obj.obj.GetObjectMeta().Namespace, obj: obj, prev: prev}
	s.orders.forget(gr, ev.ns, s.hist.compacted)
	if s.hist.add(ev); s.log == nil {
		s.hist.shown = rv // else once it is on the disk (Server.synced)
	}
	s.announceAdvanceLocked()
	s.traceCommitLocked(ch, key, prev)
	s.fanOutAfterCommitLocked(gr)
}

// OnCommit has fn called after every change committed to resource gr,
// inside the call that made it, as the namespace controller acts (nil
// removes gr's hook): like a registry's AfterCreate,
// AfterUpdate and AfterDelete hooks. package apiserver/apiextensions
// establishes a CustomResourceDefinition this way. fn may write to the
// server, and may be called from several goroutines at once.
func (s *Server) OnCommit(gr meta.GroupResource, fn CommitHook) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hooks == nil {
		s.hooks = make(map[meta.GroupResource]CommitHook)
	}
	s.hooks[gr] = fn
}

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
		for _, ref := range s.owners.dependents(m.UID) {
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

// ownerLocked finds the owner o names (same kind, name and uid) for a
// dependent in namespace ns, looking in the cluster scope for
// cluster-scoped owner kinds. The entry is nil when there is no such
// owner, or its kind is not served here. s.mu must be held.
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

// kindOf is the kind an owner reference names, if the server serves it.
func (s *Server) kindOf(o meta.OwnerReference) (meta.KindInfo, bool) {
	gv := meta.ParseGroupVersion(o.APIVersion)
	return s.scheme.KindForGVK(meta.GroupVersionKind{Group: gv.Group, Version: gv.Version, Kind: o.Kind})
}

func gcRef(r objectRef) gc.Ref { return gc.Ref{Resource: r.gr, Key: r.key} }

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
	nsGR := namespaces.Resource.GroupResource()
	if gr == nsGR {
		if ch.typ != meta.EventDeleted && namespaces.AwaitsController(ch.obj.obj) {
			return m.Name
		}
		return ""
	}
	if ch.typ != meta.EventDeleted || m.Namespace == "" || !awaitsController(s.objects[nsGR][m.Namespace]) {
		return ""
	}
	return m.Namespace
}

// awaitsController is [namespaces.AwaitsController] of a stored entry.
func awaitsController(e *entry) bool {
	return e != nil && namespaces.AwaitsController(e.obj)
}

// syncNamespace runs the namespace controller on namespace name ("" is
// none).
func (s *Server) syncNamespace(name string) {
	if name != "" {
		s.namespaces.Sync(name)
	}
}
