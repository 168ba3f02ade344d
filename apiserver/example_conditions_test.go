package apiserver_test

import (
	"fmt"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
)

// A reconciler sets its conditions on every pass and writes the status only
// when SetStatusCondition reports a change; the transition time moves only
// when the status does.
func ExampleSetStatusCondition() {
	opened := apiserver.NewTime(time.Date(2026, 1, 2, 18, 0, 0, 0, time.UTC))
	later := apiserver.NewTime(opened.Add(40 * time.Minute))
	var conds []apiserver.Condition

	fmt.Println(apiserver.SetStatusCondition(&conds, apiserver.Condition{
		Type: "Ready", Status: apiserver.ConditionFalse, Reason: "Cooking", LastTransitionTime: opened}))
	fmt.Println(apiserver.SetStatusCondition(&conds, apiserver.Condition{
		Type: "Ready", Status: apiserver.ConditionFalse, Reason: "Cooking", LastTransitionTime: later}))
	fmt.Println(apiserver.IsStatusConditionTrue(conds, "Ready"))
	fmt.Println(apiserver.SetStatusCondition(&conds, apiserver.Condition{
		Type: "Ready", Status: apiserver.ConditionTrue, Reason: "Served", LastTransitionTime: later}))

	c := apiserver.FindStatusCondition(conds, "Ready")
	fmt.Println(c.Status, c.Reason, c.LastTransitionTime.UTC().Format(time.Kitchen))
	// Output:
	// true
	// false
	// false
	// true
	// True Served 6:40PM
}
