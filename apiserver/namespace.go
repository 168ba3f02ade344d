package apiserver

import (
	"fmt"

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
