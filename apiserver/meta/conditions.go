package meta

import "time"

// ConditionStatus is "True", "False" or "Unknown", as in Kubernetes'
// metav1.ConditionStatus.
type ConditionStatus string

// The three condition statuses.
const (
	ConditionTrue    ConditionStatus = "True"
	ConditionFalse   ConditionStatus = "False"
	ConditionUnknown ConditionStatus = "Unknown"
)

// Condition is one aspect of an object's observed state, kept in a list in
// its Status, like Kubernetes' metav1.Condition (same fields, same JSON
// names). Controllers write conditions with [SetStatusCondition] and read
// them with [FindStatusCondition] and [IsStatusConditionTrue].
type Condition struct {
	// Type names the aspect in CamelCase, e.g. "Ready".
	Type string `json:"type"`
	// Status is [ConditionTrue], [ConditionFalse] or [ConditionUnknown].
	Status ConditionStatus `json:"status"`
	// ObservedGeneration is the metadata.generation the condition was
	// computed for; it is older than the object's when the condition is
	// stale.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// LastTransitionTime is when Status last changed.
	LastTransitionTime Time `json:"lastTransitionTime"`
	// Reason is a CamelCase word for programs, e.g. "OutOfStock".
	Reason string `json:"reason"`
	// Message is a sentence for people.
	Message string `json:"message"`
}

// FindStatusCondition returns the condition of the given type in
// conditions, or nil, like apimachinery's meta.FindStatusCondition. The
// pointer points into the slice, so writes through it change the list.
func FindStatusCondition(conditions []Condition, conditionType string) *Condition {
	for i := range conditions {
		if conditions[i].Type == conditionType {
			return &conditions[i]
		}
	}
	return nil
}

// IsStatusConditionTrue reports whether the condition of the given type is
// present with status [ConditionTrue].
func IsStatusConditionTrue(conditions []Condition, conditionType string) bool {
	c := FindStatusCondition(conditions, conditionType)
	return c != nil && c.Status == ConditionTrue
}

// SetStatusCondition adds c to *conditions, or updates the condition of
// c's type, and reports whether anything changed, like apimachinery's
// meta.SetStatusCondition.
//
// LastTransitionTime moves only when Status changes: it is then taken from
// c, or is the current time when c leaves it zero. So setting the same
// condition twice changes nothing, which keeps a reconciler idempotent:
// it can set every condition on every pass and write the status only when
// this reports a change.
func SetStatusCondition(conditions *[]Condition, c Condition) (changed bool) {
	if conditions == nil {
		return false
	}
	old := FindStatusCondition(*conditions, c.Type)
	if old == nil {
		if c.LastTransitionTime.IsZero() {
			c.LastTransitionTime = NewTime(time.Now())
		}
		*conditions = append(*conditions, c)
		return true
	}
	if old.Status != c.Status {
		old.Status = c.Status
		old.LastTransitionTime = c.LastTransitionTime
		if c.LastTransitionTime.IsZero() {
			old.LastTransitionTime = NewTime(time.Now())
		}
		changed = true
	}
	if old.Reason != c.Reason || old.Message != c.Message || old.ObservedGeneration != c.ObservedGeneration {
		old.Reason, old.Message, old.ObservedGeneration = c.Reason, c.Message, c.ObservedGeneration
		changed = true
	}
	return changed
}

// RemoveStatusCondition removes the condition of the given type from
// *conditions and reports whether there was one, like apimachinery's
// meta.RemoveStatusCondition.
func RemoveStatusCondition(conditions *[]Condition, conditionType string) (removed bool) {
	if conditions == nil || FindStatusCondition(*conditions, conditionType) == nil {
		return false
	}
	// A new slice, as apimachinery does, so that a caller holding the old
	// one does not see it shuffled.
	out := make([]Condition, 0, len(*conditions)-1)
	for _, c := range *conditions {
		if c.Type != conditionType {
			out = append(out, c)
		}
	}
	*conditions = out
	return true
}
