package apiserver

import (
	"fmt"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/namespaces"
)

// checkNamespace is kube-apiserver's NamespaceLifecycle admission of a
// create, for a server whose scheme registers a kind at
// [namespaces.Resource]: an object of a namespaced kind can only be
// created in a namespace that exists (else 404 NotFound naming the
// namespace) and is not terminating (else 403 Forbidden naming the
// object: name, or generateName when the name is still to be made).
// Without that kind, namespaces are only names, and any is fine: simple
// tests and lessons need none.
func (s *Server) checkNamespace(info meta.KindInfo, m *meta.ObjectMeta) error {
	if !info.Namespaced {
		return nil
	}
	if _, ok := s.scheme.KindForResource(namespaces.Resource); !ok {
		return nil
	}
	gr := namespaces.Resource.GroupResource()
	s.mu.Lock()
	e := s.objects[gr][m.Namespace]
	s.mu.Unlock()
	if e == nil {
		return meta.NewNotFound(gr, m.Namespace)
	}
	if ns, ok := e.obj.(namespaces.Object); !ok || ns.NamespacePhase() != namespaces.NamespaceTerminating {
		return nil
	}
	name := m.Name
	if name == "" {
		name = m.GenerateName
	}
	err := meta.NewForbidden(info.GroupResource(), name, fmt.Errorf(
		"unable to create new content in namespace %s because it is being terminated", m.Namespace))
	err.ErrStatus.Details.Causes = []meta.StatusCause{{Type: namespaces.CauseTypeNamespaceTerminating,
		Message: fmt.Sprintf("namespace %s is being terminated", m.Namespace), Field: "metadata.namespace"}}
	return err
}

// prepareNamespaceDelete is kube-apiserver's delete of a namespace that
// is not being deleted yet, or still holds spec.finalizers. The first
// delete only marks it, finalizers or not: deletionTimestamp (with no
// grace period and no generation change, unlike other kinds), phase
// Terminating, and the propagation policy's finalizer; it answers the
// namespace so marked. Later deletes change nothing while spec.finalizers
// remain. (Once they are gone, a delete is an ordinary one: the
// namespace goes, or waits for its metadata.finalizers.)
func (s *Server) prepareNamespaceDelete(old *entry, opts meta.DeleteOptions) (change, error) {
	if old.obj.GetObjectMeta().DeletionTimestamp != nil {
		return change{obj: old}, nil // terminating already
	}
	next := old.obj.DeepCopyObject()
	nm := next.GetObjectMeta()
	ts := meta.NewTime(time.Now())
	nm.DeletionTimestamp = &ts
	next.(namespaces.Object).SetNamespacePhase(namespaces.NamespaceTerminating)
	if !s.opts.DisableGarbageCollection {
		nm.Finalizers = propagationFinalizers(nm.Finalizers, opts)
	}
	return s.modified(next)
}
