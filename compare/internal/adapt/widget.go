package adapt

import (
	"strconv"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kitchensync/kitchensync/compare/internal/ops"
)

// Widget is the client-go twin of apiservertest.Widget: the same spec and
// status under metav1 metadata, as a typed custom resource looks in a
// client-go program.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              apiservertest.WidgetSpec   `json:"spec"`
	Status            apiservertest.WidgetStatus `json:"status,omitzero"`
}

// DeepCopyObject implements runtime.Object.
func (w *Widget) DeepCopyObject() runtime.Object {
	out := *w
	w.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Spec.Tags = append([]string(nil), w.Spec.Tags...)
	return &out
}

// WidgetGVK is the group, version and kind of both Widgets.
var WidgetGVK = schema.GroupVersionKind{Group: apiservertest.Group, Version: apiservertest.Version, Kind: "Widget"}

// KS returns o as a kitchensync Widget.
func KS(o ops.Object) *apiservertest.Widget {
	w := apiservertest.NewWidget(o.Namespace, o.Name)
	w.ResourceVersion = strconv.Itoa(o.RV)
	w.Spec.Color = o.Color
	w.Spec.Tags = o.Tags
	return w
}

// CG returns o as a client-go Widget.
func CG(o ops.Object) *Widget {
	w := &Widget{ObjectMeta: metav1.ObjectMeta{Namespace: o.Namespace, Name: o.Name, ResourceVersion: strconv.Itoa(o.RV)}}
	w.APIVersion, w.Kind = WidgetGVK.GroupVersion().String(), WidgetGVK.Kind
	w.Spec.Color = o.Color
	w.Spec.Tags = o.Tags
	return w
}

// FromKS converts a kitchensync Widget (as the apiserver returns it) to a
// client-go Widget, copying every metadata field the informer can see.
func FromKS(k *apiservertest.Widget) *Widget {
	m := k.ObjectMeta
	w := &Widget{
		TypeMeta: metav1.TypeMeta{APIVersion: k.APIVersion, Kind: k.Kind},
		ObjectMeta: metav1.ObjectMeta{
			Name: m.Name, GenerateName: m.GenerateName, Namespace: m.Namespace,
			UID: types.UID(m.UID), ResourceVersion: m.ResourceVersion, Generation: m.Generation,
			CreationTimestamp: metav1.NewTime(m.CreationTimestamp.Time),
			Labels:            m.Labels, Annotations: m.Annotations, Finalizers: m.Finalizers,
		},
		Spec:   k.Spec,
		Status: k.Status,
	}
	if m.DeletionTimestamp != nil {
		ts := metav1.NewTime(m.DeletionTimestamp.Time)
		w.DeletionTimestamp = &ts
	}
	return w
}

// Summary is what the differential tests compare of an object from either
// library: its key, resourceVersion and spec.
type Summary struct {
	Key   string
	RV    string
	Color string
	Tags  []string
}

// SummarizeKS summarizes a kitchensync object (nil gives the zero Summary).
func SummarizeKS(obj meta.Object) Summary {
	w, ok := obj.(*apiservertest.Widget)
	if !ok || w == nil {
		return Summary{}
	}
	return Summary{Key: key(w.Namespace, w.Name), RV: w.ResourceVersion, Color: w.Spec.Color, Tags: w.Spec.Tags}
}

// SummarizeCG summarizes a client-go object (nil gives the zero Summary).
func SummarizeCG(obj any) Summary {
	w, ok := obj.(*Widget)
	if !ok || w == nil {
		return Summary{}
	}
	return Summary{Key: key(w.Namespace, w.Name), RV: w.ResourceVersion, Color: w.Spec.Color, Tags: w.Spec.Tags}
}

func key(ns, name string) string {
	if ns == "" {
		return name
	}
	return ns + "/" + name
}
