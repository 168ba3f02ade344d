package apiserver_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
)

func TestSetStatusCondition(t *testing.T) {
	t0 := apiserver.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	t1 := apiserver.NewTime(t0.Add(time.Minute))
	ready := func(s apiserver.ConditionStatus, reason string, at apiserver.Time) apiserver.Condition {
		return apiserver.Condition{Type: "Ready", Status: s, Reason: reason, Message: "m", ObservedGeneration: 1, LastTransitionTime: at}
	}
	var conds []apiserver.Condition
	steps := []struct {
		name        string
		set         apiserver.Condition
		wantChanged bool
		want        []apiserver.Condition
	}{
		{"add", ready(apiserver.ConditionFalse, "Cooking", t0), true, []apiserver.Condition{ready(apiserver.ConditionFalse, "Cooking", t0)}},
		{"same again", ready(apiserver.ConditionFalse, "Cooking", t0), false, []apiserver.Condition{ready(apiserver.ConditionFalse, "Cooking", t0)}},
		{"same status, later time: time kept", ready(apiserver.ConditionFalse, "Cooking", t1), false, []apiserver.Condition{ready(apiserver.ConditionFalse, "Cooking", t0)}},
		{"new reason, same status: time kept", ready(apiserver.ConditionFalse, "Plating", t1), true, []apiserver.Condition{ready(apiserver.ConditionFalse, "Plating", t0)}},
		{"status flips: time moves", ready(apiserver.ConditionTrue, "Served", t1), true, []apiserver.Condition{ready(apiserver.ConditionTrue, "Served", t1)}},
	}
	for _, s := range steps {
		if got := apiserver.SetStatusCondition(&conds, s.set); got != s.wantChanged {
			t.Errorf("%s: changed = %v, want %v", s.name, got, s.wantChanged)
		}
		if diff := cmp.Diff(s.want, conds); diff != "" {
			t.Errorf("%s: conditions (-want +got):\n%s", s.name, diff)
		}
	}
	if apiserver.SetStatusCondition(nil, ready(apiserver.ConditionTrue, "x", t0)) {
		t.Error("SetStatusCondition(nil, ...) = true, want false")
	}
}

func TestSetStatusConditionZeroTimeUsesNow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := apiserver.NewTime(time.Now())
		var conds []apiserver.Condition
		apiserver.SetStatusCondition(&conds, apiserver.Condition{Type: "Ready", Status: apiserver.ConditionFalse})
		if !conds[0].LastTransitionTime.Equal(start.Time) {
			t.Errorf("added: LastTransitionTime = %v, want now (%v)", conds[0].LastTransitionTime, start)
		}
		time.Sleep(time.Hour) // virtual time: the bubble's clock jumps
		apiserver.SetStatusCondition(&conds, apiserver.Condition{Type: "Ready", Status: apiserver.ConditionTrue})
		if want := start.Add(time.Hour); !conds[0].LastTransitionTime.Equal(want) {
			t.Errorf("flipped: LastTransitionTime = %v, want %v", conds[0].LastTransitionTime, want)
		}
	})
}

func TestFindAndRemoveStatusCondition(t *testing.T) {
	conds := []apiserver.Condition{
		{Type: "Accepted", Status: apiserver.ConditionTrue},
		{Type: "Ready", Status: apiserver.ConditionFalse},
	}
	if !apiserver.IsStatusConditionTrue(conds, "Accepted") || apiserver.IsStatusConditionTrue(conds, "Ready") ||
		apiserver.IsStatusConditionTrue(conds, "Missing") {
		t.Errorf("IsStatusConditionTrue disagrees with %+v", conds)
	}
	if c := apiserver.FindStatusCondition(conds, "Missing"); c != nil {
		t.Errorf("FindStatusCondition(Missing) = %+v, want nil", c)
	}
	apiserver.FindStatusCondition(conds, "Ready").Reason = "Cooking"
	if conds[1].Reason != "Cooking" {
		t.Error("FindStatusCondition returned a copy, want a pointer into the slice")
	}
	before := conds
	if !apiserver.RemoveStatusCondition(&conds, "Accepted") || apiserver.RemoveStatusCondition(&conds, "Accepted") {
		t.Error("RemoveStatusCondition: want true once, then false")
	}
	if diff := cmp.Diff([]apiserver.Condition{{Type: "Ready", Status: apiserver.ConditionFalse, Reason: "Cooking"}}, conds); diff != "" {
		t.Errorf("after remove (-want +got):\n%s", diff)
	}
	if before[0].Type != "Accepted" {
		t.Error("RemoveStatusCondition changed the caller's old slice")
	}
	if apiserver.RemoveStatusCondition(nil, "Ready") {
		t.Error("RemoveStatusCondition(nil, ...) = true, want false")
	}
}
