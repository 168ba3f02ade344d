package apiserver

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// NamespacesResource is where the built-in Namespace kind (core v1,
// cluster-scoped) is served when a scheme registers it. Namespaces are
// then real: see [NamespaceObject].
var NamespacesResource = meta.GroupVersionResource{Version: "v1", Resource: "namespaces"}

// Namespace phases and the finalizer of the namespace controller, with
// Kubernetes' names (core/v1 NamespaceActive, NamespaceTerminating,
// FinalizerKubernetes).
const (
	NamespaceActive      = "Active"
	NamespaceTerminating = "Terminating"
	FinalizerKubernetes  = "kubernetes"
	// LabelMetadataName is the label the server puts on every namespace,
	// its name as value, so that label selectors can pick namespaces by
	// name.
	LabelMetadataName = "kubernetes.io/metadata.name"
	// CauseTypeNamespaceTerminating is the cause of the 403 for a create
	// in a namespace being deleted.
	CauseTypeNamespaceTerminating meta.CauseType = "NamespaceTerminating"
)

// immortalNamespaces may not be deleted, as on a cluster.
var immortalNamespaces = []string{"default", "kube-public", "kube-system"}

// NamespaceObject is what the server needs of the kind registered at
// [NamespacesResource] (builtin.Namespace) to run a namespace's lifecycle
// as kube-apiserver and kube-controller-manager do:
//
//   - Create sets status.phase to [NamespaceActive], adds
//     [FinalizerKubernetes] to spec.finalizers and the label
//     [LabelMetadataName]. An update keeps spec.finalizers (only
//     [ResourceClient.Finalize] changes them) and status; a status update
//     keeps spec but, unlike other kinds', takes metadata from the
//     request. builtin.NamespaceKind lets both leave out resourceVersion
//     ([meta.KindInfo.AllowUnconditionalUpdate]).
//   - Delete marks the namespace: deletionTimestamp, and status.phase
//     [NamespaceTerminating]. It goes once spec.finalizers and
//     metadata.finalizers are both empty.
//   - A create in a namespace that does not exist is 404 NotFound; in a
//     terminating one, 403 Forbidden (cause [CauseTypeNamespaceTerminating]),
//     as kube-apiserver's NamespaceLifecycle admission answers.
//     "default", "kube-public" and "kube-system" may not be deleted (403).
//   - The server's namespace controller (see
//     [Options.DisableNamespaceController]) deletes everything in a
//     terminating namespace, writes status.conditions
//     ([NamespaceContentRemaining] and the others) after each pass, then
//     removes [FinalizerKubernetes], after which the namespace goes.
//
// A kind registered there that is not a NamespaceObject gets only the
// 404 for a missing namespace. (The server knows a namespace by this
// interface: no other kind should implement it.)
type NamespaceObject interface {
	meta.Object
	// NamespacePhase returns status.phase.
	NamespacePhase() string
	// SetNamespacePhase sets status.phase.
	SetNamespacePhase(phase string)
	// NamespaceFinalizers returns spec.finalizers.
	NamespaceFinalizers() []string
	// SetNamespaceFinalizers sets spec.finalizers.
	SetNamespaceFinalizers(finalizers []string)
	// NamespaceConditions returns status.conditions.
	NamespaceConditions() []meta.Condition
	// SetNamespaceConditions sets status.conditions.
	SetNamespaceConditions(conditions []meta.Condition)
}

// checkNamespace is kube-apiserver's NamespaceLifecycle admission of a
// create, for a server whose scheme registers a kind at
// [NamespacesResource]: an object of a namespaced kind can only be
// created in a namespace that exists (else 404 NotFound naming the
// namespace) and is not terminating (else 403 Forbidden naming the
// object: name, or generateName when the name is still to be made).
// Without that kind, namespaces are only names, and any is fine: simple
// tests and lessons need none.
func (s *Server) checkNamespace(info meta.KindInfo, m *meta.ObjectMeta) error {
	if !info.Namespaced {
		return nil
	}
	if _, ok := s.scheme.KindForResource(NamespacesResource); !ok {
		return nil
	}
	gr := NamespacesResource.GroupResource()
	s.mu.Lock()
	e := s.objects[gr][m.Namespace]
	s.mu.Unlock()
	if e == nil {
		return meta.NewNotFound(gr, m.Namespace)
	}
	if ns, ok := e.obj.(NamespaceObject); !ok || ns.NamespacePhase() != NamespaceTerminating {
		return nil
	}
	name := m.Name
	if name == "" {
		name = m.GenerateName
	}
	err := meta.NewForbidden(info.GroupResource(), name, fmt.Errorf(
		"unable to create new content in namespace %s because it is being terminated", m.Namespace))
	err.ErrStatus.Details.Causes = []meta.StatusCause{{Type: CauseTypeNamespaceTerminating,
		Message: fmt.Sprintf("namespace %s is being terminated", m.Namespace), Field: "metadata.namespace"}}
	return err
}

// prepareNamespaceCreate is the namespace strategy's PrepareForCreate:
// phase Active, the controller's finalizer and the name label. (Like the
// real strategy, it leaves metadata.generation as the client sent it.)
func prepareNamespaceCreate(obj meta.Object) {
	ns, ok := obj.(NamespaceObject)
	if !ok {
		return
	}
	ns.SetNamespacePhase(NamespaceActive)
	if fins := ns.NamespaceFinalizers(); !slices.Contains(fins, FinalizerKubernetes) {
		ns.SetNamespaceFinalizers(append(slices.Clone(fins), FinalizerKubernetes))
	}
	labelNamespace(obj.GetObjectMeta())
}

// prepareNamespaceUpdate is the namespace strategy's PrepareForUpdate:
// spec.finalizers stay as stored (status already does), the name label
// stays.
func prepareNamespaceUpdate(old, next meta.Object) {
	ns, ok := next.(NamespaceObject)
	if !ok {
		return
	}
	ns.SetNamespaceFinalizers(old.(NamespaceObject).NamespaceFinalizers())
	labelNamespace(next.GetObjectMeta())
}

// isNamespace reports whether obj is a namespace, whose status update
// takes metadata from the request like a main update (see prepareUpdate).
func isNamespace(obj meta.Object) bool {
	_, ok := obj.(NamespaceObject)
	return ok
}

// labelNamespace sets the label [LabelMetadataName] to the name.
func labelNamespace(m *meta.ObjectMeta) {
	if m.Labels[LabelMetadataName] == m.Name {
		return
	}
	labels := make(map[string]string, len(m.Labels)+1)
	for k, v := range m.Labels {
		labels[k] = v
	}
	labels[LabelMetadataName] = m.Name
	m.Labels = labels
}

// finalized reports whether nothing holds obj any longer: no finalizers,
// and for a namespace no spec.finalizers either. An object being deleted
// goes once it is finalized.
func finalized(obj meta.Object) bool {
	if len(obj.GetObjectMeta().Finalizers) > 0 {
		return false
	}
	ns, ok := obj.(NamespaceObject)
	return !ok || len(ns.NamespaceFinalizers()) == 0
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
	next.(NamespaceObject).SetNamespacePhase(NamespaceTerminating)
	if !s.opts.DisableGarbageCollection {
		nm.Finalizers = propagationFinalizers(nm.Finalizers, opts)
	}
	return s.modified(next)
}

// heldNamespace reports whether obj is a namespace whose delete
// [Server.prepareNamespaceDelete] decides: one not yet being deleted, or
// held by spec.finalizers.
func heldNamespace(obj meta.Object) bool {
	ns, ok := obj.(NamespaceObject)
	return ok && (obj.GetObjectMeta().DeletionTimestamp == nil || len(ns.NamespaceFinalizers()) > 0)
}

// checkDeleteNamespace is the NamespaceLifecycle admission of a delete:
// the namespaces a cluster needs may not be deleted (403 Forbidden).
func checkDeleteNamespace(info meta.KindInfo, name string) error {
	if info.GroupVersionResource() != NamespacesResource || !slices.Contains(immortalNamespaces, name) {
		return nil
	}
	return meta.NewForbidden(info.GroupResource(), name, errors.New("this namespace may not be deleted"))
}
