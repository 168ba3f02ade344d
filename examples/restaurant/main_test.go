package main

import (
	"bytes"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/kitchensync/kitchensync/kitchen"
)

// TestDinnerWithTheProgramsDefaults runs the service the program runs by
// default (seed 1, 30 orders), in virtual time, and checks the summary
// and the metrics it prints.
func TestDinnerWithTheProgramsDefaults(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var story bytes.Buffer
		s, err := kitchen.RunDinner(t.Context(), &story, kitchen.DinnerConfig{Seed: 1, Orders: 30, Verbosity: kitchen.HandOffs})
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
