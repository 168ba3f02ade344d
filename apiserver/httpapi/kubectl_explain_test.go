package httpapi_test

import (
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
)

// testSchemas is components of the OpenAPI v3 document of the test kinds:
// their schemas, derived from their Go types.
const testSchemas = `{"schemas":{
"io.kitchensync.test.v1.Gadget":{"type":"object","required":["metadata","spec"],
 "x-kubernetes-group-version-kind":[{"group":"test.kitchensync.io","kind":"Gadget","version":"v1"}],
 "properties":{"apiVersion":{"description":"` + apiVersionDoc + `","type":"string"},"kind":{"description":"` + kindDoc + `","type":"string"},
  "metadata":{"description":"Standard object's metadata.","type":"object"},
  "spec":{"properties":{"mode":{"type":"string"}},"type":"object"}}},
"io.kitchensync.test.v1.Widget":{"type":"object","required":["metadata","spec"],
 "x-kubernetes-group-version-kind":[{"group":"test.kitchensync.io","kind":"Widget","version":"v1"}],
 "properties":{"apiVersion":{"description":"` + apiVersionDoc + `","type":"string"},"kind":{"description":"` + kindDoc + `","type":"string"},
  "metadata":{"description":"Standard object's metadata.","type":"object"},
  "spec":{"type":"object","properties":{"color":{"type":"string"},"size":{"format":"int64","type":"integer"},"tags":{"items":{"type":"string"},"type":"array"}}},
  "status":{"type":"object","properties":{"observedGeneration":{"format":"int64","type":"integer"},"phase":{"type":"string"}}}}}}}`

const (
	apiVersionDoc = "APIVersion defines the versioned schema of this representation of an object. " +
		"Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values."
	kindDoc = "Kind is a string value representing the REST resource this object represents. " +
		"Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase."
)

// TestKubectlExplain runs kubectl explain on a kind whose schema the
// server derived from its Go type: kubectl finds it in the OpenAPI v3
// document by its x-kubernetes-group-version-kind tag.
func TestKubectlExplain(t *testing.T) {
	k := newKubectl(t, serve(t, apiservertest.NewServer(t)).URL)
	k.must(`GROUP:      test.kitchensync.io
KIND:       Widget
VERSION:    v1

FIELD: spec <Object>


DESCRIPTION:
    <empty>
FIELDS:
  color	<string>
    <no description>

  size	<integer>
    <no description>

  tags	<[]string>
    <no description>


`, "explain", "widgets.spec")
}
