package realserver

// diffCase is a request sequence played on both servers. Each case works
// on objects of its own (named after it), so the cases do not disturb
// each other.
type diffCase struct {
	Name  string
	Steps []step
}

const (
	mergePatch = "application/merge-patch+json"
	jsonPatch  = "application/json-patch+json"
)

var cases = []diffCase{
	{"create-get", []step{
		{Method: "POST", Body: widget(`"name":"cg","labels":{"app":"shop"}`, `"spec":{"color":"red","size":1}`)},
		{Method: "GET", Path: "/cg"},
		{Method: "GET", Path: "/nosuch"},
	}},
	{"already-exists", []step{
		{Method: "POST", Body: widget(`"name":"ae"`, `"spec":{"color":"red"}`)},
		{Method: "POST", Body: widget(`"name":"ae"`, `"spec":{"color":"blue"}`)},
	}},
	{"conflict", []step{
		{Method: "POST", Body: widget(`"name":"cf"`, `"spec":{"color":"red"}`)},
		{Method: "PUT", Path: "/cf", Body: widget(`"name":"cf","resourceVersion":"{{rv:0}}"`, `"spec":{"size":2}`)},
		{Method: "PUT", Path: "/cf", Body: widget(`"name":"cf","resourceVersion":"{{rv:0}}"`, `"spec":{"size":3}`)},
	}},
	{"put-without-rv", []step{
		{Method: "POST", Body: widget(`"name":"pn"`, `"spec":{"color":"red"}`)},
		{Method: "PUT", Path: "/pn", Body: widget(`"name":"pn"`, `"spec":{"size":2}`)},
	}},
	{"put-noop", []step{
		{Method: "POST", Body: widget(`"name":"no"`, `"spec":{"color":"red"}`)},
		{Method: "PUT", Path: "/no", Body: widget(`"name":"no","resourceVersion":"{{rv:0}}"`, `"spec":{"color":"red"}`)},
	}},
	{"delete", []step{
		{Method: "POST", Body: widget(`"name":"de"`, "")},
		{Method: "DELETE", Path: "/de"},
		{Method: "GET", Path: "/de"},
		{Method: "DELETE", Path: "/de"},
	}},
	{"delete-finalizers", []step{
		{Method: "POST", Body: widget(`"name":"df","finalizers":["example.com/hold"]`, "")},
		{Method: "DELETE", Path: "/df"},
		{Method: "DELETE", Path: "/df"},
		{Method: "GET", Path: "/df"},
		{Method: "PATCH", Path: "/df", ContentType: mergePatch, Body: `{"metadata":{"finalizers":null}}`},
		{Method: "GET", Path: "/df"},
	}},
	{"delete-dry-run", []step{
		{Method: "POST", Body: widget(`"name":"dd"`, "")},
		{Method: "DELETE", Path: "/dd?dryRun=All"},
		{Method: "GET", Path: "/dd"},
	}},
	{"finalizer-put", []step{
		{Method: "POST", Body: widget(`"name":"fp","finalizers":["example.com/hold"]`, "")},
		{Method: "DELETE", Path: "/fp"},
		{Method: "PUT", Path: "/fp", Body: widget(`"name":"fp","resourceVersion":"{{rv:1}}","finalizers":["example.com/hold"]`, `"spec":{"size":1}`)},
		{Method: "PUT", Path: "/fp", Body: widget(`"name":"fp","resourceVersion":"{{rv:2}}","finalizers":[]`, "")},
		{Method: "GET", Path: "/fp"},
		{Method: "GET", Path: "?watch=true&resourceVersion={{rv:0}}&fieldSelector=metadata.name%3Dfp&timeoutSeconds=1"},
	}},
	{"delete-background", []step{
		{Method: "POST", Body: widget(`"name":"db"`, "")},
		{Method: "DELETE", Path: "/db", Body: fmtDelete("Background")},
		{Method: "GET", Path: "/db"},
	}},
	{"delete-orphan", []step{
		{Method: "POST", Body: widget(`"name":"do"`, "")},
		{Method: "DELETE", Path: "/do", Body: fmtDelete("Orphan")},
	}},
	{"delete-bad-policy", []step{
		{Method: "POST", Body: widget(`"name":"dp"`, "")},
		{Method: "DELETE", Path: "/dp", Body: fmtDelete("Sometimes")},
	}},
	{"delete-precondition", []step{
		{Method: "POST", Body: widget(`"name":"pc"`, "")},
		{Method: "DELETE", Path: "/pc", Body: `{"kind":"DeleteOptions","apiVersion":"v1","preconditions":{"uid":"not-the-uid"}}`},
		{Method: "DELETE", Path: "/pc", Body: `{"kind":"DeleteOptions","apiVersion":"v1","preconditions":{"resourceVersion":"1"}}`},
	}},
	{"delete-collection", []step{
		{Method: "POST", Body: widget(`"name":"dc","labels":{"set":"dc"}`, "")},
		{Method: "DELETE", Path: "?labelSelector=set%3Ddc"},
	}},
	{"no-such-namespace", []step{
		{Method: "POST", Path: "/apis/test.kitchensync.io/v1/namespaces/nosuchns/widgets", Body: widget(`"name":"ns"`, "")},
		{Method: "POST", Body: widget(`"name":"nm","namespace":"other"`, "")},
	}},
	{"dry-run-create", []step{
		{Method: "POST", Path: "?dryRun=All", Body: widget(`"name":"dr"`, "")},
		{Method: "GET", Path: "/dr"},
	}},
	{"list-limit-continue", []step{
		{Method: "POST", Body: widget(`"name":"ll1","labels":{"set":"list"}`, "")},
		{Method: "POST", Body: widget(`"name":"ll2","labels":{"set":"list"}`, "")},
		{Method: "POST", Body: widget(`"name":"ll3","labels":{"set":"list"}`, "")},
		{Method: "GET", Path: "?labelSelector=set%3Dlist&limit=2"},
		{Method: "GET", Path: "?labelSelector=set%3Dlist&limit=2&continue={{continue:3}}"},
		{Method: "GET", Path: "?labelSelector=set%3Dlist&limit=-1"},
	}},
	{"selectors", []step{
		{Method: "POST", Body: widget(`"name":"se1","labels":{"set":"sel","tier":"a"}`, `"spec":{"color":"red"}`)},
		{Method: "POST", Body: widget(`"name":"se2","labels":{"set":"sel","tier":"b"}`, `"spec":{"color":"blue"}`)},
		{Method: "GET", Path: "?labelSelector=set%3Dsel,tier+in+(a)"},
		{Method: "GET", Path: "?labelSelector=set%3Dsel&fieldSelector=spec.color%3Dblue"},
		{Method: "GET", Path: "?fieldSelector=metadata.name%3Dse1"},
		{Method: "GET", Path: "?labelSelector=a%3Db%3Dc"},
		{Method: "GET", Path: "?fieldSelector=spec.size%3D1"},
	}},
	{"bad-input", []step{
		{Method: "POST", Body: widget(`"name":"Bad_Name"`, "")},
		{Method: "POST", Body: `{"apiVersion":"test.kitchensync.io/v1","kind":"Gadget","metadata":{"name":"wk"}}`},
		{Method: "POST", Body: `{"apiVersion":"test.kitchensync.io/v1","kind":"Widget","metadata":{"name":"mj"}`},
		{Method: "POST", Body: widget(`"name":"tf","finalizers":["hold"]`, "")},
		{Method: "GET", Path: "?resourceVersion=abc"},
	}},
	{"patches", []step{
		{Method: "POST", Body: widget(`"name":"pa"`, `"spec":{"color":"red"}`)},
		{Method: "PATCH", Path: "/pa", ContentType: mergePatch, Body: `{"spec":{"color":"green","tags":["x"]}}`},
		{Method: "PATCH", Path: "/pa", ContentType: jsonPatch, Body: `[{"op":"test","path":"/spec/color","value":"blue"}]`},
		{Method: "PATCH", Path: "/pa", ContentType: jsonPatch, Body: `[{"op":"replace","path":"/spec/size","value":4}]`},
		{Method: "PATCH", Path: "/pa", ContentType: mergePatch, Body: `{"metadata":{"name":"zz"}}`},
		{Method: "PATCH", Path: "/nosuch", ContentType: mergePatch, Body: `{"spec":{"size":1}}`},
	}},
	{"status-subresource", []step{
		{Method: "POST", Body: widget(`"name":"st"`, `"spec":{"color":"red"},"status":{"phase":"Ignored"}`)},
		{Method: "PATCH", Path: "/st/status", ContentType: mergePatch, Body: `{"spec":{"color":"blue"},"status":{"phase":"Ready"}}`},
		{Method: "PATCH", Path: "/st", ContentType: mergePatch, Body: `{"status":{"phase":"Lost"}}`},
		{Method: "GET", Path: "/st/status"},
	}},
	{"field-validation", []step{
		{Method: "POST", Path: "?fieldValidation=Strict", Body: widget(`"name":"fv"`, `"spec":{"color":"red","bogus":1}`)},
		{Method: "POST", Body: widget(`"name":"fw"`, `"spec":{"color":"red","bogus":1}`)},
		{Method: "POST", Path: "?fieldValidation=Maybe", Body: widget(`"name":"fm"`, "")},
	}},
	{"status-put", []step{
		{Method: "POST", Body: widget(`"name":"sp"`, `"spec":{"color":"red"}`)},
		{Method: "PUT", Path: "/sp/status", Body: widget(`"name":"sp","resourceVersion":"{{rv:0}}"`, `"spec":{"color":"blue"},"status":{"phase":"Ready"}`)},
		{Method: "PUT", Path: "/sp/status", Body: widget(`"name":"sp","resourceVersion":"{{rv:0}}"`, `"status":{"phase":"Stale"}`)},
	}},
	{"watch-history", []step{
		{Method: "POST", Body: widget(`"name":"wh","labels":{"set":"wh"}`, `"spec":{"color":"red"}`)},
		{Method: "PATCH", Path: "/wh", ContentType: mergePatch, Body: `{"spec":{"color":"blue"}}`},
		{Method: "DELETE", Path: "/wh"},
		{Method: "GET", Path: "?watch=true&resourceVersion={{rv:0}}&labelSelector=set%3Dwh&timeoutSeconds=1"},
	}},
	{"watch-list", []step{
		{Method: "POST", Body: widget(`"name":"wl","labels":{"set":"wl"}`, "")},
		{Method: "GET", Path: "?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&labelSelector=set%3Dwl&timeoutSeconds=1"},
		{Method: "GET", Path: "?watch=true&sendInitialEvents=true&labelSelector=set%3Dwl&timeoutSeconds=1"},
		{Method: "GET", Path: "?sendInitialEvents=true&resourceVersionMatch=NotOlderThan"},
	}},
	{"misc-endpoints", []step{
		{Method: "GET", Path: "/apis/test.kitchensync.io/v1"},
		{Method: "POST", Path: "/mp", Body: widget(`"name":"mp"`, "")},
		{Method: "PUT", Path: "/mq", Body: widget(`"name":"mq","resourceVersion":"1"`, "")},
		{Method: "PATCH", Path: "/nosuch", ContentType: "application/strategic-merge-patch+json", Body: `{}`},
		{Method: "POST", Path: "/apis/test.kitchensync.io/v1/namespaces/default/nosuchresources", Body: `{}`},
		{Method: "GET", Path: "?resourceVersion=0&limit=1&labelSelector=set%3Dnone"},
		{Method: "GET", Path: "?resourceVersionMatch=Exact&labelSelector=set%3Dnone"},
		{Method: "GET", Path: "?resourceVersion=999999999&resourceVersionMatch=NotOlderThan&labelSelector=set%3Dnone"},
	}},
	{"list-exact", []step{
		{Method: "POST", Body: widget(`"name":"ex","labels":{"set":"ex"}`, "")},
		{Method: "PATCH", Path: "/ex", ContentType: mergePatch, Body: `{"spec":{"size":9}}`},
		{Method: "GET", Path: "?resourceVersion={{rv:0}}&resourceVersionMatch=Exact&labelSelector=set%3Dex"},
		{Method: "GET", Path: "?resourceVersion={{rv:0}}&resourceVersionMatch=NotOlderThan&labelSelector=set%3Dex"},
	}},
	{"watch", []step{
		{Method: "POST", Body: widget(`"name":"wa","labels":{"set":"watch"}`, "")},
		{Method: "GET", Path: "?watch=true&resourceVersion=0&labelSelector=set%3Dwatch&timeoutSeconds=1"},
		{Method: "GET", Path: "/wa?watch=true&timeoutSeconds=1"},
	}},
	{"watch-bookmark-before-timeout", []step{
		{Method: "POST", Body: widget(`"name":"wb","labels":{"set":"wb"}`, "")},
		// Idle: nothing happens after it starts, so it gets no bookmark.
		{Method: "GET", Path: "?watch=true&resourceVersion={{rv:0}}&allowWatchBookmarks=true&labelSelector=set%3Dwb&timeoutSeconds=5"},
		// It hears no event (wc is not selected), but the server moves on:
		// a bookmark in the last seconds before its timeout.
		{Method: "GET", Path: "?watch=true&resourceVersion={{rv:0}}&allowWatchBookmarks=true&labelSelector=set%3Dwb&timeoutSeconds=5",
			During: []step{{Method: "POST", Body: widget(`"name":"wc","labels":{"set":"wc"}`, "")}}},
	}},
	{"too-large-rv", []step{
		// Each waits 3 seconds for the resourceVersion before the 504.
		{Method: "GET", Path: "?resourceVersion=999999999&resourceVersionMatch=Exact&labelSelector=set%3Dnone"},
		{Method: "GET", Path: "?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=999999999&labelSelector=set%3Dnone&timeoutSeconds=5"},
	}},
	{"delete-collection-finalizers", []step{
		{Method: "POST", Body: widget(`"name":"dcf","labels":{"set":"dcm"},"finalizers":["example.com/hold"]`, "")},
		{Method: "POST", Body: widget(`"name":"dcg","labels":{"set":"dcm"}`, "")},
		{Method: "DELETE", Path: "?labelSelector=set%3Ddcm&dryRun=All"},
		{Method: "GET", Path: "/dcg"},
		{Method: "DELETE", Path: "?labelSelector=set%3Ddcm", Body: fmtDelete("Background")},
		{Method: "GET", Path: "/dcf"},
		{Method: "GET", Path: "/dcg"},
		{Method: "PATCH", Path: "/dcf", ContentType: mergePatch, Body: `{"metadata":{"finalizers":null}}`},
		{Method: "DELETE", Path: "?labelSelector=set%3Dnone"},
	}},
	{"paths", []step{
		{Method: "POST", Body: widget(`"name":"pt"`, "")},
		{Method: "GET", Path: "/pt/scale"},
		{Method: "GET", Path: "/apis/test.kitchensync.io/v1/namespaces/default/gadgets"},
		{Method: "GET", Path: "/apis/test.kitchensync.io/v1/widgets/pt"},
		{Method: "GET", Path: "/apis/test.kitchensync.io/v1/widgets?labelSelector=set%3Dnone"},
		{Method: "POST", Path: "/apis/test.kitchensync.io/v1/gadgets", Body: `{"apiVersion":"test.kitchensync.io/v1","kind":"Gadget","metadata":{"name":"gp"},"spec":{"mode":"fast"}}`},
		{Method: "GET", Path: "/apis/test.kitchensync.io/v1/gadgets/gp/status"},
		{Method: "DELETE", Path: "/apis/test.kitchensync.io/v1/gadgets/gp"},
		{Method: "GET", Path: "/apis/nope.example.com/v1"},
		{Method: "GET", Path: "/apis/test.kitchensync.io/v9"},
	}},
	{"more-bad-input", []step{
		{Method: "POST", Body: widget(`"name":"mb"`, `"spec":{"color":"red"}`)},
		{Method: "PUT", Path: "/mb", Body: widget(`"name":"other","resourceVersion":"{{rv:0}}"`, "")},
		{Method: "PATCH", Path: "/mb", ContentType: mergePatch, Body: `{"spec":`},
		{Method: "PATCH", Path: "/mb", ContentType: jsonPatch, Body: `[{"op":"bogus","path":"/spec"}]`},
		{Method: "PATCH", Path: "/mb", ContentType: jsonPatch, Body: `{"op":"add"}`},
		{Method: "POST", Body: `["mb"]`},
		{Method: "POST", Body: widget(`"name":"mc","resourceVersion":"5"`, "")},
		{Method: "GET", Path: "?watch=true&resourceVersion=abc"},
		{Method: "DELETE", Path: "/mb?dryRun=Some"},
	}},
}

func fmtDelete(policy string) string {
	return `{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"` + policy + `"}`
}
