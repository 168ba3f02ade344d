package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

const (
	coreEvents = "/api/v1/namespaces/default/events"
	v1Events   = "/apis/events.k8s.io/v1/namespaces/default/events"
)

// eventsServer serves a scheme with builtin's kinds: Events in core/v1
// and events.k8s.io/v1.
func eventsServer(t *testing.T) (*apiserver.Server, *httptest.Server) {
	t.Helper()
	s := meta.NewScheme()
	if err := builtin.Register(s); err != nil {
		t.Fatal(err)
	}
	srv := apiserver.NewServer(s, apiserver.Options{})
	return srv, serve(t, srv)
}

// TestEventsInTwoVersions: an Event created in either version is the
// same object in the other (uid, name, resourceVersion), its fields
// renamed as Kubernetes converts them; a write in one is seen in the
// other; a delete in events.k8s.io/v1 names that group.
func TestEventsInTwoVersions(t *testing.T) {
	_, ts := eventsServer(t)
	created := do(t, ts, "POST", coreEvents, `{"metadata":{"name":"old"},"involvedObject":{"kind":"Pod","namespace":"default","name":"p"},`+
		`"reason":"Started","message":"m","source":{"component":"kubelet","host":"node-1"},"count":2,"type":"Normal",`+
		`"firstTimestamp":"2026-12-02T05:00:00Z","lastTimestamp":"2026-12-02T06:00:00Z"}`)
	read := do(t, ts, "GET", v1Events+"/old", "")
	want := decode(t, `{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"old","namespace":"default","uid":"<uid>",`+
		`"resourceVersion":"2","creationTimestamp":"<time>"},"eventTime":null,"reason":"Started",`+
		`"regarding":{"kind":"Pod","namespace":"default","name":"p"},"note":"m","type":"Normal",`+
		`"deprecatedSource":{"component":"kubelet","host":"node-1"},"deprecatedFirstTimestamp":"2026-12-02T05:00:00Z",`+
		`"deprecatedLastTimestamp":"2026-12-02T06:00:00Z","deprecatedCount":2}`)
	if diff := cmp.Diff(want, read.Body); read.Code != 200 || diff != "" {
		t.Errorf("core/v1 Event read in events.k8s.io/v1: %d (-want +got):\n%s", read.Code, diff)
	}
	if uid := created.Body.(map[string]any)["metadata"].(map[string]any)["uid"]; uid != "<uid>" {
		t.Errorf("uid %v", uid)
	}

	r := do(t, ts, "POST", v1Events, `{"metadata":{"name":"new"},"regarding":{"kind":"Pod","namespace":"default","name":"p"},`+
		`"eventTime":"2026-12-02T05:00:00.000000Z","reportingController":"kitchensync.io/chef","reportingInstance":"chef-1",`+
		`"action":"Cook","reason":"Cooking","note":"n","type":"Warning","related":{"kind":"Dish","name":"soup"}}`)
	if r.Code != 201 {
		t.Fatalf("create in events.k8s.io/v1: %d %s", r.Code, r.Raw)
	}
	read = do(t, ts, "GET", coreEvents+"/new", "")
	want = decode(t, `{"apiVersion":"v1","kind":"Event","metadata":{"name":"new","namespace":"default","uid":"<uid>",`+
		`"resourceVersion":"3","creationTimestamp":"<time>"},"involvedObject":{"kind":"Pod","namespace":"default","name":"p"},`+
		`"reason":"Cooking","message":"n","source":{},"firstTimestamp":null,"lastTimestamp":null,"type":"Warning",`+
		`"eventTime":"2026-12-02T05:00:00.000000Z","action":"Cook","related":{"kind":"Dish","name":"soup"},`+
		`"reportingComponent":"kitchensync.io/chef","reportingInstance":"chef-1"}`)
	if diff := cmp.Diff(want, read.Body); read.Code != 200 || diff != "" {
		t.Errorf("events.k8s.io/v1 Event read in core/v1: %d (-want +got):\n%s", read.Code, diff)
	}

	r = do(t, ts, "PATCH", coreEvents+"/new", `{"message":"changed in core"}`, "Content-Type", "application/merge-patch+json")
	read = do(t, ts, "GET", v1Events+"/new", "")
	if note := read.Body.(map[string]any)["note"]; r.Code != 200 || note != "changed in core" {
		t.Errorf("a core/v1 patch read in events.k8s.io/v1: %d, note %v", r.Code, note)
	}
	r = do(t, ts, "DELETE", v1Events+"/new", "")
	want = decode(t, `{"apiVersion":"v1","kind":"Status","status":"Success","details":{"name":"new","group":"events.k8s.io","kind":"events","uid":"<uid>"}}`)
	if diff := cmp.Diff(want, r.Body); diff != "" {
		t.Errorf("delete in events.k8s.io/v1 (-want +got):\n%s", diff)
	}
	r = do(t, ts, "GET", coreEvents+"/new", "")
	if r.Code != 404 {
		t.Errorf("deleted in events.k8s.io/v1, still in core/v1: %d", r.Code)
	}
}

// TestEventsV1WritesAreStricter: events.k8s.io/v1 holds a write to the
// rules of new-style events, with the real server's error (naming the
// stored kind, Event); nothing is stored. An update may not change what
// the event said, but may grow its series.
func TestEventsV1WritesAreStricter(t *testing.T) {
	srv, ts := eventsServer(t)
	r := do(t, ts, "POST", v1Events, `{"metadata":{"name":"bare"},"type":"Normal"}`)
	want := decode(t, `{"apiVersion":"v1","kind":"Status","status":"Failure","code":422,"reason":"Invalid",`+
		`"message":"Event \"bare\" is invalid: eventTime: Required value","details":{"name":"bare","kind":"Event",`+
		`"causes":[{"reason":"FieldValueRequired","message":"Required value","field":"eventTime"}]}}`)
	if diff := cmp.Diff(want, r.Body); diff != "" {
		t.Errorf("bare create (-want +got):\n%s", diff)
	}
	if rv := srv.ResourceVersion(); rv != "1" {
		t.Errorf("a refused create wrote: resourceVersion %s", rv)
	}
	good := `{"metadata":{"name":"e"},"regarding":{"kind":"Pod","namespace":"default","name":"p"},` +
		`"eventTime":"2026-12-02T05:00:00.000000Z","reportingController":"kitchensync.io/chef","reportingInstance":"chef-1",` +
		`"action":"Cook","reason":"Cooking","note":"n","type":"Normal"`
	if r := do(t, ts, "POST", v1Events, good+"}"); r.Code != 201 {
		t.Fatalf("create: %d %s", r.Code, r.Raw)
	}
	r = do(t, ts, "PUT", v1Events+"/e", `{"metadata":{"name":"e"},"regarding":{"kind":"Pod","namespace":"default","name":"other"},`+
		`"eventTime":"2026-12-02T05:00:00.000000Z","reportingController":"kitchensync.io/chef","reportingInstance":"chef-1",`+
		`"action":"Cook","reason":"Cooking","note":"n","type":"Normal"}`)
	if msg := r.Body.(map[string]any)["message"]; r.Code != 422 ||
		msg != `Event "e" is invalid: involvedObject: Invalid value: {"kind":"Pod","namespace":"default","name":"other"}: field is immutable` {
		t.Errorf("changing regarding: %d %v", r.Code, msg)
	}
	r = do(t, ts, "PUT", v1Events+"/e", good+`,"series":{"count":2,"lastObservedTime":"2026-12-02T05:01:00.000000Z"}}`)
	if r.Code != 200 || r.Body.(map[string]any)["series"] == nil {
		t.Errorf("growing the series: %d %s", r.Code, r.Raw)
	}
	r = do(t, ts, "PATCH", v1Events+"/e?fieldManager=m&force=true", `{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e"},"note":"changed"}`,
		"Content-Type", "application/apply-patch+yaml")
	if msg := r.Body.(map[string]any)["message"]; r.Code != 422 ||
		msg != `Event "e" is invalid: message: Invalid value: "changed": field is immutable` {
		t.Errorf("an apply in events.k8s.io/v1 that changes the note: %d %v", r.Code, msg)
	}
}

// managedFieldsOf summarises an answer's managedFields: "manager
// operation apiVersion fieldsV1" each.
func managedFieldsOf(t *testing.T, r response) []string {
	t.Helper()
	var obj struct{ Metadata meta.ObjectMeta }
	if err := json.Unmarshal([]byte(r.Raw), &obj); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range obj.Metadata.ManagedFields {
		out = append(out, fmt.Sprintf("%s %s %s %s", e.Manager, e.Operation, e.APIVersion, e.FieldsV1))
	}
	return out
}

// TestEventsV1ServerSideApply: a server-side apply in events.k8s.io/v1
// takes a configuration in that version, creates (201), re-applies as a
// no-op, and records the manager's fields in that version's names, as
// kube-apiserver does; a write in core/v1 then takes a field from it
// across the versions (message is note), and an apply that would change
// it back conflicts, naming the field in its owner's version.
func TestEventsV1ServerSideApply(t *testing.T) {
	_, ts := eventsServer(t)
	config := `{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e"},"regarding":{"kind":"Pod","namespace":"default","name":"p"},` +
		`"eventTime":"2026-12-02T05:00:00.000000Z","reportingController":"kitchensync.io/chef","reportingInstance":"chef-1",` +
		`"action":"Cook","reason":"Cooking","note":"%s","type":"Normal"}`
	apply := func(manager, note string) response {
		return do(t, ts, "PATCH", v1Events+"/e?fieldManager="+manager, fmt.Sprintf(config, note), "Content-Type", "application/apply-patch+yaml")
	}
	first := apply("chef", "2 cooks")
	want := []string{`chef Apply events.k8s.io/v1 {"f:action":{},"f:eventTime":{},"f:note":{},"f:reason":{},` +
		`"f:regarding":{},"f:reportingController":{},"f:reportingInstance":{},"f:type":{}}`}
	if diff := cmp.Diff(want, managedFieldsOf(t, first)); diff != "" || first.Code != 201 {
		t.Fatalf("apply: %d, managedFields (-want +got):\n%s", first.Code, diff)
	}
	if again := apply("chef", "2 cooks"); again.Code != 200 || !cmp.Equal(again.Body, first.Body) {
		t.Errorf("re-apply: %d, changed:\n%s", again.Code, cmp.Diff(first.Body, again.Body))
	}

	core := do(t, ts, "PATCH", coreEvents+"/e?fieldManager=waiter", `{"message":"3 cooks"}`, "Content-Type", "application/merge-patch+json")
	want = []string{
		`chef Apply events.k8s.io/v1 {"f:action":{},"f:eventTime":{},"f:reason":{},` +
			`"f:regarding":{},"f:reportingController":{},"f:reportingInstance":{},"f:type":{}}`,
		`waiter Update v1 {"f:message":{}}`,
	}
	if diff := cmp.Diff(want, managedFieldsOf(t, core)); diff != "" {
		t.Errorf("after a core/v1 write of message: managedFields (-want +got):\n%s", diff)
	}
	conflict := apply("chef", "2 cooks")
	const msg = `Apply failed with 1 conflict: conflict with "waiter" using v1: .message`
	if got := conflict.Body.(map[string]any)["message"]; conflict.Code != 409 || got != msg {
		t.Errorf("apply of note against message's owner: %d %v, want 409 %s", conflict.Code, got, msg)
	}
	if r := do(t, ts, "GET", coreEvents+"/e", ""); !slices.Contains(managedFieldsOf(t, r), want[1]) {
		t.Errorf("managedFields read in core/v1 differ: %v", managedFieldsOf(t, r))
	}
}

// TestEventsV1FieldSelectors: events.k8s.io/v1 takes its own names for
// the field selectors (regarding.name, reportingController), not core's.
func TestEventsV1FieldSelectors(t *testing.T) {
	_, ts := eventsServer(t)
	for _, name := range []string{"a", "b"} {
		body := `{"metadata":{"name":"` + name + `"},"involvedObject":{"kind":"Pod","namespace":"default","name":"` + name +
			`"},"reason":"Started","reportingComponent":"kubelet"}`
		if r := do(t, ts, "POST", coreEvents, body); r.Code != 201 {
			t.Fatalf("create: %d %s", r.Code, r.Raw)
		}
	}
	names := func(path string) (int, []string) {
		r := do(t, ts, "GET", path, "")
		var out []string
		if items, ok := r.Body.(map[string]any)["items"].([]any); ok {
			for _, item := range items {
				out = append(out, item.(map[string]any)["metadata"].(map[string]any)["name"].(string))
			}
		}
		return r.Code, out
	}
	for path, want := range map[string][]string{
		v1Events + "?fieldSelector=regarding.name%3Db":                             {"b"},
		v1Events + "?fieldSelector=reportingController%3Dkubelet,reason%3DStarted": {"a", "b"},
		"/apis/events.k8s.io/v1/events?fieldSelector=regarding.name!%3Db":          {"a"},
	} {
		if code, got := names(path); code != 200 || !cmp.Equal(want, got) {
			t.Errorf("%s: %d %v, want %v", path, code, got, want)
		}
	}
	r := do(t, ts, "GET", v1Events+"?fieldSelector=involvedObject.name%3Db", "")
	if msg := r.Body.(map[string]any)["message"]; r.Code != 400 || msg != "field label not supported: involvedObject.name" {
		t.Errorf("a core field name in events.k8s.io/v1: %d %v", r.Code, msg)
	}
	r = do(t, ts, "DELETE", v1Events+"?fieldSelector=regarding.name%3Da", "")
	list := r.Body.(map[string]any)
	if r.Code != 200 || list["kind"] != "EventList" || list["apiVersion"] != "events.k8s.io/v1" ||
		len(list["items"].([]any)) != 1 || list["items"].([]any)[0].(map[string]any)["regarding"] == nil {
		t.Errorf("deletecollection in events.k8s.io/v1: %d %s", r.Code, r.Raw)
	}
	if code, got := names(coreEvents); code != 200 || !cmp.Equal([]string{"b"}, got) {
		t.Errorf("after deletecollection, core/v1 lists %d %v, want [b]", code, got)
	}
}

// TestEventsV1WatchSeesCoreWrites: a watch in events.k8s.io/v1 sees the
// Events written in core/v1, converted.
func TestEventsV1WatchSeesCoreWrites(t *testing.T) {
	srv, ts := eventsServer(t)
	s := watch(t, ts.URL+v1Events+"?watch=true&resourceVersion=1")
	core := client.New[*builtin.Event](srv).Namespace("default")
	e := &builtin.Event{ObjectMeta: meta.ObjectMeta{Name: "e"}, Reason: "Started", Message: "m",
		InvolvedObject: builtin.ObjectReference{Kind: "Pod", Namespace: "default", Name: "p"}}
	ctx := context.Background()
	if _, err := core.Create(ctx, e, meta.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := core.Delete(ctx, "e", meta.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	event := func(typ, rv string) string {
		return `{"type":"` + typ + `","object":{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e",` +
			`"namespace":"default","uid":"<uid>","resourceVersion":"` + rv + `","creationTimestamp":"<time>"},"eventTime":null,` +
			`"reason":"Started","regarding":{"kind":"Pod","namespace":"default","name":"p"},"note":"m",` +
			`"deprecatedSource":{},"deprecatedFirstTimestamp":null,"deprecatedLastTimestamp":null}}`
	}
	s.expect(event("ADDED", "2"), event("DELETED", "3"))
}

// TestEventsV1Discovery: discovery lists events.k8s.io beside the core
// group, its Events with core/v1's storage version hash (one stored
// object) and kubectl's short name.
func TestEventsV1Discovery(t *testing.T) {
	_, ts := eventsServer(t)
	r := do(t, ts, "GET", "/apis/events.k8s.io", "")
	want := decode(t, `{"kind":"APIGroup","apiVersion":"v1","name":"events.k8s.io",`+
		`"versions":[{"groupVersion":"events.k8s.io/v1","version":"v1"}],"preferredVersion":{"groupVersion":"events.k8s.io/v1","version":"v1"}}`)
	if diff := cmp.Diff(want, r.Body); diff != "" {
		t.Errorf("group (-want +got):\n%s", diff)
	}
	r = do(t, ts, "GET", "/apis/events.k8s.io/v1", "")
	want = decode(t, `{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"events.k8s.io/v1","resources":[`+
		`{"name":"events","singularName":"event","namespaced":true,"kind":"Event","shortNames":["ev"],`+
		`"verbs":["create","delete","deletecollection","get","list","patch","update","watch"],"storageVersionHash":"r2yiGXH7wu8="}]}`)
	if diff := cmp.Diff(want, r.Body); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
}
