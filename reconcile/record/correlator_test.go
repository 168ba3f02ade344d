package record_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/reconcile/record"
)

var t0 = time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)

func note(name, reason, message string) *builtin.Event {
	return &builtin.Event{
		ObjectMeta:     meta.ObjectMeta{Namespace: "dinner", Name: name},
		InvolvedObject: builtin.ObjectReference{Kind: "Order", Namespace: "dinner", Name: "table-7", UID: "u1"},
		Reason:         reason, Message: message, Type: builtin.EventTypeNormal,
		Source: builtin.EventSource{Component: "chef"},
	}
}

// A repeat is the first event again, with its name, count+1 and a patch.
func TestCorrelatorDeduplicates(t *testing.T) {
	c := record.NewCorrelator()
	first := c.Correlate(note("table-7.1", "Cooking", "2 cooks"), t0)
	if first.Skip || first.Patch != nil || first.Event.Count != 1 {
		t.Fatalf("first = %+v, want a create with count 1", first)
	}
	again := c.Correlate(note("table-7.2", "Cooking", "2 cooks"), t0.Add(time.Minute))
	if again.Event.Name != "table-7.1" || again.Event.Count != 2 || !again.Event.FirstTimestamp.Equal(t0) {
		t.Errorf("repeat = %s count %d first %v, want table-7.1 count 2 first %v",
			again.Event.Name, again.Event.Count, again.Event.FirstTimestamp, t0)
	}
	want := `{"count":2,"lastTimestamp":"2026-12-01T20:01:00Z","message":"2 cooks"}`
	if string(again.Patch) != want {
		t.Errorf("patch = %s, want %s", again.Patch, want)
	}
	other := c.Correlate(note("table-7.3", "Served", "at the table"), t0.Add(time.Minute))
	if other.Patch != nil || other.Event.Name != "table-7.3" {
		t.Errorf("a different reason = %+v, want a new event", other)
	}
}

// The tenth distinct message for one (object, type, reason) within ten
// minutes starts a combined event; later ones raise its count.
func TestCorrelatorAggregatesSimilarEvents(t *testing.T) {
	c := record.NewCorrelator()
	var got []string
	for i := range 12 {
		r := c.Correlate(note(fmt.Sprintf("table-7.%d", i), "Restarted", fmt.Sprintf("item %d", i)), t0.Add(time.Duration(i)*time.Second))
		got = append(got, fmt.Sprintf("%s %d %q patch=%v", r.Event.Name, r.Event.Count, r.Event.Message, r.Patch != nil))
	}
	for i, want := range map[int]string{
		8:  `table-7.8 1 "item 8" patch=false`,
		9:  `table-7.9 1 "(combined from similar events): item 9" patch=false`,
		10: `table-7.9 2 "(combined from similar events): item 10" patch=true`,
		11: `table-7.9 3 "(combined from similar events): item 11" patch=true`,
	} {
		if got[i] != want {
			t.Errorf("event %d = %s, want %s", i, got[i], want)
		}
	}
	late := c.Correlate(note("table-7.99", "Restarted", "item 99"), t0.Add(time.Hour))
	if late.Patch != nil || late.Event.Message != "item 99" {
		t.Errorf("after the interval = %q patch=%v, want a fresh event", late.Event.Message, late.Patch != nil)
	}
}

// 25 events of one object pass at once, the 26th is dropped, and one more
// passes five minutes later.
func TestCorrelatorRateLimitsPerObject(t *testing.T) {
	c := record.NewCorrelator()
	skipped := 0
	for i := range 26 {
		if c.Correlate(note(fmt.Sprintf("e%d", i), fmt.Sprintf("R%d", i), "m"), t0).Skip {
			skipped++
		}
	}
	if skipped != 1 {
		t.Errorf("skipped %d of 26 at one instant, want 1", skipped)
	}
	if c.Correlate(note("late", "Late", "m"), t0.Add(5*time.Minute)).Skip {
		t.Errorf("an event five minutes later was skipped, want a refilled token")
	}
}
