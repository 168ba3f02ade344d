package httpapi_test

import (
	"testing"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

const eventV1YAML = `apiVersion: events.k8s.io/v1
kind: Event
metadata:
  name: soup.1
eventTime: "2026-12-02T05:00:00.000000Z"
reportingController: kitchensync.io/chef
reportingInstance: chef-1
action: Cook
reason: Cooking
regarding: {kind: Order, namespace: default, name: table-7}
note: 2 cooks at work
type: Normal
`

// TestKubectlEventsV1: kubectl finds events.k8s.io/v1 by discovery,
// creates an Event in it, and `kubectl get events.v1.events.k8s.io`
// prints the same table as `kubectl get events`, the real server's event
// columns.
func TestKubectlEventsV1(t *testing.T) {
	s := meta.NewScheme()
	if err := builtin.Register(s); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 2, 5, 10, 0, 0, time.UTC)
	ts := serve(t, apiserver.NewServer(s, apiserver.Options{}), httpapi.WithClock(func() time.Time { return now }))
	k := newKubectl(t, ts.URL)

	k.must("event.events.k8s.io/soup.1 created\n", "create", "-f", k.file("event.yaml", eventV1YAML))
	table := "LAST SEEN   TYPE     REASON    OBJECT          MESSAGE\n10m         Normal   Cooking   order/table-7   2 cooks at work\n"
	k.must(table, "get", "events.v1.events.k8s.io")
	k.must(table, "get", "events")
	k.must("2 cooks at work kitchensync.io/chef\n", "get", "events.v1.events.k8s.io", "soup.1", "-o", `jsonpath={.note} {.reportingController}{"\n"}`)
	k.must("2 cooks at work kitchensync.io/chef\n", "get", "events", "soup.1", "-o", `jsonpath={.message} {.reportingComponent}{"\n"}`)
	k.must("event.events.k8s.io/soup.1\n", "get", "events.v1.events.k8s.io", "--field-selector", "regarding.name=table-7", "-o", "name")
	k.must("event.events.k8s.io \"soup.1\" deleted\n", "delete", "events.v1.events.k8s.io", "soup.1")
}
