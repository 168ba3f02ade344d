package apiservertest

import (
	"slices"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Group and Version of the test kinds.
const (
	Group   = "test.kitchensync.io"
	Version = "v1"
)

// WidgetsResource names the collection of [Widget] objects.
var WidgetsResource = meta.GroupVersionResource{Group: Group, Version: Version, Resource: "widgets"}

// GadgetsResource names the collection of [Gadget] objects.
var GadgetsResource = meta.GroupVersionResource{Group: Group, Version: Version, Resource: "gadgets"}

// Widget is a namespaced test kind shaped like a Kubernetes custom
// resource: desired state in Spec, observed state in Status (written
// through the status subresource). It registers the extra field selector
// "spec.color".
type Widget struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
	Spec            WidgetSpec   `json:"spec"`
	Status          WidgetStatus `json:"status,omitzero"`
}

// WidgetSpec is the desired state of a [Widget].
type WidgetSpec struct {
	// Color is selectable with the field selector "spec.color".
	Color string `json:"color,omitempty"`
	// Size is any number.
	Size int `json:"size,omitempty"`
	// Tags is a list, to exercise deep copies and merge patches.
	Tags []string `json:"tags,omitempty"`
}

// WidgetStatus is the observed state of a [Widget].
type WidgetStatus struct {
	// Phase is a free-form word such as "Ready".
	Phase string `json:"phase,omitempty"`
	// ObservedGeneration is the metadata.generation last acted upon.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// DeepCopyObject returns a copy of w that shares no memory with it.
func (w *Widget) DeepCopyObject() meta.Object {
	out := *w
	out.ObjectMeta = w.ObjectMeta.DeepCopy()
	out.Spec.Tags = slices.Clone(w.Spec.Tags)
	return &out
}

// NewWidget returns a Widget with its TypeMeta, namespace and name set.
func NewWidget(namespace, name string) *Widget {
	return &Widget{
		TypeMeta:   meta.TypeMeta{APIVersion: Group + "/" + Version, Kind: "Widget"},
		ObjectMeta: meta.ObjectMeta{Namespace: namespace, Name: name},
	}
}

// Gadget is a cluster-scoped test kind with a Spec and no Status, so it
// has no status subresource.
type Gadget struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
	Spec            GadgetSpec `json:"spec"`
}

// GadgetSpec is the desired state of a [Gadget].
type GadgetSpec struct {
	// Mode is any word.
	Mode string `json:"mode,omitempty"`
}

// DeepCopyObject returns a copy of g that shares no memory with it.
func (g *Gadget) DeepCopyObject() meta.Object {
	out := *g
	out.ObjectMeta = g.ObjectMeta.DeepCopy()
	return &out
}

// NewGadget returns a Gadget with its TypeMeta and name set.
func NewGadget(name string) *Gadget {
	return &Gadget{
		TypeMeta:   meta.TypeMeta{APIVersion: Group + "/" + Version, Kind: "Gadget"},
		ObjectMeta: meta.ObjectMeta{Name: name},
	}
}
