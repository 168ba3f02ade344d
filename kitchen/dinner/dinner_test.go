package dinner_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/dinner"
	"github.com/kitchensync/kitchensync/kitchen/narration"
)

func runDinner(t *testing.T, cfg dinner.Config) (dinner.Summary, string) {
	t.Helper()
	var out bytes.Buffer
	var s dinner.Summary
	synctest.Test(t, func(t *testing.T) {
		var err error
		if s, err = dinner.Run(t.Context(), &out, cfg); err != nil {
			t.Fatalf("dinner: %v\n%s", err, out.String())
		}
	})
	return s, out.String()
}

func TestDinnerEndsWellAndBalances(t *testing.T) {
	s, story := runDinner(t, dinner.Config{Seed: 7, Orders: 20, Verbosity: narration.HandOffs})
	if len(s.Outcomes) != s.Orders || s.Served+s.Rejected+s.Cancelled != s.Orders {
		t.Fatalf("not every order reached a final phase: %+v", s)
	}
	for name, phase := range s.Outcomes {
		if !phase.Final() {
			t.Errorf("%s ended %s", name, phase)
		}
	}
	if s.PantryErr != nil {
		t.Errorf("pantry: %v", s.PantryErr)
	}
	if s.Served == 0 || s.Rejected == 0 || s.Cancelled == 0 {
		t.Errorf("seed 7 should serve, reject and cancel some: %+v", s)
	}
	if s.Counters.APIRequests >= s.PollingRequests {
		t.Errorf("the runner should save requests: %d made, polling %d", s.Counters.APIRequests, s.PollingRequests)
	}
	// One served order, followed through every component in order.
	var served string
	for name, phase := range s.Outcomes {
		if phase == kitchen.OrderServed && (served == "" || name < served) {
			served = name
		}
	}
	checkHandOffs(t, story, served)
}

// checkHandOffs checks that the narration follows the order through each
// component, in the order of the data flow.
func checkHandOffs(t *testing.T, story, order string) {
	t.Helper()
	steps := []string{
		`\[waiter\] .*orders .*: create ` + order + `$`,
		`\[apiserver\] ADDED dinner/` + order + ` \(rv \d+`,
		`\[runner\] cache: dinner/` + order + ` now at rv \d+ \(Added\)`,
		`\[rail\] .*ticket dinner/` + order + ` pinned`,
		`\[chef\] .*dinner/` + order + `: compares order`,
		`\[chef\] .*dinner/` + order + `: asks for cook ` + order,
		`\[apiserver\] .*ADDED cook dinner/` + order,
		`\[cook\] .*dinner/` + order + `-\d+-g\d+: cooks`,
		`\[cook\] .*dinner/` + order + `-\d+-g\d+: .* at the pass`,
		`\[rail\] .*ticket dinner/` + order + ` (pinned|is already waiting)`,
		`\[chef\] .*dinner/` + order + `: status .*→ Served`,
	}
	lines := strings.Split(story, "\n")
	at := 0
	for _, step := range steps {
		re := regexp.MustCompile(step)
		for at < len(lines) && !re.MatchString(strings.Join(strings.Fields(lines[at]), " ")) {
			at++
		}
		if at == len(lines) {
			t.Fatalf("the narration of %s misses %q (in order):\n%s", order, step, story)
		}
	}
}

func TestDinnerIsDeterministic(t *testing.T) {
	cfg := dinner.Config{Seed: 3, Orders: 15}
	a, _ := runDinner(t, cfg)
	b, _ := runDinner(t, cfg)
	if diff := cmp.Diff(a, b, cmpopts.IgnoreFields(dinner.Summary{}, "Counters")); diff != "" {
		t.Errorf("the same seed gave two summaries (-first +second):\n%s", diff)
	}
	c, _ := runDinner(t, dinner.Config{Seed: 4, Orders: 15})
	if cmp.Equal(a.Outcomes, c.Outcomes) && a.LatencyP50 == c.LatencyP50 && a.Length == c.Length {
		t.Errorf("seeds 3 and 4 gave the same service")
	}
}
