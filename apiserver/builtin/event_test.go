package builtin_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// TestEventWireForm pins the JSON of an Event: core/v1's field names
// (reportingComponent for ReportingController), seconds for the
// timestamps, null for the unset eventTime.
func TestEventWireForm(t *testing.T) {
	at := meta.NewTime(time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC))
	e := &builtin.Event{
		TypeMeta:   meta.TypeMeta{APIVersion: "v1", Kind: "Event"},
		ObjectMeta: meta.ObjectMeta{Namespace: "dinner", Name: "table-7.1"},
		InvolvedObject: builtin.ObjectReference{Kind: "Order", Namespace: "dinner", Name: "table-7",
			UID: "u-1", APIVersion: "menu.example.com/v1"},
		Reason: "Cooking", Message: "2 cooks at work", Source: builtin.EventSource{Component: "chef"},
		FirstTimestamp: at, LastTimestamp: at, Count: 1, Type: builtin.EventTypeNormal,
		ReportingController: "chef", ReportingInstance: "chef-1",
	}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"apiVersion":"v1","kind":"Event","metadata":{"name":"table-7.1","namespace":"dinner"},` +
		`"involvedObject":{"kind":"Order","namespace":"dinner","name":"table-7","uid":"u-1","apiVersion":"menu.example.com/v1"},` +
		`"reason":"Cooking","message":"2 cooks at work","source":{"component":"chef"},` +
		`"firstTimestamp":"2026-12-01T20:00:00Z","lastTimestamp":"2026-12-01T20:00:00Z","count":1,"type":"Normal",` +
		`"eventTime":null,"reportingComponent":"chef","reportingInstance":"chef-1"}`
	if string(b) != want {
		t.Errorf("JSON:\n got %s\nwant %s", b, want)
	}
	var back builtin.Event
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(e, &back, cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })); diff != "" {
		t.Errorf("read back (-sent +read):\n%s", diff)
	}
	if diff := cmp.Diff(e, e.DeepCopyObject()); diff != "" {
		t.Errorf("deep copy differs:\n%s", diff)
	}
}

// TestEventsSelectableByInvolvedObject: `kubectl describe` finds an
// object's events with a field selector on involvedObject; a bad event is
// refused naming the field.
func TestEventsSelectableByInvolvedObject(t *testing.T) {
	s := meta.NewScheme()
	if err := builtin.Register(s); err != nil {
		t.Fatal(err)
	}
	srv := apiserver.NewServer(s, apiserver.Options{})
	events := srv.Resource(builtin.EventsResource).Namespace("dinner")
	for _, name := range []string{"table-7", "table-8"} {
		e := &builtin.Event{ObjectMeta: meta.ObjectMeta{Name: name + ".1"},
			InvolvedObject: builtin.ObjectReference{Kind: "Order", Namespace: "dinner", Name: name}, Reason: "Cooking"}
		if _, err := events.Create(t.Context(), e, meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	list, err := events.List(t.Context(), meta.ListOptions{
		FieldSelector: "involvedObject.kind=Order,involvedObject.name=table-7,involvedObject.namespace=dinner"})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 || list.Items[0].GetObjectMeta().Name != "table-7.1" {
		t.Errorf("selected %d events, want table-7.1 alone", len(list.Items))
	}
	// As on kube-apiserver, an old-style event may have any type, but must
	// be in its object's namespace.
	info := &builtin.Event{ObjectMeta: meta.ObjectMeta{Name: "info"}, Type: "Info",
		InvolvedObject: builtin.ObjectReference{Kind: "Order", Namespace: "dinner", Name: "table-7"}}
	if _, err := events.Create(t.Context(), info, meta.CreateOptions{}); err != nil {
		t.Errorf("Create of an event of type Info = %v, want it created", err)
	}
	bad := &builtin.Event{ObjectMeta: meta.ObjectMeta{Name: "x"},
		InvolvedObject: builtin.ObjectReference{Kind: "Order", Namespace: "lunch", Name: "table-7"}}
	_, err = events.Create(t.Context(), bad, meta.CreateOptions{})
	want := `Event "x" is invalid: involvedObject.namespace: Invalid value: "lunch": does not match event.namespace`
	if !meta.IsInvalid(err) || err.Error() != want {
		t.Errorf("Create = %v, want %s", err, want)
	}
}
