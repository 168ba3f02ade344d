package builtin_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

var (
	at      = meta.NewTime(time.Date(2026, 12, 2, 5, 0, 0, 0, time.UTC))
	micro   = builtin.NewMicroTime(time.Date(2026, 12, 2, 5, 0, 1, 123456000, time.UTC))
	objMeta = meta.ObjectMeta{Namespace: "dinner", Name: "t7.1", UID: "u-1", ResourceVersion: "9",
		Labels: map[string]string{"a": "b"}}
	regarding = builtin.ObjectReference{Kind: "Order", Namespace: "dinner", Name: "t7", UID: "u-7",
		APIVersion: "menu.example.com/v1", ResourceVersion: "8", FieldPath: "spec.lines[0]"}
)

// TestEventsV1Conversion: every field of each form lands on its namesake
// in the other, as Kubernetes converts them (message is note,
// involvedObject is regarding, source is deprecatedSource, ...), and
// converting back gives the object again.
func TestEventsV1Conversion(t *testing.T) {
	core := &builtin.Event{
		TypeMeta: meta.TypeMeta{APIVersion: "v1", Kind: "Event"}, ObjectMeta: objMeta,
		InvolvedObject: regarding, Reason: "Cooking", Message: "2 cooks at work",
		Source: builtin.EventSource{Component: "chef", Host: "node-1"}, FirstTimestamp: at, LastTimestamp: at,
		Count: 3, Type: builtin.EventTypeWarning, EventTime: micro,
		Series: &builtin.EventSeries{Count: 2, LastObservedTime: micro}, Action: "Cook",
		Related:             &builtin.ObjectReference{Kind: "Dish", Name: "soup"},
		ReportingController: "kitchensync.io/chef", ReportingInstance: "chef-1",
	}
	v1 := &builtin.EventsV1Event{
		TypeMeta: meta.TypeMeta{APIVersion: "events.k8s.io/v1", Kind: "Event"}, ObjectMeta: objMeta,
		EventTime: micro, Series: &builtin.EventsV1Series{Count: 2, LastObservedTime: micro},
		ReportingController: "kitchensync.io/chef", ReportingInstance: "chef-1", Action: "Cook", Reason: "Cooking",
		Regarding: regarding, Related: &builtin.ObjectReference{Kind: "Dish", Name: "soup"},
		Note: "2 cooks at work", Type: builtin.EventTypeWarning,
		DeprecatedSource:         builtin.EventSource{Component: "chef", Host: "node-1"},
		DeprecatedFirstTimestamp: at, DeprecatedLastTimestamp: at, DeprecatedCount: 3,
	}
	if diff := cmp.Diff(v1, builtin.EventToV1(core)); diff != "" {
		t.Errorf("core to events.k8s.io/v1 (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(core, builtin.EventFromV1(v1)); diff != "" {
		t.Errorf("events.k8s.io/v1 to core (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(core, builtin.EventFromV1(builtin.EventToV1(core))); diff != "" {
		t.Errorf("core round trip (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(v1, builtin.EventToV1(builtin.EventFromV1(v1))); diff != "" {
		t.Errorf("events.k8s.io/v1 round trip (-want +got):\n%s", diff)
	}
	out := builtin.EventToV1(core)
	out.Labels["a"], out.Related.Name = "changed", "changed"
	if core.Labels["a"] != "b" || core.Related.Name != "soup" {
		t.Error("the conversion shares memory with its argument")
	}
}

// TestEventsV1WireForm: a core Event written without the newer fields
// reads in events.k8s.io/v1 as the real server shows it: a null
// eventTime, no reportingController or reportingInstance, an empty
// regarding and deprecatedSource kept as objects.
func TestEventsV1WireForm(t *testing.T) {
	core := &builtin.Event{ObjectMeta: meta.ObjectMeta{Namespace: "dinner", Name: "old"}, Reason: "Cooking",
		Message: "m", Source: builtin.EventSource{Component: "chef"}, FirstTimestamp: at, Count: 2}
	b, err := json.Marshal(builtin.EventToV1(core))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"old","namespace":"dinner"},` +
		`"eventTime":null,"reason":"Cooking","regarding":{},"note":"m","deprecatedSource":{"component":"chef"},` +
		`"deprecatedFirstTimestamp":"2026-12-02T05:00:00Z","deprecatedLastTimestamp":null,"deprecatedCount":2}`
	if string(b) != want {
		t.Errorf("JSON:\n got %s\nwant %s", b, want)
	}
}

// TestEventsV1Validation: writes through events.k8s.io/v1 are held to the
// rules of new-style events, each cause naming its (core) field.
func TestEventsV1Validation(t *testing.T) {
	ok := builtin.EventFromV1(&builtin.EventsV1Event{ObjectMeta: meta.ObjectMeta{Namespace: "dinner", Name: "e"},
		EventTime: micro, ReportingController: "kitchensync.io/chef", ReportingInstance: "chef-1",
		Action: "Cook", Reason: "Cooking", Regarding: regarding, Type: builtin.EventTypeNormal})
	for _, tc := range []struct {
		name   string
		change func(e *builtin.Event)
		want   []string
	}{
		{"valid", func(*builtin.Event) {}, nil},
		{"bare", func(e *builtin.Event) { *e = builtin.Event{ObjectMeta: e.ObjectMeta, Type: "Normal"} },
			[]string{`involvedObject.namespace: Invalid value: "": does not match event.namespace`, "eventTime: Required value"}},
		{"new-style, nothing named", func(e *builtin.Event) {
			e.ReportingController, e.ReportingInstance, e.Action, e.Reason = "", "", "", ""
		}, []string{"reportingController: Required value",
			`reportingController: Invalid value: "": name part must be non-empty`,
			`reportingController: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', an…`,
			"reportingInstance: Required value",
			"action: Required value", "reason: Required value"}},
		{"too long", func(e *builtin.Event) {
			e.Action, e.Message = strings.Repeat("a", 129), strings.Repeat("m", 1025)
		}, []string{`action: Invalid value: "": can have at most 128 characters`,
			`message: Invalid value: "": can have at most 1024 characters`}},
		{"deprecated fields", func(e *builtin.Event) { e.Count, e.Source.Host, e.Type = 1, "h", "Odd" },
			[]string{`type: Invalid value: "": has invalid value: Odd`, `count: Invalid value: "": needs to be unset`,
				`source: Invalid value: "": needs to be unset`}},
		{"series", func(e *builtin.Event) { e.Series = &builtin.EventSeries{Count: 1} },
			[]string{`series.count: Invalid value: "": should be at least 2`, "series.lastObservedTime: Required value"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := ok.DeepCopyObject().(*builtin.Event)
			tc.change(e)
			if diff := cmp.Diff(tc.want, causes(builtin.ValidateEventsV1Create(e))); diff != "" {
				t.Errorf("causes (-want +got):\n%s", diff)
			}
		})
	}
	changed := ok.DeepCopyObject().(*builtin.Event)
	changed.Message, changed.Labels = "changed", map[string]string{"may": "change"}
	changed.Series = &builtin.EventSeries{Count: 2, LastObservedTime: micro}
	want := []string{`message: Invalid value: "changed": field is immutable`}
	if diff := cmp.Diff(want, causes(builtin.ValidateEventsV1Update(changed, ok))); diff != "" {
		t.Errorf("update causes (-want +got):\n%s", diff)
	}
}

// causes lists errs as "field: message", each cut at 110 bytes.
func causes(errs meta.FieldErrors) []string {
	var out []string
	for _, c := range errs {
		s := c.Field + ": " + c.Message
		if len(s) > 110 {
			s = s[:110] + "…"
		}
		out = append(out, s)
	}
	return out
}

// TestRegisterAllOrNothing: a scheme whose events.k8s.io/v1 events are
// taken already gets none of builtin's kinds; a second Register is
// refused too, and changes nothing.
func TestRegisterAllOrNothing(t *testing.T) {
	s := meta.NewScheme()
	taken := builtin.LeaseKind()
	taken.Group, taken.Kind, taken.Resource = builtin.EventsGroup, "Event", "events"
	if err := s.Register(taken); err != nil {
		t.Fatal(err)
	}
	if err := builtin.Register(s); !meta.IsInvalid(err) {
		t.Fatalf("Register = %v, want Invalid", err)
	}
	if _, ok := s.KindForResource(builtin.EventsResource); ok {
		t.Error("core/v1 events registered by a refused Register")
	}
	s = meta.NewScheme()
	if err := builtin.Register(s); err != nil {
		t.Fatal(err)
	}
	if err := builtin.Register(s); !meta.IsInvalid(err) {
		t.Errorf("second Register = %v, want Invalid", err)
	}
	if n := len(s.ServedVersions()); n != 1 {
		t.Errorf("%d served versions, want 1", n)
	}
}
