package realserver

import (
	"fmt"
	"strings"
)

// The events.k8s.io/v1 cases: the same stored Events as core/v1's, read
// and written in the newer form. A core Event reads with its fields
// renamed (note, regarding, deprecated*); a new-style event written in
// events.k8s.io/v1 reads in core/v1; writes in events.k8s.io/v1 are held
// to the stricter rules of new-style events; field selectors take the
// newer names only.
func init() { cases = append(cases, eventsV1Cases...) }

const eventsV1Path = "/apis/events.k8s.io/v1/namespaces/default/events"

// eventV1 is an events.k8s.io/v1 Event body in namespace default, about
// Widget w: meta inside metadata, rest after regarding.
func eventV1(meta, rest string) string {
	return fmt.Sprintf(`{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"namespace":"default",%s},`+
		`"regarding":{"kind":"Widget","namespace":"default","name":"w"}%s}`, meta, rest)
}

// newStyle is the fields a new-style event needs.
const newStyle = `,"eventTime":"2026-12-02T05:00:00.000000Z","reportingController":"kitchensync.io/chef",` +
	`"reportingInstance":"chef-1","action":"Cook","reason":"Cooking","type":"Normal","note":"2 cooks at work"`

// applied is newStyle with a reporting controller of its own.
var applied = strings.Replace(newStyle, "kitchensync.io/chef", "kitchensync.io/applier", 1)

var eventsV1Cases = []diffCase{
	// What every Event is held to, and what an old-style one is not: it
	// may name no object, have any type, or a negative count, but must be
	// in its object's namespace. A new-style one need not name an object.
	{"event-legacy-rules", []step{
		{Method: "POST", Path: eventsPath, Body: `{"apiVersion":"v1","kind":"Event","metadata":{"namespace":"default","name":"ev-noobj"},"reason":"R"}`},
		{Method: "POST", Path: eventsPath, Body: `{"apiVersion":"v1","kind":"Event","metadata":{"namespace":"default","name":"ev-odd"},"involvedObject":{"kind":"Pod","namespace":"default","name":"p"},"type":"Foo","count":-3}`},
		{Method: "POST", Path: eventsPath, Body: `{"apiVersion":"v1","kind":"Event","metadata":{"namespace":"default","name":"ev-elsewhere"},"involvedObject":{"kind":"Pod","namespace":"other","name":"p"}}`},
		{Method: "POST", Path: eventsV1Path, Body: `{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"namespace":"default","name":"ev1-noobj"}` +
			newStyle + `}`},
	}},
	{"eventsv1-reads-core", []step{
		{Method: "POST", Path: eventsPath, Body: event(`"name":"ev1-core"`,
			`,"message":"m","source":{"component":"chef","host":"node-1"},"count":2,"firstTimestamp":"2026-12-02T05:00:00Z","lastTimestamp":"2026-12-02T06:00:00Z"`)},
		{Method: "GET", Path: eventsV1Path + "/ev1-core"},
		{Method: "GET", Path: eventsV1Path + "?fieldSelector=regarding.name%3Dw,reason%3DTested"},
	}},
	{"eventsv1-create-read-core", []step{
		{Method: "POST", Path: eventsV1Path, Body: eventV1(`"name":"ev1-new"`, newStyle+
			`,"series":{"count":2,"lastObservedTime":"2026-12-02T05:01:00.000000Z"},"related":{"kind":"Dish","name":"soup"}`)},
		{Method: "GET", Path: eventsPath + "/ev1-new"},
		{Method: "GET", Path: eventsV1Path + "/ev1-new"},
		{Method: "GET", Path: eventsV1Path + "?fieldSelector=reportingController%3Dkitchensync.io/chef"},
		{Method: "GET", Path: eventsPath + "?fieldSelector=reportingComponent%3Dkitchensync.io/chef"},
		{Method: "DELETE", Path: eventsV1Path + "/ev1-new"},
		{Method: "GET", Path: eventsPath + "/ev1-new"},
	}},
	{"eventsv1-validation", []step{
		{Method: "POST", Path: eventsV1Path, Body: eventV1(`"name":"ev1-bare"`, `,"type":"Normal"`)},
		{Method: "POST", Path: eventsV1Path, Body: eventV1(`"name":"ev1-old"`,
			newStyle+`,"deprecatedCount":3,"deprecatedSource":{"component":"c"},"deprecatedFirstTimestamp":"2026-12-02T05:00:00Z"`)},
		{Method: "POST", Path: eventsV1Path, Body: eventV1(`"name":"ev1-type"`, `,"eventTime":"2026-12-02T05:00:00.000000Z",`+
			`"reportingController":"Not A Name!","reportingInstance":"i","action":"Cook","reason":"Cooking","type":"Odd"`)},
		{Method: "POST", Path: eventsV1Path, Body: eventV1(`"name":"ev1-series"`, newStyle+`,"series":{"count":1}`)},
		{Method: "GET", Path: eventsV1Path + "/ev1-bare"},
	}},
	{"eventsv1-update", []step{
		{Method: "POST", Path: eventsV1Path, Body: eventV1(`"name":"ev1-up"`, newStyle)},
		{Method: "PATCH", Path: eventsV1Path + "/ev1-up", ContentType: mergePatch,
			Body: `{"series":{"count":2,"lastObservedTime":"2026-12-02T05:02:00.000000Z"}}`},
		{Method: "PATCH", Path: eventsV1Path + "/ev1-up", ContentType: mergePatch, Body: `{"note":"changed"}`},
		{Method: "PUT", Path: eventsV1Path + "/ev1-up", Body: eventV1(`"name":"ev1-up","labels":{"a":"b"}`, newStyle+
			`,"series":{"count":3,"lastObservedTime":"2026-12-02T05:03:00.000000Z"}`)},
		{Method: "PUT", Path: eventsV1Path + "/ev1-up", Body: eventV1(`"name":"ev1-up","resourceVersion":"{{rv:0}}"`, newStyle)},
		{Method: "PATCH", Path: eventsPath + "/ev1-up", ContentType: mergePatch, Body: `{"message":"core may change it"}`},
		{Method: "GET", Path: eventsV1Path + "/ev1-up"},
	}},
	{"eventsv1-field-selectors", []step{
		{Method: "GET", Path: eventsV1Path + "?fieldSelector=involvedObject.name%3Dw"},
		{Method: "GET", Path: eventsV1Path + "?fieldSelector=source%3Dchef,type%3DNormal,regarding.kind%3DNobody"},
		{Method: "GET", Path: eventsV1Path + "/nosuch"},
	}},
	{"eventsv1-watch-core-writes", []step{
		{Method: "POST", Path: eventsPath, Body: event(`"name":"ev1-w","labels":{"set":"ev1w"}`, `,"message":"first"`)},
		{Method: "GET", Path: eventsV1Path + "?watch=true&resourceVersion={{rv:0}}&labelSelector=set%3Dev1w&timeoutSeconds=1",
			During: []step{
				{Method: "PATCH", Path: eventsPath + "/ev1-w", ContentType: mergePatch, Body: `{"message":"second"}`},
				{Method: "DELETE", Path: eventsPath + "/ev1-w"},
			}},
	}},
	{"eventsv1-discovery", []step{
		{Method: "GET", Path: "/apis/events.k8s.io"},
		{Method: "GET", Path: "/apis/events.k8s.io/v1"},
	}},
	// Server-side apply in events.k8s.io/v1: the configuration in that
	// version, created (201), re-applied without a write (SameRV), read in
	// core/v1; a configuration that breaks the new-style rules is 422. (Its
	// reportingController is its own, so that the field selectors of the
	// other cases do not find it.)
	{"eventsv1-apply", []step{
		{Method: "PATCH", Path: eventsV1Path + "/ev1-apply?fieldManager=chef", ContentType: applyPatch,
			Body: eventV1(`"name":"ev1-apply"`, applied)},
		{Method: "PATCH", Path: eventsV1Path + "/ev1-apply?fieldManager=chef", ContentType: applyPatch,
			Body: eventV1(`"name":"ev1-apply"`, applied)},
		{Method: "GET", Path: eventsPath + "/ev1-apply"},
		{Method: "PATCH", Path: eventsV1Path + "/ev1-apply-bad?fieldManager=chef", ContentType: applyPatch,
			Body: eventV1(`"name":"ev1-apply-bad"`, `,"reason":"Cooking","type":"Normal"`)},
	}},
}

// The rules every Event meets, whatever its version: a new-style one
// (eventTime set) written in core/v1 must name its reporter, action and
// reason too; an old-style one must be in its object's namespace.
func init() {
	cases = append(cases, diffCase{"event-core-legacy-validation", []step{
		{Method: "POST", Path: eventsPath, Body: event(`"name":"ev-new-bare"`, `,"eventTime":"2026-12-02T05:00:00.000000Z"`)},
		{Method: "POST", Path: namespaces, Body: namespace(`"name":"ev-legacy"`, "")},
		{Method: "POST", Path: namespaces + "/ev-legacy/events", Body: `{"apiVersion":"v1","kind":"Event",` +
			`"metadata":{"name":"ev-ns"},"involvedObject":{"kind":"Node","name":"n1"},"reason":"Tested"}`},
		{Method: "POST", Path: eventsPath, Body: event(`"name":"ev-new-ok"`, `,"eventTime":"2026-12-02T05:00:00.000000Z",`+
			`"reportingComponent":"kitchensync.io/chef","reportingInstance":"chef-1","action":"Cook","message":"m"`)},
	}})
}
