package explore_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/envtest/explore"
	"github.com/kitchensync/kitchensync/apiserver/envtest/explore/gallery"
)

// plantedBugs are the gallery's wrong controllers, each with the kind of
// perturbation that must find it and what goes wrong.
var plantedBugs = []struct {
	name   string
	ctrl   explore.Controller
	kind   explore.Kind // a failing plan must be of this kind
	what   string       // Violation.What
	reason string
}{
	{"stale cache", gallery.StaleCache(), explore.Lag, "invariant",
		"a child created while the children's informer lags is a second child"},
	{"event not state", gallery.EventNotState(), explore.Down, "end state",
		"a parent deleted while the controller is down leaves its child behind"},
	{"not idempotent", gallery.NotIdempotent(), explore.Crash, "invariant",
		"a crash between the create and the status write makes a second child"},
	{"status deepequal", gallery.StatusDeepEqual(), explore.Crash, "end state",
		"a crash after the status write leaves the child behind the spec"},
	{"early finalizer", gallery.EarlyFinalizer(), explore.Crash, "end state",
		"a crash after the finalizer's removal leaves the child without a parent"},
}

// TestGalleryFindsEachBug explores each planted bug and checks that the
// explorer finds it (with the kind of perturbation that should), that
// its replay line reproduces it, and logs how long it took.
func TestGalleryFindsEachBug(t *testing.T) {
	for _, bug := range plantedBugs {
		t.Run(bug.name, func(t *testing.T) {
			s := gallery.Scenario(bug.ctrl)
			rep := explore.Explore(t, s, explore.Options{})
			if len(rep.Violations) != 1 {
				t.Fatalf("found %d violations, want 1 (%s):\n%v", len(rep.Violations), bug.reason, rep.Violations)
			}
			v := rep.Violations[0]
			if v.What != bug.what {
				t.Errorf("What = %q, want %q:\n%s", v.What, bug.what, v)
			}
			if !slices.ContainsFunc(v.Failing, func(p explore.Plan) bool { return p.Perturbations[0].Kind == bug.kind }) {
				t.Errorf("no %s plan among the failing ones %v (%s)", bug.kind, v.Failing, bug.reason)
			}
			t.Logf("found after %d plans (%v), shrunk to %s; %d of %d plans fail; %d runs in %v",
				v.After, v.Elapsed, v.Plan, v.Hits, rep.Plans, rep.Runs, rep.Elapsed)
			for _, p := range []explore.Plan{v.Plan, v.Found} {
				again := explore.Explore(t, s, explore.Options{Plan: p.String()})
				if len(again.Violations) != 1 || again.Violations[0].Message != v.Message {
					t.Errorf("replaying %s: got %v, want %q", p, again.Violations, v.Message)
				}
			}
		})
	}
}

// TestGalleryCorrectIsClean explores the gallery's correct controller:
// no plan finds anything wrong.
func TestGalleryCorrectIsClean(t *testing.T) {
	rep := explore.Explore(t, gallery.Scenario(gallery.Correct()), explore.Options{})
	for _, v := range rep.Violations {
		t.Errorf("correct controller: %s", v)
	}
	if rep.Plans < 150 {
		t.Errorf("tried %d plans, want all of them (150 or more)", rep.Plans)
	}
	t.Logf("%d plans (%d writes, %d events perturbed) in %v", rep.Plans, rep.Writes, rep.Events, rep.Elapsed)
}

// TestExploreIsDeterministic explores a planted bug twice: the same plans
// fail, with the same narration.
func TestExploreIsDeterministic(t *testing.T) {
	s := gallery.Scenario(gallery.StaleCache())
	first := explore.Explore(t, s, explore.Options{NoShrink: true})
	second := explore.Explore(t, s, explore.Options{NoShrink: true})
	if first.Reference != second.Reference {
		t.Errorf("the reference runs differ:\n%s\n---\n%s", first.Reference, second.Reference)
	}
	if len(first.Violations) != 1 || len(second.Violations) != 1 {
		t.Fatalf("violations: %d, then %d; want 1", len(first.Violations), len(second.Violations))
	}
	a, b := first.Violations[0], second.Violations[0]
	if !slices.EqualFunc(a.Failing, b.Failing, func(x, y explore.Plan) bool { return x.String() == y.String() }) {
		t.Errorf("failing plans differ:\n%v\n%v", a.Failing, b.Failing)
	}
	if a.Narration != b.Narration {
		t.Errorf("narrations differ:\n%s\n---\n%s", a.Narration, b.Narration)
	}
}

// TestExploreTwoControllers explores two controllers at once, each on
// kinds of its own: the plans name each, and both are level-triggered, so
// nothing is found.
func TestExploreTwoControllers(t *testing.T) {
	s := gallery.Scenario(gallery.Correct())
	s.Kinds = append(s.Kinds, apiservertest.WidgetKind())
	s.Controllers = append(s.Controllers, explore.Controller{Name: "painter", Start: painter})
	s.Workload = []explore.Step{gallery.Create("p1", "v1"), paint("w1", "red"), gallery.SetVersion("p1", "v2"), paint("w1", "blue")}
	rep := explore.Explore(t, s, explore.Options{})
	for _, v := range rep.Violations {
		t.Errorf("two controllers: %s", v)
	}
	for _, name := range []string{"ctrl", "painter"} {
		if !strings.Contains(rep.Reference, "   "+name+" -> ") {
			t.Errorf("the reference run shows no write of %s:\n%s", name, rep.Reference)
		}
	}
	t.Logf("%d plans", rep.Plans)
}
