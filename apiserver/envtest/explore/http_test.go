package explore_test

import (
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/envtest/explore"
	"github.com/kitchensync/kitchensync/apiserver/envtest/explore/gallery"
)

// TestExploreOverHTTP explores a planted bug whose controller talks to
// its own front over HTTP (conn.API is then a *rest.Client): a parent
// comes and goes, and a crash right after the finalizer's removal (the
// first write of step 2) leaves its child behind, as in process.
func TestExploreOverHTTP(t *testing.T) {
	s := gallery.Scenario(gallery.EarlyFinalizer())
	s.Workload = []explore.Step{gallery.Create("p1", "v1"), gallery.Delete("p1")}
	// Crash plans take turns between the steps: the second is 2.w1.
	opts := explore.Options{HTTP: true, Try: []explore.Kind{explore.Crash}, MaxPlans: 2, NoShrink: true}
	rep := explore.Explore(t, s, opts)
	if len(rep.Violations) != 1 || rep.Violations[0].Plan.String() != "crash:ctrl@2.w1" || rep.Violations[0].What != "end state" {
		t.Fatalf("want the end state to differ after crash:ctrl@2.w1, got %v", rep.Violations)
	}
	t.Logf("%d plans, %d runs in %v:\n%s", rep.Plans, rep.Runs, rep.Elapsed, rep.Violations[0])
}

// TestExploreRefusesAMalformedScenario: Explore fails the test, before
// any run, for a scenario without controllers or a plan that does not
// parse.
func TestExploreRefusesAMalformedScenario(t *testing.T) {
	s := gallery.Scenario(gallery.Correct())
	if runTest(func(t *testing.T) { explore.Explore(t, explore.Scenario{Kinds: s.Kinds}, explore.Options{}) }) {
		t.Error("Explore passed a scenario without controllers")
	}
	if runTest(func(t *testing.T) { explore.Explore(t, s, explore.Options{Plan: "crash:nobody@1.w1"}) }) {
		t.Error("Explore passed a plan naming no controller of the scenario")
	}
}

// TestLagOverHTTP replays a plan that holds back the events of the
// children's informer of a controller over HTTP: it creates a second
// child, as in process.
func TestLagOverHTTP(t *testing.T) {
	s := gallery.Scenario(gallery.StaleCache())
	s.Workload = []explore.Step{gallery.Create("p1", "v1")}
	rep := explore.Explore(t, s, explore.Options{HTTP: true, Plan: "lag:ctrl/children@1.e1"})
	if len(rep.Violations) != 1 || rep.Violations[0].What != "invariant" {
		t.Fatalf("want the invariant broken, got %v; the reference run:\n%s", rep.Violations, rep.Reference)
	}
	t.Logf("%s", rep.Violations[0])
}
