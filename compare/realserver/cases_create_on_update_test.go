package realserver

// The create-on-update cases: a PUT or PATCH of an object that does not
// exist. Each built-in kind's registry strategy decides
// (AllowCreateOnUpdate): Event and Lease take the PUT as a create (201,
// any resourceVersion in the body ignored, the namespace admitted as for
// a create); Namespace and custom resources answer 404. A server-side
// apply creates for every kind; merge, JSON and strategic merge patches
// never do.
func init() { cases = append(cases, createOnUpdateCases...) }

const applyPatch = "application/apply-patch+yaml"

// leasesIn is the path of the Leases of namespace ns.
func leasesIn(ns string) string {
	return "/apis/coordination.k8s.io/v1/namespaces/" + ns + "/leases"
}

var createOnUpdateCases = []diffCase{
	{"event-put-creates", []step{
		{Method: "PUT", Path: eventsPath + "/ev-cou", Body: event(`"name":"ev-cou"`, `,"message":"first"`)},
		{Method: "PUT", Path: eventsPath + "/ev-cou", Body: event(`"name":"ev-cou"`, `,"message":"first"`)},
		{Method: "PUT", Path: eventsPath + "/ev-cou-rv", Body: event(`"name":"ev-cou-rv","resourceVersion":"5"`, "")},
		{Method: "GET", Path: eventsPath + "/ev-cou-rv"},
		{Method: "PUT", Path: "/api/v1/namespaces/ns-cou-nosuch/events/ev-cou",
			Body: `{"metadata":{"name":"ev-cou"},"involvedObject":{"kind":"Widget","name":"w"},"reason":"Tested"}`},
	}},
	{"eventsv1-put-creates", []step{
		{Method: "PUT", Path: eventsV1Path + "/ev1-cou", Body: eventV1(`"name":"ev1-cou"`, newStyle)},
		{Method: "PUT", Path: eventsV1Path + "/ev1-cou", Body: eventV1(`"name":"ev1-cou"`, newStyle)},
		{Method: "GET", Path: eventsPath + "/ev1-cou"},
	}},
	{"lease-put-creates", []step{
		{Method: "PUT", Path: leasesPath + "/le-cou", Body: lease(`"name":"le-cou"`, `"holderIdentity":"a"`)},
		{Method: "PUT", Path: leasesPath + "/le-cou", Body: lease(`"name":"le-cou","resourceVersion":"{{rv:0}}"`, `"holderIdentity":"b"`)},
		{Method: "PUT", Path: leasesPath + "/le-cou-dry?dryRun=All", Body: lease(`"name":"le-cou-dry"`, `"holderIdentity":"a"`)},
		{Method: "GET", Path: leasesPath + "/le-cou-dry"},
		{Method: "PUT", Path: leasesPath + "/le-cou-uid", Body: lease(`"name":"le-cou-uid","uid":"abc"`, `"holderIdentity":"a"`)},
		{Method: "PUT", Path: leasesPath + "/le-cou-bad", Body: lease(`"name":"le-cou-bad","labels":{"a b":"c"}`, "")},
		{Method: "PUT", Path: leasesPath + "/le-cou-fin", Body: lease(`"name":"le-cou-fin","finalizers":["example.com/hold"],"deletionTimestamp":"2020-01-01T00:00:00Z"`, "")},
		{Method: "PUT", Path: leasesIn("ns-cou-nosuch") + "/le-cou", Body: lease(`"name":"le-cou","namespace":"ns-cou-nosuch"`, "")},
	}},
	{"lease-put-terminating", []step{
		{Method: "POST", Path: namespaces, Body: namespace(`"name":"ns-cou-term"`, "")},
		{Method: "DELETE", Path: namespaces + "/ns-cou-term"},
		{Method: "PUT", Path: leasesIn("ns-cou-term") + "/le-cou", Body: lease(`"name":"le-cou","namespace":"ns-cou-term"`, "")},
	}},
	{"custom-put-missing", []step{
		{Method: "PUT", Path: "/wi-cou", Body: widget(`"name":"wi-cou"`, `"spec":{"color":"red"}`)},
		{Method: "PUT", Path: widgetsIn("ns-cou-nosuch") + "/wi-cou", Body: widget(`"name":"wi-cou"`, "")},
		{Method: "PUT", Path: gadgetsPath + "/ga-cou", Body: gadget(`"name":"ga-cou"`, `"mode":"fast"`)},
	}},
	{"patch-missing", []step{
		{Method: "PATCH", Path: leasesPath + "/le-pm", ContentType: mergePatch, Body: `{"spec":{"holderIdentity":"a"}}`},
		{Method: "PATCH", Path: leasesPath + "/le-pm", ContentType: "application/strategic-merge-patch+json", Body: `{"spec":{"holderIdentity":"a"}}`},
		{Method: "PATCH", Path: leasesPath + "/le-pm", ContentType: jsonPatch, Body: `[{"op":"add","path":"/spec","value":{}}]`},
		{Method: "PATCH", Path: eventsPath + "/ev-pm", ContentType: mergePatch, Body: `{"message":"m"}`},
		{Method: "PATCH", Path: "/wi-pm", ContentType: mergePatch, Body: `{"spec":{"color":"red"}}`},
		{Method: "PATCH", Path: leasesPath + "/le-pm?fieldManager=test", ContentType: applyPatch,
			Body: lease(`"name":"le-pm"`, `"holderIdentity":"a"`)},
		{Method: "PATCH", Path: "/wi-pm?fieldManager=test", ContentType: applyPatch,
			Body: widget(`"name":"wi-pm"`, `"spec":{"color":"red"}`)},
		{Method: "PATCH", Path: namespaces + "/ns-cou-apply?fieldManager=test", ContentType: applyPatch,
			Body: namespace(`"name":"ns-cou-apply"`, "")},
		{Method: "PATCH", Path: widgetsIn("ns-cou-nosuch") + "/wi-pm?fieldManager=test", ContentType: applyPatch,
			Body: widget(`"name":"wi-pm"`, "")},
	}},
}
