package realserver

// The cases of issue #27: what a real server's watches, validation and
// namespaces answer that kitchensync once answered otherwise.
func init() { cases = append(cases, fidelityCases...) }

// watchList is the query of a watch-list: initial events, then changes.
const watchList = "?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=1"

var fidelityCases = []diffCase{
	// Applying the same configuration again writes nothing: the same
	// resourceVersion (SameRV), as a GET confirms. A second manager
	// applying the same values becomes a co-owner: a write.
	{"apply-no-op", []step{
		{Method: "PATCH", Path: "/an?fieldManager=alice", ContentType: applyPatch,
			Body: widget(`"name":"an","labels":{"team":"red"}`, `"spec":{"color":"red"}`)},
		{Method: "PATCH", Path: "/an?fieldManager=alice", ContentType: applyPatch,
			Body: widget(`"name":"an","labels":{"team":"red"}`, `"spec":{"color":"red"}`)},
		{Method: "GET", Path: "/an"},
		{Method: "PATCH", Path: "/an?fieldManager=bob", ContentType: applyPatch, Body: widget(`"name":"an"`, `"spec":{"color":"red"}`)},
		{Method: "PATCH", Path: leasesPath + "/an?fieldManager=alice", ContentType: applyPatch, Body: lease(`"name":"an"`, `"holderIdentity":"a"`)},
		{Method: "PATCH", Path: leasesPath + "/an?fieldManager=alice", ContentType: applyPatch, Body: lease(`"name":"an"`, `"holderIdentity":"a"`)},
	}},
	// A custom resource's BOOKMARK carries only apiVersion, kind and
	// metadata; a built-in kind's is its typed empty object (a Lease's
	// spec, a Namespace's spec and status, an Event's zero fields).
	{"bookmark-objects", []step{
		{Method: "POST", Body: widget(`"name":"bk","labels":{"set":"bk"}`, `"spec":{"color":"red"}`)},
		{Method: "GET", Path: watchList + "&allowWatchBookmarks=true&labelSelector=set%3Dbk"},
		{Method: "GET", Path: leasesPath + watchList + "&allowWatchBookmarks=true&labelSelector=set%3Dnone"},
		{Method: "GET", Path: eventsPath + watchList + "&allowWatchBookmarks=true&labelSelector=set%3Dnone"},
		{Method: "GET", Path: namespaces + watchList + "&allowWatchBookmarks=true&labelSelector=set%3Dnone"},
	}},
	// Without allowWatchBookmarks a watch-list gets no BOOKMARK at all,
	// not even the one that ends the initial events.
	{"watch-list-no-bookmarks", []step{
		{Method: "POST", Body: widget(`"name":"wn1","labels":{"set":"wn"}`, "")},
		{Method: "POST", Body: widget(`"name":"wn2","labels":{"set":"wn"}`, "")},
		{Method: "GET", Path: watchList + "&labelSelector=set%3Dwn"},
		{Method: "GET", Path: leasesPath + watchList + "&labelSelector=set%3Dnone"},
	}},
	// An invalid label value is reported at metadata.labels, the value
	// and the rule in the message, as for an invalid key.
	{"invalid-label", []step{
		{Method: "POST", Body: widget(`"name":"il","labels":{"tier":"bad value!"}`, "")},
		{Method: "POST", Body: widget(`"name":"il","labels":{"bad key!":"v"}`, "")},
		{Method: "POST", Body: widget(`"name":"il","labels":{"tier":"`+
			`xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}`, "")},
		{Method: "POST", Body: widget(`"name":"il"`, "")},
		{Method: "PATCH", Path: "/il", ContentType: mergePatch, Body: `{"metadata":{"labels":{"tier":"-no"}}}`},
		{Method: "POST", Path: namespaces, Body: namespace(`"name":"ns-il","labels":{"tier":"bad value!"}`, "")},
	}},
}
