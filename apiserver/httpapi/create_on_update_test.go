package httpapi_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
)

// A PUT that creates (a Lease: its kind allows create on update) and a
// server-side apply that creates answer 201 Created, as kube-apiserver
// does; the writes after them answer 200; a merge patch or a PUT of a
// missing custom resource is 404.
func TestCreateOnUpdateCodes(t *testing.T) {
	srv := apiservertest.NewServer(t)
	if err := srv.Scheme().Register(builtin.LeaseKind()); err != nil {
		t.Fatal(err)
	}
	ts := serve(t, srv)
	const leases = "/apis/coordination.k8s.io/v1/namespaces/default/leases/"
	const widgetPath = "/apis/test.kitchensync.io/v1/namespaces/default/widgets/"
	lease := `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"l","resourceVersion":"42"},"spec":{"holderIdentity":"a"}}`
	apply := `{"apiVersion":"test.kitchensync.io/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"color":"red"}}`
	json, merge, ssa := []string{"Content-Type", "application/json"}, []string{"Content-Type", "application/merge-patch+json"},
		[]string{"Content-Type", "application/apply-patch+yaml"}
	first := do(t, ts, "PUT", leases+"l", lease, json...)
	codes := map[string]int{
		"PUT missing lease":     first.Code,
		"PUT lease again":       do(t, ts, "PUT", leases+"l", `{"metadata":{"name":"l","resourceVersion":"2"},"spec":{"holderIdentity":"b"}}`, json...).Code,
		"merge patch missing":   do(t, ts, "PATCH", leases+"m", `{"spec":{}}`, merge...).Code,
		"PUT missing widget":    do(t, ts, "PUT", widgetPath+"w", apply, json...).Code,
		"apply missing widget":  do(t, ts, "PATCH", widgetPath+"w?fieldManager=test", apply, ssa...).Code,
		"apply existing widget": do(t, ts, "PATCH", widgetPath+"w?fieldManager=test", apply, ssa...).Code,
	}
	want := map[string]int{"PUT missing lease": 201, "PUT lease again": 200, "merge patch missing": 404,
		"PUT missing widget": 404, "apply missing widget": 201, "apply existing widget": 200}
	if diff := cmp.Diff(want, codes); diff != "" {
		t.Errorf("status codes (-want +got):\n%s", diff)
	}
	wantBody := map[string]any{"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
		"metadata": map[string]any{"name": "l", "namespace": "default", "uid": "<uid>", "resourceVersion": "2",
			"creationTimestamp": "<time>"},
		"spec": map[string]any{"holderIdentity": "a"}}
	if diff := cmp.Diff(wantBody, first.Body); diff != "" {
		t.Errorf("created lease (-want +got):\n%s", diff)
	}
}

// A PUT of a missing Event in events.k8s.io/v1 creates it too (201), as
// the stored core/v1 Event's strategy allows; the next PUT answers 200.
func TestCreateOnUpdateServedVersion(t *testing.T) {
	_, ts := eventsServer(t)
	body := `{"metadata":{"name":"e"},"regarding":{"kind":"Pod","namespace":"default","name":"p"},` +
		`"eventTime":"2026-12-02T05:00:00.000000Z","reportingController":"kitchensync.io/chef","reportingInstance":"chef-1",` +
		`"action":"Cook","reason":"Cooking","type":"Normal"}`
	codes := []int{do(t, ts, "PUT", v1Events+"/e", body).Code, do(t, ts, "PUT", v1Events+"/e", body).Code,
		do(t, ts, "GET", coreEvents+"/e", "").Code}
	if diff := cmp.Diff([]int{201, 200, 200}, codes); diff != "" {
		t.Errorf("PUT, PUT, GET in core/v1 (-want +got):\n%s", diff)
	}
}
