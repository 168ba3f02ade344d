package realserver

import (
	"net/http/httptest"
	"testing"
)

// The version cases: a definition with two served versions (objects
// written in one and read in the other, conversion None), and one whose
// storage version is not served (stored, but neither routed nor in
// discovery).

// menusCRD serves two versions, v1 stored and v1beta1, converted by
// relabelling (conversion None).
const menusCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"menus.probe.example.com"},
"spec":{"group":"probe.example.com","scope":"Namespaced","names":{"plural":"menus","kind":"Menu"},
 "versions":[
  {"name":"v1beta1","served":true,"storage":false,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"dish":{"type":"string"}}}}}}},
  {"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"dish":{"type":"string"}}}}}}}]}}`

// specialsCRD stores v1 but serves only v1beta1: the real server
// routes and discovers v1beta1 alone, and stores its objects as v1.
const specialsCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"specials.pantry.example.com"},
"spec":{"group":"pantry.example.com","scope":"Namespaced","names":{"plural":"specials","kind":"Special"},
 "versions":[
  {"name":"v1beta1","served":true,"storage":false,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"dish":{"type":"string"}}}}}}},
  {"name":"v1","served":false,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"dish":{"type":"string"}}}}}}}]}}`

// playVersions installs menusCRD and specialsCRD on both servers and
// plays their cases.
func playVersions(t *testing.T, r *real, ks *httptest.Server, play func(diffCase)) {
	t.Helper()
	play(diffCase{"crd-versions", []step{{Method: "POST", Path: crdPath, Body: menusCRD}}})
	waitEstablished(t, r.client, r.url, "menus.probe.example.com")
	waitEstablished(t, ks.Client(), ks.URL, "menus.probe.example.com")
	play(diffCase{"crd-versions-objects", []step{
		{Method: "GET", Path: "/apis/probe.example.com"},
		{Method: "GET", Path: "/apis/probe.example.com/v1beta1"},
		{Method: "POST", Path: "/apis/probe.example.com/v1beta1/namespaces/default/menus", Body: `{"apiVersion":"probe.example.com/v1beta1","kind":"Menu","metadata":{"name":"m1"},"spec":{"dish":"soup"}}`},
		{Method: "GET", Path: "/apis/probe.example.com/v1/namespaces/default/menus/m1"},
		{Method: "GET", Path: "/apis/probe.example.com/v1beta1/namespaces/default/menus/m1"},
		{Method: "PUT", Path: "/apis/probe.example.com/v1/namespaces/default/menus/m1", Body: `{"apiVersion":"probe.example.com/v1","kind":"Menu","metadata":{"name":"m1","resourceVersion":"{{rv:2}}"},"spec":{"dish":"stew"}}`},
		{Method: "GET", Path: "/apis/probe.example.com/v1beta1/namespaces/default/menus"},
	}})
	play(diffCase{"crd-unserved-storage", []step{{Method: "POST", Path: crdPath, Body: specialsCRD}}})
	waitEstablished(t, r.client, r.url, "specials.pantry.example.com")
	waitEstablished(t, ks.Client(), ks.URL, "specials.pantry.example.com")
	play(diffCase{"crd-unserved-storage-objects", []step{
		{Method: "GET", Path: "/apis/pantry.example.com"},
		{Method: "GET", Path: "/apis/pantry.example.com/v1beta1"},
		{Method: "GET", Path: "/apis/pantry.example.com/v1"},
		{Method: "POST", Path: "/apis/pantry.example.com/v1/namespaces/default/specials", Body: `{"apiVersion":"pantry.example.com/v1","kind":"Special","metadata":{"name":"s1"},"spec":{"dish":"soup"}}`},
		{Method: "POST", Path: "/apis/pantry.example.com/v1beta1/namespaces/default/specials", Body: `{"apiVersion":"pantry.example.com/v1beta1","kind":"Special","metadata":{"name":"s1"},"spec":{"dish":"soup"}}`},
		{Method: "GET", Path: "/apis/pantry.example.com/v1/namespaces/default/specials/s1"},
		{Method: "GET", Path: "/apis/pantry.example.com/v1beta1/namespaces/default/specials/s1"},
		{Method: "GET", Path: "/apis/pantry.example.com/v1/namespaces/default/specials"},
	}})
}
