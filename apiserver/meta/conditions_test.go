package meta_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

func TestSetStatusCondition(t *testing.T) {
	t0 := meta.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	t1 := meta.NewTime(t0.Add(time.Minute))
	ready := func(s meta.ConditionStatus, reason string, at meta.Time) meta.Condition {
		return meta.Condition{Type: "Ready", Status: s, Reason: reason, Message: "m", ObservedGeneration: 1, LastTransitionTime: at}
	}
	var conds []meta.Condition
	steps := []struct {
		name        string
		set         meta.Condition
		wantChanged bool
		want        []meta.Condition
	}{
		{"add", ready(meta.ConditionFalse, "Cooking", t0), true, []meta.Condition{ready(meta.ConditionFalse, "Cooking", t0)}},
		{"same again", ready(meta.ConditionFalse, "Cooking", t0), false, []meta.Condition{ready(meta.ConditionFalse, "Cooking", t0)}},
		{"same status, later time: time kept", ready(meta.ConditionFalse, "Cooking", t1), false, []meta.Condition{ready(meta.ConditionFalse, "Cooking", t0)}},
		{"new reason, same status: time kept", ready(meta.ConditionFalse, "Plating", t1), true, []meta.Condition{ready(meta.ConditionFalse, "Plating", t0)}},
		{"status flips: time moves", ready(meta.ConditionTrue, "Served", t1), true, []meta.Condition{ready(meta.ConditionTrue, "Served", t1)}},
	}
	for _, s := range steps {
		if got := meta.SetStatusCondition(&conds, s.set); got != s.wantChanged {
			t.Errorf("%s: changed = %v, want %v", s.name, got, s.wantChanged)
		}
		if diff := cmp.Diff(s.want, conds); diff != "" {
			t.Errorf("%s: conditions (-want +got):\n%s", s.name, diff)
		}
	}
	if meta.SetStatusCondition(nil, ready(meta.ConditionTrue, "x", t0)) {
		t.Error("SetStatusCondition(nil, ...) = true, want false")
	}
}

func TestSetStatusConditionZeroTimeUsesNow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := meta.NewTime(time.Now())
		var conds []meta.Condition
		meta.SetStatusCondition(&conds, meta.Condition{Type: "Ready", Status: meta.ConditionFalse})
		if !conds[0].LastTransitionTime.Equal(start.Time) {
			t.Errorf("added: LastTransitionTime = %v, want now (%v)", conds[0].LastTransitionTime, start)
		}
		time.Sleep(time.Hour) // virtual time: the bubble's clock jumps
		meta.SetStatusCondition(&conds, meta.Condition{Type: "Ready", Status: meta.ConditionTrue})
		if want := start.Add(time.Hour); !conds[0].LastTransitionTime.Equal(want) {
			t.Errorf("flipped: LastTransitionTime = %v, want %v", conds[0].LastTransitionTime, want)
		}
	})
}

func TestFindAndRemoveStatusCondition(t *testing.T) {
	conds := []meta.Condition{
		{Type: "Accepted", Status: meta.ConditionTrue},
		{Type: "Ready", Status: meta.ConditionFalse},
	}
	if !meta.IsStatusConditionTrue(conds, "Accepted") || meta.IsStatusConditionTrue(conds, "Ready") ||
		meta.IsStatusConditionTrue(conds, "Missing") {
		t.Errorf("IsStatusConditionTrue disagrees with %+v", conds)
	}
	if c := meta.FindStatusCondition(conds, "Missing"); c != nil {
		t.Errorf("FindStatusCondition(Missing) = %+v, want nil", c)
	}
	meta.FindStatusCondition(conds, "Ready").Reason = "Cooking"
	if conds[1].Reason != "Cooking" {
		t.Error("FindStatusCondition returned a copy, want a pointer into the slice")
	}
	before := conds
	if !meta.RemoveStatusCondition(&conds, "Accepted") || meta.RemoveStatusCondition(&conds, "Accepted") {
		t.Error("RemoveStatusCondition: want true once, then false")
	}
	if diff := cmp.Diff([]meta.Condition{{Type: "Ready", Status: meta.ConditionFalse, Reason: "Cooking"}}, conds); diff != "" {
		t.Errorf("after remove (-want +got):\n%s", diff)
	}
	if before[0].Type != "Accepted" {
		t.Error("RemoveStatusCondition changed the caller's old slice")
	}
	if meta.RemoveStatusCondition(nil, "Ready") {
		t.Error("RemoveStatusCondition(nil, ...) = true, want false")
	}
}
