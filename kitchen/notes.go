package kitchen

import (
	"fmt"

	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// EventRecorder takes the chef's notes on an order, as Kubernetes
// Events: *record.Recorder (package reconcile/record) is one. The notes
// show under the order in `kubectl describe order NAME` and in
// `kubectl events`.
type EventRecorder interface {
	Eventf(obj meta.Object, eventType, reason, format string, args ...any)
}

// note records the order's move from phase from to its current phase: a
// Normal event whose reason is the new phase, or for a rejection a
// Warning with the rejection's reason. Nothing without a Recorder.
func (c *Chef) note(order *Order, from OrderPhase) {
	if c.Recorder == nil {
		return
	}
	to := order.Status.Phase
	typ, reason := builtin.EventTypeNormal, string(to)
	msg := fmt.Sprintf("%s → %s: %s", phaseName(from), to, describeItems(order.Spec.Items))
	if to == OrderRejected {
		typ = builtin.EventTypeWarning
		if cond := meta.FindStatusCondition(order.Status.Conditions, ConditionAccepted); cond != nil {
			reason, msg = cond.Reason, cond.Message
		}
	}
	c.Recorder.Eventf(order, typ, reason, "%s", msg)
}
