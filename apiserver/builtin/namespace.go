package builtin

import "github.com/kitchensync/kitchensync/apiserver"

// Namespace is Kubernetes' core/v1 Namespace: a cluster-scoped object
// whose name the namespaced objects carry in metadata.namespace.
//
// Registering it ([NamespaceKind]) makes namespaces real, as on a
// cluster: creating an object in a namespace that does not exist is then
// 404 NotFound (`namespaces "nosuchns" not found`), as kube-apiserver's
// NamespaceLifecycle admission answers, so create the namespace first.
// Without it, a namespace is only a name and any will do, which is what
// simple tests and lessons want; that is why [Register] leaves it out.
//
// Simplifications: the server does not default spec.finalizers to
// ["kubernetes"] nor status.phase to "Active", and deleting a namespace
// deletes only the Namespace object, not its contents (a cluster's
// namespace controller empties it first, with the namespace in phase
// "Terminating"); no system namespaces ("default", "kube-system") exist
// until created.
type Namespace struct {
	apiserver.TypeMeta   `json:",inline"`
	apiserver.ObjectMeta `json:"metadata"`
	Spec                 NamespaceSpec   `json:"spec"`
	Status               NamespaceStatus `json:"status"`
}

// NamespaceSpec holds the finalizers that a namespace's deletion waits
// for (on a cluster, "kubernetes": the namespace controller's).
type NamespaceSpec struct {
	Finalizers []string `json:"finalizers,omitempty"`
}

// NamespaceStatus says whether a namespace is "Active" or "Terminating",
// as written by whoever manages it (here, nobody does unless told).
type NamespaceStatus struct {
	Phase string `json:"phase,omitempty"`
}

// NewNamespace returns a Namespace named name.
func NewNamespace(name string) *Namespace {
	return &Namespace{ObjectMeta: apiserver.ObjectMeta{Name: name}}
}

// DeepCopyObject returns a copy of n that shares no memory with it.
func (n *Namespace) DeepCopyObject() apiserver.Object {
	out := *n
	out.ObjectMeta = n.ObjectMeta.DeepCopy()
	if n.Spec.Finalizers != nil {
		out.Spec.Finalizers = append([]string(nil), n.Spec.Finalizers...)
	}
	return &out
}

// NamespaceKind returns the registration of [Namespace]: cluster-scoped,
// resource "namespaces" in core v1 ([apiserver.NamespacesResource]), with
// a status subresource and the field selector status.phase. It is not
// part of [Register]: register it on its own to make namespaces real.
func NamespaceKind() apiserver.KindInfo {
	return apiserver.KindInfo{
		Version: apiserver.NamespacesResource.Version, Kind: "Namespace", Resource: apiserver.NamespacesResource.Resource,
		New: func() apiserver.Object { return &Namespace{} },
		Fields: map[string]apiserver.FieldFunc{
			"status.phase": func(obj apiserver.Object) string { return obj.(*Namespace).Status.Phase },
		},
	}
}
