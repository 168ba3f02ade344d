package realserver

import (
	"net/http/httptest"
	"testing"
)

// traysCRD holds embedded resources (x-kubernetes-embedded-resource):
// spec.item has a schema of its own, spec.template keeps what it is
// sent (x-kubernetes-preserve-unknown-fields), as a PodTemplate field does.
const traysCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"trays.probe.example.com"},
"spec":{"group":"probe.example.com","scope":"Namespaced","names":{"plural":"trays","kind":"Tray"},
 "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{
  "spec":{"type":"object","properties":{
   "item":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"spec":{"type":"object","properties":{"dish":{"type":"string"}}}}},
   "template":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}}}}}]}}`

const traysPath = "/apis/probe.example.com/v1/namespaces/default/trays"

// tray is a Tray named name with spec (JSON, without braces).
func tray(name, spec string) string {
	return `{"apiVersion":"probe.example.com/v1","kind":"Tray","metadata":{"name":"` + name + `"},"spec":{` + spec + `}}`
}

// playEmbedded installs traysCRD on both servers and plays its cases:
// pruning and coercion of an embedded resource's metadata, and the
// validation of its apiVersion, kind and metadata.
func playEmbedded(t *testing.T, r *real, ks *httptest.Server, play func(diffCase)) {
	t.Helper()
	play(diffCase{"crd-embedded", []step{{Method: "POST", Path: crdPath, Body: traysCRD}}})
	waitEstablished(t, r.client, r.url, "trays.probe.example.com")
	waitEstablished(t, ks.Client(), ks.URL, "trays.probe.example.com")
	play(diffCase{"crd-embedded-objects", []step{
		{Method: "POST", Path: traysPath, Body: tray("ok",
			`"item":{"apiVersion":"probe.example.com/v1","kind":"Dish","metadata":{"name":"soup","labels":{"a":"b"},"junk":1},"spec":{"dish":"soup","extra":1},"more":2},`+
				`"template":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"labels":{},"annotations":null,"generation":0,"creationTimestamp":null,"junk":1},"data":{"k":"v"}}`)},
		{Method: "GET", Path: traysPath + "/ok"},
		{Method: "POST", Path: traysPath, Body: tray("missing", `"item":{"spec":{"dish":"soup"}},"template":{"metadata":{"name":"x"}}`)},
		{Method: "POST", Path: traysPath, Body: tray("badtypes", `"item":{"apiVersion":"a/b/c","kind":"no_way"},"template":{"apiVersion":"","kind":""}`)},
		{Method: "POST", Path: traysPath, Body: tray("notstring", `"item":{"apiVersion":5,"kind":"Dish"}`)},
		{Method: "POST", Path: traysPath, Body: tray("badmeta",
			`"item":{"apiVersion":"v1","kind":"Dish","metadata":{"name":"a/b","namespace":"Not_A_NS","labels":{"bad key!":"x"},"annotations":{"bad key!":"x"}}},`+
				`"template":{"apiVersion":"v1","kind":"Dish","metadata":{"generateName":"a%b","finalizers":["x"]}}`)},
		{Method: "POST", Path: traysPath, Body: tray("metatype", `"item":{"apiVersion":"v1","kind":"Dish","metadata":{"labels":"x"}}`)},
		{Method: "POST", Path: traysPath, Body: tray("metastring", `"item":{"apiVersion":"v1","kind":"Dish","metadata":"x"}`)},
	}})
}
