package bakery_test

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/examples/cakeshop/bakery"
)

// runScene plays a scene inside a synctest bubble, so that the shop's
// scaled clock is virtual, and checks the invariants every scene must
// keep. The bubble fails if a goroutine outlives the scene.
func runScene(t *testing.T, name string) *bakery.Report {
	t.Helper()
	sc, ok := bakery.SceneByName(name)
	if !ok {
		t.Fatalf("no scene %q", name)
	}
	var rep *bakery.Report
	synctest.Test(t, func(t *testing.T) {
		var out bytes.Buffer
		var err error
		rep, err = sc.Run(t.Context(), bakery.Config{Out: &out, Seed: 1})
		if err != nil {
			t.Fatalf("scene %s: %v\n%s", name, err, out.String())
		}
		if testing.Verbose() {
			t.Log("\n" + out.String())
		}
	})
	checkInvariants(t, rep)
	return rep
}

// checkInvariants: every order ends Completed, Failed or Cancelled; every
// Cancelled order was refunded exactly once, and no other order was.
func checkInvariants(t *testing.T, rep *bakery.Report) {
	t.Helper()
	if len(rep.Outcomes) == 0 {
		t.Errorf("%s: no orders", rep.Scene)
	}
	for k, o := range rep.Outcomes {
		switch o {
		case "Completed", "Failed":
			if n := rep.Refunds[k]; n != 0 {
				t.Errorf("%s: %s is %s but was refunded %d times", rep.Scene, k, o, n)
			}
		case "Cancelled":
			if n := rep.Refunds[k]; n != 1 {
				t.Errorf("%s: %s was cancelled and refunded %d times, want exactly once", rep.Scene, k, n)
			}
		default:
			t.Errorf("%s: %s ended %q, want Completed, Failed or Cancelled", rep.Scene, k, o)
		}
	}
}

func TestEveryScene(t *testing.T) {
	for _, sc := range bakery.Scenes() {
		t.Run(sc.Name, func(t *testing.T) { runScene(t, sc.Name) })
	}
}

// events returns the events of key's entries, in order.
func events(rep *bakery.Report, key string) []string {
	var out []string
	for _, en := range rep.Entries {
		if en.Key == key {
			out = append(out, en.Who+":"+en.Event)
		}
	}
	return out
}

func TestLifecycleNewModifiedCancelled(t *testing.T) {
	rep := runScene(t, "lifecycle")
	// Ingredients, batter, the sponge into the oven (a Bake), the oven
	// bakes it, frosting, decoration, box.
	bake := []string{"baker:step", "baker:step", "baker:step", "oven:bake", "baker:step", "baker:step", "baker:step", "baker:completed"}
	want := []string{"customer:ordered", "front-desk:noticed", "baker:new"}
	want = append(want, bake...)
	// The decoration changed: keep the sponge, redo decoration and box.
	want = append(want, "customer:edited", "front-desk:changed", "baker:redecorate", "baker:step", "baker:step", "baker:completed")
	// The flavor changed: throw the sponge away and bake again.
	want = append(want, "customer:edited", "front-desk:changed", "baker:rebake")
	want = append(want, bake...)
	want = append(want, "customer:cancelled", "front-desk:cancel-noticed", "baker:refunded", "front-desk:gone")
	if diff := cmp.Diff(want, events(rep, "haidian/alice")); diff != "" {
		t.Errorf("hand-offs of haidian/alice (-want +got):\n%s", diff)
	}
	if got := rep.Numbers["discarded"]; got != 2 {
		t.Errorf("discarded %d sponges, want 2", got)
	}
}

func TestOrderFormStoredAsCompleted(t *testing.T) {
	rep := runScene(t, "order-form")
	c := rep.Cakes["haidian/birthday-alice"]
	if c == nil {
		t.Fatal("birthday-alice not stored")
	}
	if c.Status.Phase != bakery.PhaseCompleted || c.Status.Checkpoint != bakery.StepBoxed || c.Status.ObservedGeneration != c.Generation {
		t.Errorf("status = %+v, want Completed at checkpoint boxed for generation %d", c.Status, c.Generation)
	}
	if !slices.Contains(c.Finalizers, bakery.Finalizer) {
		t.Errorf("finalizers = %v, want %s", c.Finalizers, bakery.Finalizer)
	}
	if n := rep.Numbers["bakes-done-owned"]; n != 1 {
		t.Errorf("%d Done Bakes controlled by the cake, want 1 (the sponge was baked as an owned object)", n)
	}
	if _, ok := rep.Outcomes["haidian/scribble"]; ok {
		t.Error("the invalid form was stored")
	}
}

// The bad form is refused twice: by the desk, and by the API server when
// kubectl sends it past the desk — with the same four causes, word for
// word, since both run the same rules.
func TestOrderFormRefusedByDeskAndAPIServer(t *testing.T) {
	rep := runScene(t, "order-form")
	causes := func(who string) []string {
		var out []string
		for _, en := range rep.Entries {
			if en.Key == "haidian/scribble" && en.Who == who && en.Event == "cause" {
				out = append(out, en.Text)
			}
		}
		return out
	}
	four := slices.Repeat([]string{"cause"}, 4)
	want := []string{"customer:ordered", "order-desk:refused"}
	want = append(want, prefixed("order-desk:", four)...)
	want = append(want, "kubectl:sent", "api-server:refused")
	want = append(want, prefixed("api-server:", four)...)
	if diff := cmp.Diff(want, events(rep, "haidian/scribble")); diff != "" {
		t.Errorf("hand-offs of haidian/scribble (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(causes("order-desk"), causes("api-server")); diff != "" {
		t.Errorf("causes (-desk +API server):\n%s", diff)
	}
	for _, en := range rep.Entries {
		if en.Who == "api-server" && en.Event == "refused" && !strings.HasPrefix(en.Text, "HTTP 422 ") {
			t.Errorf("API server's answer %q, want HTTP 422", en.Text)
		}
	}
}

func prefixed(prefix string, events []string) []string {
	out := make([]string, len(events))
	for i, e := range events {
		out[i] = prefix + e
	}
	return out
}

func TestFaultsRetryWithBackoffAndFallBack(t *testing.T) {
	rep := runScene(t, "faults")
	m := time.Minute
	// Each collapse is a first failure: the reconcile that put the next
	// sponge in the oven succeeded, and success resets the backoff.
	if diff := cmp.Diff([]time.Duration{5 * m, 5 * m}, rep.Delays["haidian/wobbly"]); diff != "" {
		t.Errorf("collapse retries (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]time.Duration{5 * m, 10 * m, 20 * m, 40 * m}, rep.Delays["haidian/patient"]); diff != "" {
		t.Errorf("oven retries (-want +got):\n%s", diff)
	}
	c := rep.Cakes["haidian/frost-2"].Status
	if cond := meta.FindStatusCondition(c.Conditions, bakery.ConditionRecipe); cond == nil || cond.Reason != "FallbackRecipe" {
		t.Errorf("frost-2 conditions = %+v, want %s with reason FallbackRecipe", c.Conditions, bakery.ConditionRecipe)
	}
	if c.Frosting != "whipped-cream" {
		t.Errorf("frost-2 frosted with %q, want the fallback whipped-cream", c.Frosting)
	}
	if f := rep.Cakes["haidian/frost-1"].Status.Frosting; f != "buttercream" {
		t.Errorf("frost-1 frosted with %q, want buttercream", f)
	}
	if rep.Numbers["sponge-before-decorator"] != 1 || rep.Numbers["completed-before-pickup"] != 1 {
		t.Errorf("late decoration: %v, want the sponge before the decorator and the cake before pickup", rep.Numbers)
	}
	if got := rep.Outcomes["haidian/change-of-heart"]; got != "Cancelled" {
		t.Errorf("change-of-heart ended %s, want Cancelled", got)
	}
}

// The story's edge case returns RequeueAfter 1h with an error: the retry
// delays are the rate limiter's, never the hour; without the error, one
// requeue after an hour and no errors.
func TestEdgeErrorBeatsRequeueAfter(t *testing.T) {
	realDuration := regexp.MustCompile(`\b\d+(\.\d+)?(ms|µs|ns)\b`)
	rep := runScene(t, "edge")
	m := time.Minute
	delays := rep.Delays["bug/wedding"]
	if diff := cmp.Diff([]time.Duration{5 * m, 10 * m, 20 * m, 40 * m}, delays); diff != "" {
		t.Errorf("retries of the buggy version (-want +got):\n%s", diff)
	}
	if got := rep.Numbers["bug-reconcile-errors"]; got != len(delays) {
		t.Errorf("buggy version: %d reconcile errors, want one per retry (%d)", got, len(delays))
	}
	if d := rep.Delays["fixed/wedding"]; len(d) != 0 {
		t.Errorf("fixed version was rate-limited: %v", d)
	}
	if e, looks := rep.Numbers["fixed-reconcile-errors"], rep.Numbers["fixed-icing-looks"]; e != 0 || looks != 1 {
		t.Errorf("fixed version: %d errors, %d looks at the icing before the fridge came; want 0 and 1", e, looks)
	}
	if looks := rep.Numbers["bug-icing-looks"]; looks != len(delays) {
		t.Errorf("buggy version: %d looks at the icing, want one per error (%d)", looks, len(delays))
	}
	// The controller's warning about the ignored Result is told once per
	// try, in the narration's words and shop time (the hour the baker
	// asked for), never as a log line in real milliseconds.
	var warned []string
	for _, en := range rep.Entries {
		if en.Key == "fixed/wedding" && strings.Contains(en.Text, "LESS than") {
			t.Errorf("fixed version looked again too soon: %s", en.Text)
		}
		if en.Event == "requeue-ignored" {
			warned = append(warned, en.Who+" "+en.Key+": "+en.Text)
		}
		if en.Event == "log" || strings.Contains(en.Text, "WARN") || realDuration.MatchString(en.Text) {
			t.Errorf("a log line in the scene's narration: [%s] %s", en.Who, en.Text)
		}
	}
	const warning = "controller bug/wedding: wedding: RequeueAfter 1h came with an error → warns that it ignores the 1h: the error's backoff decides"
	if diff := cmp.Diff([]string{warning, warning, warning, warning}, warned); diff != "" {
		t.Errorf("the controller's warnings (-want +got):\n%s", diff)
	}
	want := []string{"early-bird", "vip-chen", "regular-1", "regular-2", "regular-3", "regular-4", "regular-5"}
	if diff := cmp.Diff(want, rep.Served); diff != "" {
		t.Errorf("service order (-want +got):\n%s", diff)
	}
}

func TestPracticesCheckpointIdempotencyConcurrency(t *testing.T) {
	rep := runScene(t, "practices")
	want := map[string]int{
		"marathon-bakes":        1, // resumed at frosting, not rebaked
		"idempotent-writes":     0,
		"idempotent-rv-changed": 0,
		"max-concurrent":        5, // ten workers, five ovens
		"resync-writes":         0,
	}
	for name, w := range want {
		if got := rep.Numbers[name]; got != w {
			t.Errorf("%s = %d, want %d", name, got, w)
		}
	}
	if rep.Numbers["resyncs"] < 2 {
		t.Errorf("resyncs = %d, want a round over both cakes", rep.Numbers["resyncs"])
	}
	var resumed, logs bool
	for _, en := range rep.Entries {
		resumed = resumed || (en.Key == "haidian/marathon" && en.Event == "resume" && strings.Contains(en.Text, `"sponge"`))
		logs = logs || (en.Event == "log" && strings.Contains(en.Text, "开始搅拌面糊"))
	}
	if !resumed || !logs {
		t.Errorf("resumed from the sponge checkpoint: %v; debug log of the batter: %v", resumed, logs)
	}
}

func TestRushScalesBetweenMinAndMax(t *testing.T) {
	rep := runScene(t, "rush")
	r := rep.Replicas
	if len(r) == 0 {
		t.Fatal("the autoscaler never decided")
	}
	if slices.Min(r) < 2 || slices.Max(r) > 10 {
		t.Errorf("replicas %v outside 2..10", r)
	}
	if slices.Max(r) <= 2 || r[len(r)-1] != 2 {
		t.Errorf("replicas %v: want a scale-up during the rush and 2 at the end", r)
	}
	for k, c := range rep.Cakes {
		if meta.FindStatusCondition(c.Status.Conditions, bakery.ConditionDegraded) != nil && c.Spec.DecorationComplexity != "fancy" {
			t.Errorf("%s: simplified, but its decoration was %q", k, c.Spec.DecorationComplexity)
		}
	}
	if n, owned := rep.Numbers["bakers"], rep.Numbers["bakers-owned"]; n != r[len(r)-1] || owned != n {
		t.Errorf("%d bakers left, %d owned by the pool; want %d, all owned", n, owned, r[len(r)-1])
	}
	if n := rep.Numbers["bakers-after-pool"]; n != 0 {
		t.Errorf("%d bakers left after the pool was deleted; want the garbage collector to take them all", n)
	}
	if p, l := rep.Numbers["ovens-peak"], rep.Numbers["ovens-last"]; p <= 6 || p > 10 || l != 6 {
		t.Errorf("ovens peaked at %d and ended at %d; want spares turned on (at most 10) and off again (6)", p, l)
	}
	if len(rep.Outcomes) != 40 {
		t.Errorf("%d orders, want 40", len(rep.Outcomes))
	}
}

func TestBranchesEachOrderBakedOnce(t *testing.T) {
	rep := runScene(t, "branches")
	if n := rep.Numbers["foreign-trays"]; n != 0 {
		t.Errorf("%d trays in the wrong branch's kitchen", n)
	}
	completed := map[string]int{}
	for k, o := range rep.Outcomes {
		if cluster, order, ok := strings.Cut(k, ":"); ok && o == "Completed" {
			_ = cluster
			completed[order]++
		}
	}
	for _, name := range []string{"early-1", "early-2", "late-1", "late-2", "late-3", "late-4", "late-5", "late-6"} {
		if n := completed["downtown/"+name]; n != 1 {
			t.Errorf("downtown/%s completed on %d clusters, want exactly 1", name, n)
		}
	}
	if s, f := rep.Numbers["warehouse-shipped"], rep.Numbers["branch-fallbacks"]; s != 2 || f != 1 {
		t.Errorf("warehouse shipped %d, fallbacks %d; want 2 and 1 (three branches ran out, two portions)", s, f)
	}
	if rep.Numbers["restored"] == 0 {
		t.Error("no order was restored on west")
	}
	if len(rep.Refunds) != 0 {
		t.Errorf("refunds %v, want none: handed-over orders are not refunded", rep.Refunds)
	}
}

func TestMonitoringAlertFiresAndResolves(t *testing.T) {
	rep := runScene(t, "monitoring")
	if rep.Numbers["alert-fired"] != 1 || rep.Numbers["alert-resolved"] != 1 {
		t.Errorf("alert fired %d times, resolved %d times; want once each", rep.Numbers["alert-fired"], rep.Numbers["alert-resolved"])
	}
	var order []string
	for _, en := range rep.Entries {
		switch en.Event {
		case "fault", "alert-firing", "repair", "alert-resolved":
			order = append(order, en.Event)
		}
	}
	if diff := cmp.Diff([]string{"fault", "alert-firing", "repair", "alert-resolved"}, order); diff != "" {
		t.Errorf("alert timeline (-want +got):\n%s", diff)
	}
	// The story's HighReconcileLatency never fires: no reconcile waits
	// for the oven, so the p90 reconcile time stays far under 10 seconds.
	if n, under := rep.Numbers["reconcile-alert-fired"], rep.Numbers["reconcile-p90-under-threshold"]; n != 0 || under != 1 {
		t.Errorf("HighReconcileLatency fired %d times, p90 under the threshold: %d; want 0 and 1", n, under)
	}
}
