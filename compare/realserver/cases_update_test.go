package realserver

import "fmt"

// The unconditional-update cases: a PUT without metadata.resourceVersion.
// Each built-in kind's registry strategy decides (AllowUnconditionalUpdate):
// Namespace, Event and Lease take it as "replace whatever is stored";
// custom resources (see put-without-rv) refuse it with 422 Invalid.
func init() { cases = append(cases, updateCases...) }

const (
	eventsPath  = "/api/v1/namespaces/default/events"
	leasesPath  = "/apis/coordination.k8s.io/v1/namespaces/default/leases"
	gadgetsPath = "/apis/test.kitchensync.io/v1/gadgets"
)

// event is an Event body in namespace default: meta inside metadata, rest
// after it.
func event(meta, rest string) string {
	return fmt.Sprintf(`{"apiVersion":"v1","kind":"Event","metadata":{"namespace":"default",%s},`+
		`"involvedObject":{"kind":"Widget","namespace":"default","name":"w"},"reason":"Tested","type":"Normal"%s}`, meta, rest)
}

// lease is a Lease body in namespace default.
func lease(meta, spec string) string {
	return fmt.Sprintf(`{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"namespace":"default",%s},"spec":{%s}}`, meta, spec)
}

// gadget is a Gadget body (a cluster-scoped custom resource).
func gadget(meta, spec string) string {
	return fmt.Sprintf(`{"apiVersion":"test.kitchensync.io/v1","kind":"Gadget","metadata":{%s},"spec":{%s}}`, meta, spec)
}

var updateCases = []diffCase{
	{"namespace-put-without-rv", []step{
		{Method: "POST", Path: namespaces, Body: namespace(`"name":"ns-uncond"`, "")},
		{Method: "PUT", Path: namespaces + "/ns-uncond", Body: namespace(`"name":"ns-uncond","labels":{"team":"a"}`, "")},
		{Method: "PUT", Path: namespaces + "/ns-uncond/status", Body: namespace(`"name":"ns-uncond"`, `"status":{"phase":"Active"}`)},
		{Method: "PUT", Path: namespaces + "/ns-uncond", Body: namespace(`"name":"ns-uncond","resourceVersion":"{{rv:0}}"`, "")},
		{Method: "PUT", Path: namespaces + "/ns-uncond", Body: namespace(`"name":"ns-uncond","uid":"not-the-uid"`, "")},
		{Method: "PUT", Path: namespaces + "/ns-nosuch", Body: namespace(`"name":"ns-nosuch"`, "")},
		{Method: "GET", Path: namespaces + "/ns-uncond"},
	}},
	{"event-put-without-rv", []step{
		{Method: "POST", Path: eventsPath, Body: event(`"name":"ev-uncond"`, `,"message":"first"`)},
		{Method: "PUT", Path: eventsPath + "/ev-uncond", Body: event(`"name":"ev-uncond"`, `,"message":"second"`)},
		{Method: "GET", Path: eventsPath + "/ev-uncond"},
	}},
	{"lease-put-without-rv", []step{
		{Method: "POST", Path: leasesPath, Body: lease(`"name":"le-uncond"`, `"holderIdentity":"a"`)},
		{Method: "PUT", Path: leasesPath + "/le-uncond", Body: lease(`"name":"le-uncond"`, `"holderIdentity":"b"`)},
		{Method: "GET", Path: leasesPath + "/le-uncond"},
	}},
	// Kinds whose strategy keeps no generation store what the client
	// sends; a custom resource's starts at 1 and follows its spec.
	{"generation-from-client", []step{
		{Method: "POST", Path: leasesPath, Body: lease(`"name":"le-gen","generation":5`, `"holderIdentity":"a"`)},
		{Method: "PUT", Path: leasesPath + "/le-gen", Body: lease(`"name":"le-gen","generation":7,"resourceVersion":"{{rv:0}}"`, `"holderIdentity":"b"`)},
		{Method: "PUT", Path: leasesPath + "/le-gen", Body: lease(`"name":"le-gen","resourceVersion":"{{rv:1}}"`, `"holderIdentity":"c"`)},
		{Method: "POST", Path: eventsPath, Body: event(`"name":"ev-gen","generation":3`, "")},
		{Method: "POST", Path: namespaces, Body: namespace(`"name":"ns-gen","generation":2`, "")},
		{Method: "PUT", Path: namespaces + "/ns-gen", Body: namespace(`"name":"ns-gen","generation":4`, "")},
		{Method: "POST", Path: gadgetsPath, Body: gadget(`"name":"ga-gen","generation":9`, `"mode":"fast"`)},
		{Method: "PUT", Path: gadgetsPath + "/ga-gen", Body: gadget(`"name":"ga-gen","generation":9,"resourceVersion":"{{rv:6}}"`, `"mode":"slow"`)},
	}},
	{"gadget-put-without-rv", []step{
		{Method: "POST", Path: gadgetsPath, Body: gadget(`"name":"ga-uncond"`, `"mode":"fast"`)},
		{Method: "PUT", Path: gadgetsPath + "/ga-uncond", Body: gadget(`"name":"ga-uncond"`, `"mode":"slow"`)},
	}},
}
