package realserver

// The cases of issue #27: what a real server's watches, validation and
// namespaces answer that kitchensync once answered otherwise.
func init() { cases = append(cases, fidelityCases...) }

// watchList is the query of a watch-list: initial events, then changes.
const watchList = "?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=1"

// What client-go's metadata client asks for: PartialObjectMetadata (or
// the list of them) in protobuf, else in JSON, else the objects.
const (
	metaAccept     = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json"
	metaListAccept = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json"
	metaJSON       = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1"
	metaListJSON   = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1"
)

var fidelityCases = []diffCase{
	// Whenever Namespaces are served, every way of creating an object in
	// a namespace that does not exist is 404 naming the namespace: a
	// POST, a PUT that creates (Lease, Event), a server-side apply, a
	// POST in events.k8s.io/v1, a dry run.
	{"no-such-namespace-writes", []step{
		{Method: "PUT", Path: leasesIn("nosuchns") + "/l", Body: `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"l"}}`},
		{Method: "PATCH", Path: leasesIn("nosuchns") + "/l?fieldManager=m", ContentType: applyPatch,
			Body: `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"l"}}`},
		{Method: "PATCH", Path: widgetsIn("nosuchns") + "/w?fieldManager=m", ContentType: applyPatch, Body: widget(`"name":"w"`, "")},
		{Method: "POST", Path: "/api/v1/namespaces/nosuchns/events", Body: `{"apiVersion":"v1","kind":"Event","metadata":{"name":"e"},"involvedObject":{"namespace":"nosuchns"}}`},
		{Method: "POST", Path: "/apis/events.k8s.io/v1/namespaces/nosuchns/events", Body: `{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e"}` + newStyle + `}`},
		{Method: "POST", Path: widgetsIn("nosuchns") + "?dryRun=All", Body: widget(`"name":"w"`, "")},
	}},
	// A watch from a resourceVersion older than the history the server
	// keeps (the watch cache's window on the real server, which starts
	// when its resource is first served: for a custom resource, when its
	// definition is established) gets a single ERROR event, 410 Expired,
	// and ends.
	{"watch-too-old", []step{
		{Method: "POST", Body: widget(`"name":"wt","labels":{"set":"wt"}`, "")},
		{Method: "GET", Path: "?watch=true&resourceVersion=1&labelSelector=set%3Dwt&timeoutSeconds=1"},
	}},
	// A Foreground or Orphan delete holds the owner, with its
	// deletionTimestamp and the policy's finalizer, until the garbage
	// collector acts: a GET right after the DELETE finds it so, even with
	// no dependents. (The real server here runs without
	// kube-controller-manager, so its owners stay; kitchensync's
	// collector removes them gc.Delay later, after these steps.)
	{"delete-foreground", []step{
		{Method: "POST", Body: widget(`"name":"fgo"`, "")},
		{Method: "DELETE", Path: "/fgo", Body: fmtDelete("Foreground")},
		{Method: "GET", Path: "/fgo"},
		{Method: "POST", Body: widget(`"name":"fgp"`, "")},
		{Method: "DELETE", Path: "/fgp?propagationPolicy=Orphan"},
		{Method: "GET", Path: "/fgp"},
	}},
	// Tables: the built-in kinds' columns (compared, Columns), and what
	// includeObject puts in the rows: the metadata (default), the whole
	// object in the request's version (Object, what kubectl get
	// --sort-by reads), nothing (None); any other value is 400.
	{"tables", []step{
		{Method: "POST", Path: leasesPath, Body: lease(`"name":"tb","labels":{"set":"tb"}`, `"holderIdentity":"chef-1"`)},
		{Method: "POST", Path: leasesPath, Body: lease(`"name":"tb2","labels":{"set":"tb"}`, "")},
		{Method: "GET", Path: leasesPath + "?labelSelector=set%3Dtb", Accept: tableAccept, Columns: true},
		{Method: "GET", Path: leasesPath + "/tb", Accept: tableAccept, Columns: true},
		{Method: "GET", Path: leasesPath + "?labelSelector=set%3Dtb&includeObject=Object", Accept: tableAccept, Columns: true},
		{Method: "GET", Path: leasesPath + "?labelSelector=set%3Dtb&includeObject=None", Accept: tableAccept, Columns: true},
		{Method: "GET", Path: leasesPath + "?labelSelector=set%3Dtb&includeObject=All", Accept: tableAccept},
		{Method: "GET", Path: leasesPath + "?watch=true&resourceVersion=0&fieldSelector=metadata.name%3Dtb&timeoutSeconds=1", Accept: tableAccept, Columns: true},
		{Method: "GET", Path: namespaces + "?fieldSelector=metadata.name%3Ddefault", Accept: tableAccept, Columns: true},
		{Method: "POST", Path: eventsPath, Body: event(`"name":"ev-tb","labels":{"set":"tb"}`,
			`,"message":"m","source":{"component":"chef"},"count":2,"firstTimestamp":"2026-12-02T05:00:00Z","lastTimestamp":"2026-12-02T06:00:00Z"`)},
		{Method: "GET", Path: eventsPath + "?labelSelector=set%3Dtb", Accept: tableAccept, Columns: true},
		{Method: "GET", Path: eventsV1Path + "?labelSelector=set%3Dtb&includeObject=Object", Accept: tableAccept, Columns: true},
		{Method: "POST", Body: widget(`"name":"tb","labels":{"set":"tb"}`, `"spec":{"color":"red"}`)},
		{Method: "GET", Path: "?labelSelector=set%3Dtb&includeObject=Object", Accept: tableAccept},
	}},
	// Metadata-only answers, for custom and built-in kinds, in JSON and
	// protobuf: objects, lists, watch events (bookmarks too), a write's
	// answer; a Status stays one (an error's in JSON, a delete's success
	// in the negotiated form); the object form of a list, or the list
	// form of an object, is 406.
	{"metadata-only", []step{
		{Method: "POST", Body: widget(`"name":"mo","labels":{"set":"mo"}`, `"spec":{"color":"red"}`), Accept: metaJSON},
		{Method: "GET", Path: "/mo", Accept: metaJSON},
		{Method: "GET", Path: "?labelSelector=set%3Dmo", Accept: metaListJSON},
		{Method: "GET", Path: "/mo", Accept: metaAccept},
		{Method: "GET", Path: "?labelSelector=set%3Dmo", Accept: metaListAccept},
		{Method: "GET", Path: "?watch=true&resourceVersion=0&labelSelector=set%3Dmo&timeoutSeconds=1", Accept: metaJSON},
		{Method: "GET", Path: watchList + "&allowWatchBookmarks=true&labelSelector=set%3Dmo", Accept: metaAccept},
		{Method: "GET", Path: "?labelSelector=set%3Dmo", Accept: metaJSON},
		{Method: "GET", Path: "/mo", Accept: metaListJSON},
		{Method: "GET", Path: "/nosuch", Accept: metaAccept},
		{Method: "PATCH", Path: "/mo", ContentType: mergePatch, Body: `{"metadata":{"labels":{"more":"yes"}}}`, Accept: metaAccept},
		{Method: "DELETE", Path: "/mo", Accept: metaAccept},
		{Method: "DELETE", Path: "?labelSelector=set%3Dnone", Accept: metaListJSON},
		{Method: "PATCH", Path: leasesPath + "/mo?fieldManager=m", ContentType: applyPatch,
			Body: lease(`"name":"mo","labels":{"set":"mo"}`, `"holderIdentity":"a"`), Accept: metaAccept},
		{Method: "GET", Path: leasesPath + "?labelSelector=set%3Dmo", Accept: metaListAccept},
		{Method: "GET", Path: leasesPath + "?labelSelector=set%3Dmo", Accept: metaJSON},
		{Method: "GET", Path: leasesPath + "/mo", Accept: metaListJSON},
		{Method: "GET", Path: leasesPath + "?watch=true&resourceVersion=0&labelSelector=set%3Dmo&timeoutSeconds=1", Accept: metaAccept},
		{Method: "GET", Path: eventsV1Path + "?labelSelector=set%3Dnone", Accept: metaListJSON},
		{Method: "GET", Path: eventsV1Path + "?labelSelector=set%3Dnone", Accept: metaJSON},
	}},
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
