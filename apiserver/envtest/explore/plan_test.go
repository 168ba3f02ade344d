package explore_test

import (
	"errors"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/envtest/explore"
)

// TestPlanRoundTrip parses replay lines and prints them back.
func TestPlanRoundTrip(t *testing.T) {
	for _, line := range []string{
		"none",
		"crash:ctrl@2.w1",
		"stale:ctrl@0.w3",
		"conflict:a@1.w2",
		"lag:ctrl/children@3.e2",
		"coalesce:ctrl/parents@1.e1",
		"cut:c/widgets@2.e10",
		"expire:c/widgets@0.e1",
		"down:ctrl@4",
		"crash:a@1.w1,lag:b/widgets@2.e1,skip:3",
		"down:ctrl@4,skip:1,skip:3,skip:5-8",
	} {
		p, err := explore.ParsePlan(line)
		if err != nil {
			t.Errorf("ParsePlan(%q): %v", line, err)
			continue
		}
		if got := p.String(); got != line {
			t.Errorf("ParsePlan(%q).String() = %q", line, got)
		}
	}
	if p, err := explore.ParsePlan(""); err != nil || p.String() != "none" {
		t.Errorf(`ParsePlan("") = %v, %v; want the reference run`, p, err)
	}
	p, _ := explore.ParsePlan("skip:4,skip:2,skip:3")
	if got := p.String(); got != "skip:2-4" {
		t.Errorf("skipped steps out of order print as %q, want skip:2-4", got)
	}
}

// TestParsePlanErrors: a malformed part is a *PlanError naming it.
func TestParsePlanErrors(t *testing.T) {
	for _, tc := range []struct {
		line, part, reason string
	}{
		{"explode:ctrl@1", "explode:ctrl@1", "not a kind"},
		{"crash", "crash", "no controller"},
		{"crash:@1.w1", "crash:@1.w1", "empty controller"},
		{"crash:ctrl", "crash:ctrl", "no point"},
		{"lag:ctrl@1.e1", "lag:ctrl@1.e1", "lag needs an informer"},
		{"crash:ctrl/children@1.w1", "crash:ctrl/children@1.w1", "crash acts on a controller"},
		{"crash:ctrl@1", "crash:ctrl@1", "crash needs a write"},
		{"down:ctrl@1.w1", "down:ctrl@1.w1", "down takes a step"},
		{"down:ctrl@0", "down:ctrl@0", "down needs a workload step"},
		{"crash:ctrl@x.w1", "crash:ctrl@x.w1", "the step is not a number"},
		{"crash:ctrl@-1.w1", "crash:ctrl@-1.w1", "a negative step"},
		{"crash:ctrl@1.e1", "crash:ctrl@1.e1", "an event point for a write"},
		{"lag:ctrl/children@1.e0", "lag:ctrl/children@1.e0", "points count from 1"},
		{"crash:ctrl@1.w1,skip:0", "skip:0", "steps count from 1"},
		{"skip:3-1", "skip:3-1", "an empty range"},
		{"skip:a", "skip:a", "not a number"},
	} {
		_, err := explore.ParsePlan(tc.line)
		var pe *explore.PlanError
		if !errors.As(err, &pe) || pe.Part != tc.part {
			t.Errorf("ParsePlan(%q) = %v, want a *PlanError naming %q (%s)", tc.line, err, tc.part, tc.reason)
		}
	}
}
