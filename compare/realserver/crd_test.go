package realserver

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// widgetCRD is apiservertest's Widget as a CustomResourceDefinition: a
// status subresource and the selectable field spec.color, as kitchensync
// registers it.
const widgetCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"widgets.test.kitchensync.io"},
"spec":{"group":"test.kitchensync.io","scope":"Namespaced",
 "names":{"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},
 "versions":[{"name":"v1","served":true,"storage":true,
  "subresources":{"status":{}},
  "selectableFields":[{"jsonPath":".spec.color"}],
  "schema":{"openAPIV3Schema":{"type":"object","properties":{
   "spec":{"type":"object","properties":{"color":{"type":"string"},"size":{"type":"integer"},
    "tags":{"type":"array","items":{"type":"string"}}}},
   "status":{"type":"object","properties":{"phase":{"type":"string"},
    "observedGeneration":{"type":"integer","format":"int64"}}}}}}}]}}`

// gadgetCRD is apiservertest's Gadget: cluster-scoped, no status.
const gadgetCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"gadgets.test.kitchensync.io"},
"spec":{"group":"test.kitchensync.io","scope":"Cluster",
 "names":{"plural":"gadgets","singular":"gadget","kind":"Gadget","listKind":"GadgetList"},
 "versions":[{"name":"v1","served":true,"storage":true,
  "schema":{"openAPIV3Schema":{"type":"object","properties":{
   "spec":{"type":"object","properties":{"mode":{"type":"string"}}}}}}}]}}`

const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"

// installCRD creates the CRD named name from body and waits, with a watch
// (no polling), until it is Established.
func installCRD(t testing.TB, r *real, name, body string) {
	t.Helper()
	resp, err := r.client.Post(r.url+crdPath, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create CRD: %s", resp.Status)
	}
	url := r.url + crdPath + "?watch=true&timeoutSeconds=10&fieldSelector=metadata.name%3D" + name
	resp, err = r.client.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	dec := json.NewDecoder(bufio.NewReader(resp.Body))
	for {
		var ev struct {
			Object struct {
				Status struct {
					Conditions []struct{ Type, Status string }
				}
			}
		}
		if err := dec.Decode(&ev); err != nil {
			t.Fatalf("CRD not Established: %v", err)
		}
		for _, c := range ev.Object.Status.Conditions {
			if c.Type == "Established" && c.Status == "True" {
				return
			}
		}
	}
}

// widget is a Widget body: meta goes inside metadata, rest after it
// (for example `"spec":{"color":"red"}`).
func widget(meta, rest string) string {
	if rest != "" {
		rest = "," + rest
	}
	return fmt.Sprintf(`{"apiVersion":"test.kitchensync.io/v1","kind":"Widget","metadata":{%s}%s}`, meta, rest)
}
