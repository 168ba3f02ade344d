package builtin

import (
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/namespaces"
)

// Namespace is Kubernetes' core/v1 Namespace: a cluster-scoped object
// whose name the namespaced objects carry in metadata.namespace.
//
// Registering it ([NamespaceKind]) makes namespaces real, as on a
// cluster (see [namespaces.Object] for the details):
//
//   - Creating an object in a namespace that does not exist is 404
//     NotFound (`namespaces "nosuchns" not found`), as kube-apiserver's
//     NamespaceLifecycle admission answers, so create the namespace first.
//   - A new namespace is phase "Active", with the finalizer "kubernetes"
//     in spec.finalizers and the label kubernetes.io/metadata.name.
//   - Deleting it answers the namespace, now "Terminating"; creating
//     anything in it is then 403 Forbidden. The server's namespace
//     controller deletes everything in it, says in status.conditions what
//     still holds it (objects waiting for their finalizers), and then
//     removes "kubernetes" (through the finalize subresource), and the
//     namespace goes.
//
// Without it, a namespace is only a name and any will do, which is what
// simple tests and lessons want; that is why [Register] leaves it out.
//
// Simplification: no system namespaces ("default", "kube-system") exist
// until created; once created, they may not be deleted.
type Namespace struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
	Spec            NamespaceSpec   `json:"spec"`
	Status          NamespaceStatus `json:"status"`
}

// NamespaceSpec holds the finalizers that a namespace's deletion waits
// for (on a cluster, "kubernetes": the namespace controller's).
type NamespaceSpec struct {
	Finalizers []string `json:"finalizers,omitempty"`
}

// NamespaceStatus says whether a namespace is "Active" or "Terminating",
// and, while it is being deleted, what its deletion waits for. The server
// sets it.
type NamespaceStatus struct {
	Phase string `json:"phase,omitempty"`
	// Conditions are written by the namespace controller while it deletes
	// the namespace's content (namespaces.NamespaceContentRemaining and the
	// others).
	Conditions []meta.Condition `json:"conditions,omitempty"`
}

// NewNamespace returns a Namespace named name.
func NewNamespace(name string) *Namespace {
	return &Namespace{ObjectMeta: meta.ObjectMeta{Name: name}}
}

// DeepCopyObject returns a copy of n that shares no memory with it.
func (n *Namespace) DeepCopyObject() meta.Object {
	out := *n
	out.ObjectMeta = n.ObjectMeta.DeepCopy()
	if n.Spec.Finalizers != nil {
		out.Spec.Finalizers = append([]string(nil), n.Spec.Finalizers...)
	}
	if n.Status.Conditions != nil {
		out.Status.Conditions = append([]meta.Condition(nil), n.Status.Conditions...)
	}
	return &out
}

// NamespacePhase returns status.phase, for the server
// ([namespaces.Object]).
func (n *Namespace) NamespacePhase() string { return n.Status.Phase }

// SetNamespacePhase sets status.phase, for the server.
func (n *Namespace) SetNamespacePhase(phase string) { n.Status.Phase = phase }

// NamespaceFinalizers returns spec.finalizers, for the server.
func (n *Namespace) NamespaceFinalizers() []string { return n.Spec.Finalizers }

// SetNamespaceFinalizers sets spec.finalizers, for the server.
func (n *Namespace) SetNamespaceFinalizers(finalizers []string) { n.Spec.Finalizers = finalizers }

// NamespaceConditions returns status.conditions, for the server.
func (n *Namespace) NamespaceConditions() []meta.Condition { return n.Status.Conditions }

// SetNamespaceConditions sets status.conditions, for the server.
func (n *Namespace) SetNamespaceConditions(conditions []meta.Condition) {
	n.Status.Conditions = conditions
}

// NamespaceKind returns the registration of [Namespace]: cluster-scoped,
// resource "namespaces" in core v1 ([namespaces.Resource]), with
// a status subresource, the finalize subresource and the field selector
// status.phase. It is not
// part of [Register]: register it on its own to make namespaces real.
func NamespaceKind() meta.KindInfo {
	return meta.KindInfo{
		StrategicMergePatch: true, AllowUnconditionalUpdate: true, NoGeneration: true,
		Version: namespaces.Resource.Version, Kind: "Namespace", Resource: namespaces.Resource.Resource,
		New: func() meta.Object { return &Namespace{} },
		Fields: map[string]meta.FieldFunc{
			"status.phase": func(obj meta.Object) string { return obj.(*Namespace).Status.Phase },
		},
	}
}
