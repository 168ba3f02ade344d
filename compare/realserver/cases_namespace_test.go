package realserver

import "fmt"

// The namespace cases: what kube-apiserver itself answers about a
// namespace's lifecycle. The real server here runs without
// kube-controller-manager, so no namespace controller ever empties or
// finalizes a namespace; kitchensync's is turned off to match (see
// newKitchensync). A namespace deleted here stays Terminating until a
// PUT on its finalize subresource lets it go.
func init() { cases = append(cases, namespaceCases...) }

// namespaces is the collection of namespaces.
const namespaces = "/api/v1/namespaces"

// namespace is a Namespace body: meta inside metadata, rest after it.
func namespace(meta, rest string) string {
	if rest != "" {
		rest = "," + rest
	}
	return fmt.Sprintf(`{"apiVersion":"v1","kind":"Namespace","metadata":{%s}%s}`, meta, rest)
}

// widgetsIn is the path of the Widgets of namespace ns.
func widgetsIn(ns string) string {
	return "/apis/test.kitchensync.io/v1/namespaces/" + ns + "/widgets"
}

var namespaceCases = []diffCase{
	{"namespace-lifecycle", []step{
		{Method: "POST", Path: namespaces, Body: namespace(`"name":"ns-life"`, "")},
		{Method: "GET", Path: namespaces + "/ns-life"},
		{Method: "POST", Path: widgetsIn("ns-life"), Body: widget(`"name":"a"`, `"spec":{"color":"red"}`)},
		{Method: "DELETE", Path: namespaces + "/ns-life"},
		{Method: "GET", Path: namespaces + "/ns-life"},
		{Method: "POST", Path: widgetsIn("ns-life"), Body: widget(`"name":"b"`, `"spec":{"color":"red"}`)},
		{Method: "POST", Path: widgetsIn("ns-life"), Body: widget(`"generateName":"g-"`, "")},
		{Method: "GET", Path: widgetsIn("ns-life") + "/a"},
		{Method: "DELETE", Path: namespaces + "/ns-life"},
		{Method: "PUT", Path: namespaces + "/ns-life/finalize",
			Body: namespace(`"name":"ns-life","resourceVersion":"{{rv:4}}"`, `"spec":{"finalizers":[]}`)},
		{Method: "GET", Path: namespaces + "/ns-life"},
		{Method: "POST", Path: widgetsIn("ns-life"), Body: widget(`"name":"c"`, "")},
	}},
	{"namespace-spec-and-status", []step{
		{Method: "POST", Path: namespaces, Body: namespace(`"name":"ns-spec","labels":{"team":"a"}`,
			`"spec":{"finalizers":["example.com/hold"]},"status":{"phase":"Terminating"}`)},
		{Method: "PUT", Path: namespaces + "/ns-spec",
			Body: namespace(`"name":"ns-spec","resourceVersion":"{{rv:0}}"`, `"spec":{"finalizers":[]}`)},
		{Method: "PUT", Path: namespaces + "/ns-spec/finalize",
			Body: namespace(`"name":"ns-spec","resourceVersion":"{{rv:1}}"`, `"spec":{"finalizers":["kubernetes"]}`)},
		{Method: "GET", Path: namespaces + "/ns-spec/finalize"},
		{Method: "DELETE", Path: namespaces + "/ns-spec?dryRun=All"},
		{Method: "GET", Path: namespaces + "/ns-spec"},
	}},
	{"namespace-without-finalizers", []step{
		{Method: "POST", Path: namespaces, Body: namespace(`"name":"ns-bare"`, "")},
		{Method: "PUT", Path: namespaces + "/ns-bare/finalize",
			Body: namespace(`"name":"ns-bare","resourceVersion":"{{rv:0}}"`, `"spec":{"finalizers":[]}`)},
		{Method: "DELETE", Path: namespaces + "/ns-bare"},
		{Method: "GET", Path: namespaces + "/ns-bare"},
		{Method: "DELETE", Path: namespaces + "/ns-bare"},
		{Method: "GET", Path: namespaces + "/ns-bare"},
	}},
	{"namespace-immortal", []step{
		{Method: "DELETE", Path: namespaces + "/default"},
		{Method: "GET", Path: namespaces + "?fieldSelector=metadata.name%3Ddefault"},
	}},
}
