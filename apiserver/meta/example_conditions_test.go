package meta_test

import (
	"fmt"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// A reconciler sets its conditions on every pass and writes the status only
// when SetStatusCondition reports a change; the transition time moves only
// when the status does.
func ExampleSetStatusCondition() {
	opened := meta.NewTime(time.Date(2026, 1, 2, 18, 0, 0, 0, time.UTC))
	later := meta.NewTime(opened.Add(40 * time.Minute))
	var conds []meta.Condition

	fmt.Println(meta.SetStatusCondition(&conds, meta.Condition{
		Type: "Ready", Status: meta.ConditionFalse, Reason: "Cooking", LastTransitionTime: opened}))
	fmt.Println(meta.SetStatusCondition(&conds, meta.Condition{
		Type: "Ready", Status: meta.ConditionFalse, Reason: "Cooking", LastTransitionTime: later}))
	fmt.Println(meta.IsStatusConditionTrue(conds, "Ready"))
	fmt.Println(meta.SetStatusCondition(&conds, meta.Condition{
		Type: "Ready", Status: meta.ConditionTrue, Reason: "Served", LastTransitionTime: later}))

	c := meta.FindStatusCondition(conds, "Ready")
	fmt.Println(c.Status, c.Reason, c.LastTransitionTime.UTC().Format(time.Kitchen))
	// Output:
	// true
	// false
	// false
	// true
	// True Served 6:40PM
}
