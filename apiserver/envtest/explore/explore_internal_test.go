package explore

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

func noop(context.Context, Conn) error               { return nil }
func noStep(context.Context, client.Interface) error { return nil }

// okScenario is a well-formed scenario for the tests to break.
func okScenario() Scenario {
	return Scenario{
		Kinds:       []meta.KindInfo{apiservertest.WidgetKind()},
		Controllers: []Controller{{Name: "ctrl", Start: noop}},
		Workload:    []Step{{Name: "one", Do: noStep}},
	}
}

// TestValidateNamesTheField: a malformed scenario is refused before any
// run, with an error naming the field.
func TestValidateNamesTheField(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(*Scenario)
		field string
	}{
		{"no controller", func(s *Scenario) { s.Controllers = nil }, "Scenario.Controllers:"},
		{"empty name", func(s *Scenario) { s.Controllers[0].Name = "" }, "Scenario.Controllers[0].Name:"},
		{"name with a slash", func(s *Scenario) { s.Controllers[0].Name = "a/b" }, "Scenario.Controllers[0].Name:"},
		{"the workload's name", func(s *Scenario) { s.Controllers[0].Name = "user" }, "Scenario.Controllers[0].Name:"},
		{"twice the same name", func(s *Scenario) { s.Controllers = append(s.Controllers, s.Controllers[0]) }, "Scenario.Controllers[1].Name:"},
		{"no start", func(s *Scenario) { s.Controllers[0].Start = nil }, "Scenario.Controllers[0].Start:"},
		{"a step without Do", func(s *Scenario) { s.Workload[0].Do = nil }, "Scenario.Workload[0].Do:"},
		{"a setup step without Do", func(s *Scenario) { s.Setup = []Step{{Name: "x"}} }, "Scenario.Setup[0].Do:"},
		{"an invariant without Check", func(s *Scenario) { s.Invariants = []Invariant{{Name: "x"}} }, "Scenario.Invariants[0].Check:"},
		{"a kind twice", func(s *Scenario) { s.Kinds = append(s.Kinds, s.Kinds[0]) }, "Scenario.Kinds:"},
	} {
		s := okScenario()
		tc.edit(&s)
		err := validate(s)
		if err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s: validate = %v, want an error naming %s", tc.name, err, tc.field)
		}
	}
	if err := validate(okScenario()); err != nil {
		t.Errorf("a well-formed scenario: %v", err)
	}
}

// TestReplayPlanMustFitTheScenario: a plan to replay that names what the
// scenario does not have is refused, naming the part.
func TestReplayPlanMustFitTheScenario(t *testing.T) {
	x := &explorer{s: okScenario()}
	for line, want := range map[string]string{
		"crash:other@1.w1":       `no controller "other"`,
		"lag:ctrl/gadgets@1.e1":  `no resource "gadgets"`,
		"crash:ctrl@2.w1":        "the workload has 1 steps",
		"lag:ctrl/widgets@1.e1":  "",
		"crash:ctrl@1.w1,skip:1": "",
	} {
		_, err := x.parsePlan(line)
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("parsePlan(%q) = %v, want %q", line, err, want)
		}
	}
}

// nopOutlet records nothing; coalescing only retypes through it.
type nopOutlet struct{}

func (nopOutlet) ready() bool  { return true }
func (nopOutlet) deliver(item) {}
func (nopOutlet) retype(it item, typ meta.EventType) item {
	it.typ = typ
	return it
}
func (nopOutlet) expire() {}
func (nopOutlet) close()  {}

// TestCoalesce: of a burst, only the last state of each object remains,
// typed as a relist would show it to an informer that knew what it knew.
func TestCoalesce(t *testing.T) {
	var s scheduler
	inc := &incarnation{}
	st := &stream{ctrl: &ctrlState{}, inc: inc, known: map[string]bool{"ns/known": true, "ns/gone": true}}
	w := s.addWatch(st, nopOutlet{}, func() {})
	for i, ev := range []struct {
		typ meta.EventType
		key string
	}{
		{meta.EventModified, "ns/known"},   // known, changed twice: one MODIFIED
		{meta.EventAdded, "ns/new"},        // new, changed: one ADDED with the last state
		{meta.EventAdded, "ns/fleeting"},   // came and went: nothing
		{meta.EventModified, "ns/known"},   //
		{meta.EventModified, "ns/new"},     //
		{meta.EventDeleted, "ns/fleeting"}, //
		{meta.EventModified, "ns/gone"},    // known, then deleted: DELETED
		{meta.EventDeleted, "ns/gone"},     //
	} {
		s.push(w, item{typ: ev.typ, key: ev.key, rv: int64(i + 1)})
	}
	if dropped := s.coalesceLocked(st); dropped != 5 {
		t.Errorf("dropped %d events, want 5", dropped)
	}
	type kept struct {
		Type meta.EventType
		Key  string
		RV   int64
	}
	var got []kept
	for _, it := range w.pending {
		got = append(got, kept{it.typ, it.key, it.rv})
	}
	want := []kept{{meta.EventModified, "ns/known", 4}, {meta.EventAdded, "ns/new", 5}, {meta.EventDeleted, "ns/gone", 8}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("coalesced (-want +got):\n%s", diff)
	}
}

// TestFrames: a JSON watch line is read as an item, and retyped and
// expired as JSON lines.
func TestFrames(t *testing.T) {
	line := []byte(`{"type":"MODIFIED","object":{"kind":"Widget","metadata":{"namespace":"ns","name":"w","resourceVersion":"7"}}}` + "\n")
	it := frameItem(line)
	if it.typ != meta.EventModified || it.key != "ns/w" || it.rv != 7 {
		t.Fatalf("frameItem = %v %q %d, want MODIFIED ns/w 7", it.typ, it.key, it.rv)
	}
	o := &frameOutlet{ch: make(chan []byte, 1)}
	added := o.retype(it, meta.EventAdded)
	if back := frameItem(added.raw); back.typ != meta.EventAdded || back.key != "ns/w" || back.rv != 7 {
		t.Errorf("retyped = %s, want ADDED ns/w 7", added.raw)
	}
	o.expire()
	if got := string(<-o.ch); !strings.Contains(got, `"type":"ERROR"`) || !strings.Contains(got, `"code":410`) {
		t.Errorf("expire sent %s, want an ERROR event with a 410", got)
	}
}

// TestReplayLineNamesThePackage: the replay line names the test's
// package as go test takes it from the module's root, so that it runs
// from there as printed; a call off the test's goroutine names none.
func TestReplayLineNamesThePackage(t *testing.T) {
	pkg := testPackage()
	if pkg != "./apiserver/envtest/explore" {
		t.Errorf("testPackage() = %q, want ./apiserver/envtest/explore", pkg)
	}
	t.Run("a subtest", func(t *testing.T) {
		if got := testPackage(); got != pkg {
			t.Errorf("in a subtest, testPackage() = %q, want %q", got, pkg)
		}
	})
	off := make(chan string)
	go func() { off <- testPackage() }()
	if got := <-off; got != "" {
		t.Errorf("off the test's goroutine, testPackage() = %q, want \"\"", got)
	}
	plan, err := ParsePlan("crash:ctrl@2.w1,skip:3")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ pkg, test, want string }{
		{pkg, "TestGallery/stale_cache", `go test ./apiserver/envtest/explore -run '^TestGallery$/^stale_cache$' -explore.plan='crash:ctrl@2.w1,skip:3'`},
		{".", "TestX", `go test . -run '^TestX$' -explore.plan='crash:ctrl@2.w1,skip:3'`},
		{"", "Test.X", `go test -run '^Test\.X$' -explore.plan='crash:ctrl@2.w1,skip:3'`},
	} {
		if got := replayLine(tc.pkg, tc.test, plan); got != tc.want {
			t.Errorf("replayLine(%q, %q) = %s, want %s", tc.pkg, tc.test, got, tc.want)
		}
	}
}
