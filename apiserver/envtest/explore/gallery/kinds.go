package gallery

import (
	"slices"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Group and Version of the gallery's kinds.
const (
	Group   = "gallery.kitchensync.io"
	Version = "v1"
)

// ParentLabel names, on a [Child], the [Parent] it belongs to.
const ParentLabel = Group + "/parent"

// Finalizer is what the controllers that clean up put on a [Parent].
const Finalizer = Group + "/cleanup"

// Parent asks for one [Child] carrying its Spec.Version.
type Parent struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
	Spec            ParentSpec   `json:"spec"`
	Status          ParentStatus `json:"status,omitzero"`
}

// ParentSpec is what a Parent asks for.
type ParentSpec struct {
	// Version is what its child must carry.
	Version string `json:"version,omitempty"`
}

// ParentStatus is what the controller reports.
type ParentStatus struct {
	// Phase is "Ready" once the child carries the version.
	Phase string `json:"phase,omitempty"`
	// ObservedGeneration is the generation Phase speaks of.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Child names the child, for controllers that remember it here.
	Child string `json:"child,omitempty"`
	// Applied is the spec last applied, for controllers that compare it.
	Applied *ParentSpec `json:"applied,omitempty"`
}

// DeepCopyObject returns a copy of p that shares no memory with it.
func (p *Parent) DeepCopyObject() meta.Object {
	out := *p
	out.ObjectMeta = p.ObjectMeta.DeepCopy()
	if p.Status.Applied != nil {
		applied := *p.Status.Applied
		out.Status.Applied = &applied
	}
	return &out
}

// Child is what a controller makes for a [Parent]: labelled with
// [ParentLabel], carrying the parent's version.
type Child struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
	Spec            ChildSpec `json:"spec"`
}

// ChildSpec is what a Child carries.
type ChildSpec struct {
	// Version is its parent's Spec.Version, when it was made or updated.
	Version string `json:"version,omitempty"`
}

// DeepCopyObject returns a copy of c that shares no memory with it.
func (c *Child) DeepCopyObject() meta.Object {
	out := *c
	out.ObjectMeta = c.ObjectMeta.DeepCopy()
	return &out
}

// ParentKind registers [Parent]: namespaced, resource "parents".
func ParentKind() meta.KindInfo {
	return meta.KindInfo{Group: Group, Version: Version, Kind: "Parent", Resource: "parents", Namespaced: true,
		New: func() meta.Object { return &Parent{} }}
}

// ChildKind registers [Child]: namespaced, resource "children".
func ChildKind() meta.KindInfo {
	return meta.KindInfo{Group: Group, Version: Version, Kind: "Child", Resource: "children", Namespaced: true,
		New: func() meta.Object { return &Child{} }}
}

// Kinds returns both kinds.
func Kinds() []meta.KindInfo { return []meta.KindInfo{ParentKind(), ChildKind()} }

// NewParent returns a Parent asking for version.
func NewParent(namespace, name, version string) *Parent {
	return &Parent{
		TypeMeta:   ParentKind().TypeMeta(),
		ObjectMeta: meta.ObjectMeta{Namespace: namespace, Name: name},
		Spec:       ParentSpec{Version: version},
	}
}

// newChild returns a child of p named name (or, if name is empty,
// generated from the parent's name).
func newChild(p *Parent, name string) *Child {
	c := &Child{
		TypeMeta: ChildKind().TypeMeta(),
		ObjectMeta: meta.ObjectMeta{Namespace: p.Namespace, Name: name,
			Labels: map[string]string{ParentLabel: p.Name}},
		Spec: ChildSpec{Version: p.Spec.Version},
	}
	if name == "" {
		c.GenerateName = p.Name + "-"
	}
	return c
}

// childName is the fixed name of p's child, for controllers that use one.
func childName(p *Parent) string { return p.Name + "-child" }

// hasFinalizer reports whether p carries [Finalizer].
func hasFinalizer(p *Parent) bool { return slices.Contains(p.Finalizers, Finalizer) }
