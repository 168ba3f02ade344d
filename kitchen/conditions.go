package kitchen

import "github.com/kitchensync/kitchensync/apiserver"

// ConditionStatus is "True", "False" or "Unknown", as in Kubernetes.
type ConditionStatus string

// The three condition statuses.
const (
	ConditionTrue    ConditionStatus = "True"
	ConditionFalse   ConditionStatus = "False"
	ConditionUnknown ConditionStatus = "Unknown"
)

// Condition is one aspect of an order's state, shaped like
// metav1.Condition.
type Condition struct {
	// Type names the aspect, e.g. [ConditionAccepted].
	Type   string          `json:"type"`
	Status ConditionStatus `json:"status"`
	// ObservedGeneration is the generation the condition was computed for.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// LastTransitionTime is when Status last changed.
	LastTransitionTime apiserver.Time `json:"lastTransitionTime"`
	// Reason is a CamelCase word for programs, e.g. "DishNotOnMenu".
	Reason string `json:"reason"`
	// Message is a sentence for people.
	Message string `json:"message"`
}

// The condition types the chef sets on orders.
const (
	// ConditionAccepted is False with reason DishNotOnMenu, UnknownExtra,
	// NoSuchStation or OutOfStock when the order is rejected.
	ConditionAccepted = "Accepted"
	// ConditionStocked is False while the chef waits for a delivery.
	ConditionStocked = "Stocked"
	// ConditionReady is True once every item is cooked.
	ConditionReady = "Ready"
)

// FindCondition returns the condition of type t, or nil.
func FindCondition(conds []Condition, t string) *Condition {
	for i := range conds {
		if conds[i].Type == t {
			return &conds[i]
		}
	}
	return nil
}

// SetCondition adds or updates c in *conds, like apimachinery's
// meta.SetStatusCondition: LastTransitionTime changes only when Status
// does (c's own time is used then), so setting the same condition twice
// changes nothing — the chef relies on this to be idempotent. It reports
// whether anything changed.
func SetCondition(conds *[]Condition, c Condition) bool {
	old := FindCondition(*conds, c.Type)
	if old == nil {
		*conds = append(*conds, c)
		return true
	}
	if old.Status != c.Status {
		old.Status = c.Status
		old.LastTransitionTime = c.LastTransitionTime
	} else if *old == (Condition{Type: c.Type, Status: c.Status, ObservedGeneration: c.ObservedGeneration,
		LastTransitionTime: old.LastTransitionTime, Reason: c.Reason, Message: c.Message}) {
		return false
	}
	old.Reason, old.Message, old.ObservedGeneration = c.Reason, c.Message, c.ObservedGeneration
	return true
}
