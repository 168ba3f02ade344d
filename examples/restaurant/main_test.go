package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/examples/internal/golden"
	"github.com/kitchensync/kitchensync/kitchen/dinner"
	"github.com/kitchensync/kitchensync/kitchen/kitchentest"
	"github.com/kitchensync/kitchensync/kitchen/narration"
)

// TestDinnerWithTheProgramsDefaults runs the service the program runs by
// default (seed 1, 30 orders), in virtual time, and checks the summary
// and the metrics it prints.
func TestDinnerWithTheProgramsDefaults(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var story bytes.Buffer
		s, err := dinner.Run(t.Context(), &story, dinner.Config{Seed: 1, Orders: 30, Verbosity: narration.HandOffs})
		if err != nil {
			t.Fatalf("%v\n%s", err, story.String())
		}
		if s.Served+s.Rejected+s.Cancelled != 30 || s.PantryErr != nil {
			t.Fatalf("summary: %+v", s)
		}
		for _, who := range []string{"[waiter]", "[apiserver]", "[runner]", "[rail]", "[chef]", "[cook]"} {
			if !strings.Contains(story.String(), who) {
				t.Errorf("nobody narrated as %s", who)
			}
		}
		var out bytes.Buffer
		s.Write(&out)
		if err := writeMetrics(&out, s.Counters); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{
			"dinner service (seed 1): 30 orders in",
			"pantry        balanced",
			`controller_runtime_reconcile_total{controller="chef",result="success"}`,
			`controller_runtime_reconcile_total{controller="brigade",result="success"}`,
		} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("missing %q in:\n%s", want, out.String())
			}
		}
	})
}

// TestSummaryGolden pins the summary of the program's default service
// (seed 1, 30 orders) — the lines a seed fixes — against
// testdata/seed1.golden, in virtual time but without a conductor, twice:
// the kitchen runs as concurrently as in the program, and the same seed
// still gives the same summary. Run with -update to rewrite the file
// after a change that is meant to alter the service.
func TestSummaryGolden(t *testing.T) {
	var got [2]string
	for i := range got {
		synctest.Test(t, func(t *testing.T) {
			s, err := dinner.Run(t.Context(), nil, dinner.Config{Seed: 1, Orders: 30, Verbosity: narration.Quiet})
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			s.WriteOutcomes(&out)
			got[i] = out.String()
		})
	}
	if diff := cmp.Diff(got[0], got[1]); diff != "" {
		t.Fatalf("two services of seed 1 differ (-first +second):\n%s", diff)
	}
	golden.Compare(t, "testdata/seed1.golden", got[0])
}

// TestNarrationGolden pins the whole narration of the program's default
// service (seed 1, 30 orders, hand-offs) and its whole summary, counters
// included, against testdata/seed1-narration.golden: in virtual time and
// one hand-off at a time (a kitchentest.Conductor, see package golden).
func TestNarrationGolden(t *testing.T) {
	golden.Check(t, "testdata/seed1-narration.golden", func(ctx context.Context, c *kitchentest.Conductor) (string, error) {
		var out bytes.Buffer
		s, err := dinner.Run(ctx, &out, dinner.Config{Seed: 1, Orders: 30, Verbosity: narration.HandOffs, Pacer: c})
		fmt.Fprintln(&out)
		s.Write(&out)
		return out.String(), err
	})
}

// Each bad command line is refused before anything runs: exit status 2,
// and a message that gives the valid range.
func TestBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-orders", "-5"}, "-5 is out of range: give one from 1 to 10000"},
		{[]string{"-orders", "0"}, "0 is out of range: give one from 1 to 10000"},
		{[]string{"-orders", "lots"}, "not a whole number: give one from 1 to 10000"},
		{[]string{"-speed", "0"}, "0s is out of range: give one from 1µs to 1m0s"},
		{[]string{"-speed", "-5ms"}, "-5ms is out of range"},
		{[]string{"-seed", "abc"}, `invalid value "abc" for flag -seed`},
		{[]string{"-v", "-q"}, "-v and -q: choose one"},
		{[]string{"-q", "extra"}, `unexpected argument "extra"`},
		{[]string{"-chef"}, "flag provided but not defined: -chef"},
	} {
		var out, errOut bytes.Buffer
		if code := run(tc.args, &out, &errOut); code != 2 {
			t.Errorf("run %q = %d, want 2", tc.args, code)
		}
		if !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("run %q said %q, want %q", tc.args, errOut.String(), tc.want)
		}
		if out.Len() != 0 {
			t.Errorf("run %q printed %q on stdout", tc.args, out.String())
		}
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"-h"}, &out, &errOut); code != 0 || !strings.Contains(errOut.String(), "usage: go run ./examples/restaurant") {
		t.Errorf("-h: exit %d, %q", code, errOut.String())
	}
}
