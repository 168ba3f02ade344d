package meta

import (
	"reflect"
	"strings"
	"sync"
)

// ScaleSubresource says where a kind keeps what its scale subresource
// (autoscaling/v1 Scale) shows, as a CRD's subresources.scale does: JSON
// paths such as ".spec.replicas" into the object.
type ScaleSubresource struct {
	// SpecReplicasPath is the desired replicas, e.g. ".spec.replicas";
	// a write to the scale subresource sets it.
	SpecReplicasPath string `json:"specReplicasPath"`
	// StatusReplicasPath is the observed replicas, e.g. ".status.replicas".
	StatusReplicasPath string `json:"statusReplicasPath"`
	// LabelSelectorPath, if set, is the label selector (as a string) of
	// what is scaled, e.g. ".status.selector".
	LabelSelectorPath string `json:"labelSelectorPath,omitempty"`
}

// PrinterColumn is one column of a kind's tables, as a CRD's
// additionalPrinterColumns: kubectl get shows it, and -o wide too those
// with a Priority above 0.
type PrinterColumn struct {
	Name        string `json:"name"`
	Type        string `json:"type"` // integer, number, string, boolean or date
	Format      string `json:"format,omitempty"`
	Description string `json:"description,omitempty"`
	Priority    int32  `json:"priority,omitempty"`
	// JSONPath is a simple path into the object, e.g. ".spec.seats".
	JSONPath string `json:"jsonPath"`
	// Value, when set, computes the cell instead (a built-in kind's
	// column that no path reads, such as a definition's versions); the
	// cell is shown as it is.
	Value func(obj Object) any `json:"-"`
}

// SingularName is the kind's singular name in discovery: Singular, or
// the lowercase kind.
func (k KindInfo) SingularName() string {
	if k.Singular != "" {
		return k.Singular
	}
	return strings.ToLower(k.Kind)
}

// HasStatusSubresource reports whether the kind has a status
// subresource: [KindInfo.StatusSubresource], or a Go type with a field
// named Status.
func (k KindInfo) HasStatusSubresource() bool {
	if k.StatusSubresource {
		return true
	}
	if k.New == nil {
		return false
	}
	return hasStatusField(k.New())
}

var statusFieldCache sync.Map // reflect.Type -> bool

// hasStatusField reports whether obj is a pointer to a struct with a
// field named Status, the convention for a Go kind's observed state.
func hasStatusField(obj Object) bool {
	t := reflect.TypeOf(obj)
	if has, ok := statusFieldCache.Load(t); ok {
		return has.(bool)
	}
	has := false
	if t != nil && t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct {
		f, ok := t.Elem().FieldByName("Status")
		has = ok && len(f.Index) == 1
	}
	statusFieldCache.Store(t, has)
	return has
}
