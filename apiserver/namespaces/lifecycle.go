package namespaces

import (
	"errors"
	"slices"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Resource is where the built-in Namespace kind (core v1,
// cluster-scoped) is served when a scheme registers it. Namespaces are
// then real: see [Object].
var Resource = meta.GroupVersionResource{Version: "v1", Resource: "namespaces"}

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

// Object is what the server needs of the kind registered at
// [Resource] (builtin.Namespace) to run a namespace's lifecycle
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
// A kind registered there that is not a Object gets only the
// 404 for a missing namespace. (The server knows a namespace by this
// interface: no other kind should implement it.)
type Object interface {
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

// PrepareForCreate is the namespace strategy's PrepareForCreate:
// phase Active, the controller's finalizer and the name label. (Like the
// real strategy, it leaves metadata.generation as the client sent it.)
func PrepareForCreate(obj meta.Object) {
	ns, ok := obj.(Object)
	if !ok {
		return
	}
	ns.SetNamespacePhase(NamespaceActive)
	if fins := ns.NamespaceFinalizers(); !slices.Contains(fins, FinalizerKubernetes) {
		ns.SetNamespaceFinalizers(append(slices.Clone(fins), FinalizerKubernetes))
	}
	labelNamespace(obj.GetObjectMeta())
}

// PrepareForUpdate is the namespace strategy's PrepareForUpdate:
// spec.finalizers stay as stored (status already does), the name label
// stays.
func PrepareForUpdate(old, next meta.Object) {
	ns, ok := next.(Object)
	if !ok {
		return
	}
	ns.SetNamespaceFinalizers(old.(Object).NamespaceFinalizers())
	labelNamespace(next.GetObjectMeta())
}

// IsNamespace reports whether obj is a namespace, whose status update
// takes metadata from the request like a main update (see prepareUpdate).
func IsNamespace(obj meta.Object) bool {
	_, ok := obj.(Object)
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

// Finalized reports whether nothing holds obj any longer: no finalizers,
// and for a namespace no spec.finalizers either. An object being deleted
// goes once it is finalized.
func Finalized(obj meta.Object) bool {
	if len(obj.GetObjectMeta().Finalizers) > 0 {
		return false
	}
	ns, ok := obj.(Object)
	return !ok || len(ns.NamespaceFinalizers()) == 0
}

// Held reports whether obj is a namespace whose delete
// the server's delete of a namespace decides: one not yet being deleted, or
// held by spec.finalizers.
func Held(obj meta.Object) bool {
	ns, ok := obj.(Object)
	return ok && (obj.GetObjectMeta().DeletionTimestamp == nil || len(ns.NamespaceFinalizers()) > 0)
}

// CheckDelete is the NamespaceLifecycle admission of a delete:
// the namespaces a cluster needs may not be deleted (403 Forbidden).
func CheckDelete(info meta.KindInfo, name string) error {
	if info.GroupVersionResource() != Resource || !slices.Contains(immortalNamespaces, name) {
		return nil
	}
	return meta.NewForbidden(info.GroupResource(), name, errors.New("this namespace may not be deleted"))
}
