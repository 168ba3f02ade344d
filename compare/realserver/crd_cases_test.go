package realserver

import (
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiextensions"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// The CRD cases install the same CustomResourceDefinitions on both
// servers, through the API, and compare what each answers: refusals of
// invalid definitions, the definition as created and as established
// (conditions), discovery, objects created valid and invalid against the
// schema, defaults and pruning, subresources, CEL rules, and the
// definition's deletion.
const (
	probeGroup   = "probe.example.com"
	tablesPath   = "/apis/probe.example.com/v1/namespaces/default/tables"
	tableCRDName = "tables.probe.example.com"
)

// tablesCRD exercises most of the schema: bounds, enum, pattern, format,
// list types, int-or-string, preserved and nullable fields, defaults,
// CEL rules (one a transition rule), status and scale subresources,
// printer columns and a selectable field.
const tablesCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"tables.probe.example.com"},
"spec":{"group":"probe.example.com","scope":"Namespaced",
 "names":{"plural":"tables","singular":"table","kind":"Table","shortNames":["tb"],"categories":["all","kitchen"]},
 "versions":[{"name":"v1","served":true,"storage":true,
  "subresources":{"status":{},"scale":{"specReplicasPath":".spec.seats","statusReplicasPath":".status.seated","labelSelectorPath":".status.selector"}},
  "additionalPrinterColumns":[{"name":"Seats","type":"integer","jsonPath":".spec.seats"},{"name":"Section","type":"string","jsonPath":".spec.section","priority":1}],
  "selectableFields":[{"jsonPath":".spec.section"}],
  "schema":{"openAPIV3Schema":{"type":"object","properties":{
   "spec":{"type":"object","required":["seats"],
    "x-kubernetes-validations":[{"rule":"self.seats >= self.minSeats","message":"seats must be at least minSeats"},
     {"rule":"self.section == oldSelf.section","message":"section is immutable"}],
    "properties":{
     "seats":{"type":"integer","minimum":1,"maximum":12},
     "minSeats":{"type":"integer","default":1},
     "section":{"type":"string","enum":["terrace","hall","vip"],"default":"hall"},
     "name":{"type":"string","maxLength":10,"minLength":2,"pattern":"^[a-z]+$"},
     "when":{"type":"string","format":"date-time"},
     "tags":{"type":"array","items":{"type":"string"},"maxItems":3,"minItems":1,"x-kubernetes-list-type":"set"},
     "lines":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
      "items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"qty":{"type":"integer","default":1}}}},
     "labels":{"type":"object","additionalProperties":{"type":"string"},"maxProperties":2,"minProperties":1},
     "port":{"x-kubernetes-int-or-string":true},
     "extra":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
     "note":{"type":"string","nullable":true},
     "cloth":{"type":"object","x-kubernetes-map-type":"atomic","properties":{"color":{"type":"string"},"size":{"type":"string"}}},
     "vip":{"type":"boolean"}}},
   "status":{"type":"object","properties":{"seated":{"type":"integer"},"selector":{"type":"string"}}}}}}}]}}`

// chairsCRD asks for the kind Table, which tablesCRD has: its names are
// not accepted.
const chairsCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"chairs.probe.example.com"},
"spec":{"group":"probe.example.com","scope":"Namespaced","names":{"plural":"chairs","kind":"Table"},
 "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}}]}}`

// tbl is a Table body: meta inside metadata, rest after it.
func tbl(meta, rest string) string {
	if rest != "" {
		rest = "," + rest
	}
	return fmt.Sprintf(`{"apiVersion":"probe.example.com/v1","kind":"Table","metadata":{%s}%s}`, meta, rest)
}

// tblApply is a Table named name to apply, its spec (YAML) indented
// under spec:.
func tblApply(name, spec string) string {
	return "apiVersion: probe.example.com/v1\nkind: Table\nmetadata:\n  name: " + name + "\nspec:\n" + spec
}

// crdCases are played after tablesCRD is established on both servers.
var crdCases = []diffCase{
	{"crd-discovery", []step{
		{Method: "GET", Path: "/apis/apiextensions.k8s.io/v1"},
		{Method: "GET", Path: "/apis/probe.example.com/v1"},
		{Method: "GET", Path: "/apis/probe.example.com"},
		{Method: "GET", Path: crdPath + "/" + tableCRDName},
	}},
	{"crd-defaults-and-pruning", []step{
		{Method: "POST", Path: tablesPath, Body: tbl(`"name":"dp","junk":1`,
			`"spec":{"seats":3,"vip":null,"note":null,"section":null,"port":"80","colour":"red","lines":[{"name":"a"},{"name":"b","qty":null}],"extra":{"a":{"b":1}}},"status":{"seated":1},"bogus":1`)},
		{Method: "GET", Path: tablesPath + "/dp"},
		{Method: "POST", Path: tablesPath + "?fieldValidation=Strict", Body: tbl(`"name":"ds"`, `"spec":{"seats":3,"colour":"red"}`)},
	}},
	{"crd-invalid-objects", []step{
		{Method: "POST", Path: tablesPath, Body: tbl(`"name":"iv"`, `"spec":{"seats":99}`)},
		{Method: "POST", Path: tablesPath, Body: tbl(`"name":"iv"`,
			`"spec":{"seats":99,"name":"X","when":"yesterday","tags":["a","a","b","c"],"labels":{"a":"1","b":"2","c":"3"},"port":true,"section":"roof","vip":"yes","lines":[{"name":"a"},{"name":"a"},{"qty":2}]}`)},
		{Method: "POST", Path: tablesPath, Body: tbl(`"name":"iv"`, `"spec":{"seats":0,"name":"abcdefghijklmnop","tags":[],"labels":{}}`)},
		{Method: "POST", Path: tablesPath, Body: tbl(`"name":"iv"`, `"spec":{"seats":1.5,"name":"AB1","tags":"x","labels":[1],"lines":{}}`)},
		{Method: "POST", Path: tablesPath, Body: tbl(`"name":"iv"`, `"spec":{}`)},
		{Method: "POST", Path: tablesPath, Body: `{"metadata":{"name":"nk"},"spec":{"seats":2}}`},
		{Method: "POST", Path: tablesPath, Body: `{"apiVersion":"probe.example.com/v2","kind":"Table","metadata":{"name":"nk"},"spec":{"seats":2}}`},
	}},
	{"crd-cel", []step{
		{Method: "POST", Path: tablesPath, Body: tbl(`"name":"ce"`, `"spec":{"seats":2,"minSeats":3}`)},
		{Method: "POST", Path: tablesPath, Body: tbl(`"name":"ce"`, `"spec":{"seats":2,"section":"vip"}`)},
		{Method: "PATCH", Path: tablesPath + "/ce", ContentType: mergePatch, Body: `{"spec":{"section":"terrace"}}`},
		{Method: "PATCH", Path: tablesPath + "/ce", ContentType: mergePatch, Body: `{"spec":{"seats":4}}`},
	}},
	{"crd-apply-and-watch", []step{
		{Method: "PATCH", Path: tablesPath + "/ap?fieldManager=waiter", ContentType: "application/apply-patch+yaml",
			Body: "apiVersion: probe.example.com/v1\nkind: Table\nmetadata:\n  name: ap\nspec:\n  seats: 3\n  lines:\n  - name: soup\n"},
		{Method: "PATCH", Path: tablesPath + "/ap?fieldManager=chef", ContentType: "application/apply-patch+yaml",
			Body: "apiVersion: probe.example.com/v1\nkind: Table\nmetadata:\n  name: ap\nspec:\n  seats: 5\n"},
		{Method: "PATCH", Path: tablesPath + "/ap?fieldManager=chef", ContentType: "application/apply-patch+yaml",
			Body: "apiVersion: probe.example.com/v1\nkind: Table\nmetadata:\n  name: ap\nspec:\n  lines:\n  - name: stew\n"},
		{Method: "GET", Path: tablesPath + "?watch=true&resourceVersion={{rv:0}}&fieldSelector=metadata.name%3Dap&timeoutSeconds=1"},
	}},
	// Two managers apply one Table: lines is keyed, tags a set, cloth
	// atomic, and the merges and conflicts show who owns what.
	{"crd-apply-markers", []step{
		{Method: "PATCH", Path: tablesPath + "/mk?fieldManager=waiter", ContentType: "application/apply-patch+yaml",
			Body: tblApply("mk", "  seats: 3\n  tags: [a, b]\n  lines:\n  - {name: soup, qty: 2}\n  cloth: {color: white, size: L}\n")},
		{Method: "PATCH", Path: tablesPath + "/mk?fieldManager=chef", ContentType: "application/apply-patch+yaml",
			Body: tblApply("mk", "  tags: [c]\n  lines:\n  - {name: soup, qty: 3}\n  - {name: stew}\n  cloth: {color: red}\n")},
		{Method: "PATCH", Path: tablesPath + "/mk?fieldManager=chef&force=true", ContentType: "application/apply-patch+yaml",
			Body: tblApply("mk", "  tags: [c]\n  lines:\n  - {name: soup, qty: 3}\n  - {name: stew}\n  cloth: {color: red}\n")},
		{Method: "PATCH", Path: tablesPath + "/mk?fieldManager=waiter", ContentType: "application/apply-patch+yaml",
			Body: tblApply("mk", "  seats: 3\n  tags: [a]\n")},
		{Method: "PATCH", Path: tablesPath + "/mk?fieldManager=waiter", ContentType: "application/apply-patch+yaml",
			Body: tblApply("mk", "  seats: 3\n  cloth: {color: blue}\n")},
	}},
	{"crd-subresources", []step{
		{Method: "POST", Path: tablesPath, Body: tbl(`"name":"sr"`, `"spec":{"seats":2}`)},
		{Method: "PUT", Path: tablesPath + "/sr/status", Body: tbl(`"name":"sr","resourceVersion":"{{rv:0}}"`, `"spec":{"seats":5},"status":{"seated":2,"selector":"app=x"}`)},
		{Method: "PUT", Path: tablesPath + "/sr", Body: tbl(`"name":"sr","resourceVersion":"{{rv:1}}"`, `"spec":{"seats":6},"status":{"seated":9}`)},
		{Method: "GET", Path: tablesPath + "/sr/scale"},
		{Method: "PUT", Path: tablesPath + "/sr/scale", Body: `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"sr","namespace":"default"},"spec":{"replicas":7}}`},
		{Method: "GET", Path: tablesPath + "/sr"},
		{Method: "GET", Path: tablesPath + "?fieldSelector=spec.section%3Dhall"},
		{Method: "GET", Path: tablesPath + "?fieldSelector=spec.colour%3Dred"},
	}},
}

// TestRealServerCRDs plays the CRD cases: first the invalid definitions,
// then tablesCRD is created and established on both servers, then the
// cases, then the definition is deleted.
func TestRealServerCRDs(t *testing.T) {
	r := startReal(t)
	ks := httptest.NewServer(httpapi.NewHandler(newCRDServer(t)))
	t.Cleanup(ks.Close)
	var table strings.Builder
	agree, compared := 0, 0
	// Logged in a defer, so that a case that stops the test still shows
	// what was compared before it.
	defer func() {
		t.Logf("CustomResourceDefinition requests against a real kube-apiserver and kitchensync:\n%sagree %d / compared %d",
			table.String(), agree, compared)
	}()
	play := func(c diffCase) {
		var mr, mk memory
		for i, st := range c.Steps {
			key := fmt.Sprintf("%s/%d", c.Name, i)
			want, err := send(r.client, r.url, st, &mr)
			if err != nil {
				t.Fatalf("%s: real server: %v", key, err)
			}
			got, err := send(ks.Client(), ks.URL, st, &mk)
			if err != nil {
				t.Fatalf("%s: kitchensync: %v", key, err)
			}
			compared++
			verdict, ok := judge(t, key, st, cmp.Diff(crdNormalise(want), crdNormalise(got)))
			if ok {
				agree++
			}
			fmt.Fprintf(&table, "%-30s %-6s %-50.50s %s\n", key, st.Method, st.Path, verdict)
		}
	}
	play(invalidCRDCase())
	play(diffCase{"crd-create", []step{{Method: "POST", Path: crdPath, Body: tablesCRD}}})
	waitEstablished(t, r.client, r.url, tableCRDName)
	waitEstablished(t, ks.Client(), ks.URL, tableCRDName)
	for _, c := range crdCases {
		play(c)
	}
	play(diffCase{"crd-names-conflict", []step{{Method: "POST", Path: crdPath, Body: chairsCRD}}})
	waitCondition(t, r.client, r.url, "chairs.probe.example.com", "NamesAccepted")
	waitCondition(t, ks.Client(), ks.URL, "chairs.probe.example.com", "NamesAccepted")
	play(diffCase{"crd-names-conflict-status", []step{{Method: "GET", Path: crdPath + "/chairs.probe.example.com"}}})
	playVersions(t, r, ks, play)
	playEmbedded(t, r, ks, play)
	play(diffCase{"crd-delete", []step{
		{Method: "POST", Path: tablesPath, Body: tbl(`"name":"held","finalizers":["example.com/hold"]`, `"spec":{"seats":2}`)},
		{Method: "DELETE", Path: crdPath + "/" + tableCRDName},
		{Method: "POST", Path: tablesPath, Body: tbl(`"name":"late"`, `"spec":{"seats":2}`)},
	}})
	// kitchensync marks the definition's objects for deletion inside its
	// DELETE, the real server's finalizing controller just after it, so
	// that a request in between may find either state on the real
	// server: both are waited for before the finalizer goes.
	waitMarked(t, r.client, r.url, tablesPath, "held")
	waitMarked(t, ks.Client(), ks.URL, tablesPath, "held")
	play(diffCase{"crd-delete-finalized", []step{
		{Method: "GET", Path: tablesPath + "/held"},
		{Method: "PATCH", Path: tablesPath + "/held", ContentType: mergePatch, Body: `{"metadata":{"finalizers":null}}`},
	}})
	waitGone(t, r.client, r.url, tableCRDName)
	waitGone(t, ks.Client(), ks.URL, tableCRDName)
	play(diffCase{"crd-deleted", []step{
		{Method: "GET", Path: crdPath + "/" + tableCRDName},
		{Method: "GET", Path: tablesPath},
	}})
}

// newCRDServer is kitchensync's server for the CRD cases: namespaces
// with "default", and CustomResourceDefinitions served.
func newCRDServer(t *testing.T) *apiserver.Server {
	t.Helper()
	srv := apiserver.NewServer(meta.NewScheme(), apiserver.Options{DisableNamespaceController: true})
	if err := srv.Scheme().Register(builtin.NamespaceKind()); err != nil {
		t.Fatal(err)
	}
	if _, err := apiextensions.Install(srv); err != nil {
		t.Fatal(err)
	}
	if _, err := client.New[*builtin.Namespace](srv).Create(t.Context(), builtin.NewNamespace("default"), meta.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	return srv
}

// invalidCRDCase posts definitions each server must refuse.
func invalidCRDCase() diffCase {
	def := func(name, group, plural, kind, scope, schema string) string {
		return `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"` + name + `"},` +
			`"spec":{"group":"` + group + `","scope":"` + scope + `","names":{"plural":"` + plural + `","kind":"` + kind + `"},` +
			`"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":` + schema + `}}]}}`
	}
	obj := `{"type":"object"}`
	var steps []step
	for _, body := range []string{
		def("as.probe.example.com", probeGroup, "as", "A", "Namespaced", `{"type":"object","properties":{"spec":{"properties":{"x":{"type":"string"}}}}}`),
		def("cakes.bakery", "bakery", "cakes", "Cake", "Namespaced", obj),
		def("cake.bakery.example.com", "bakery.example.com", "cakes", "Cake", "Namespaced", obj),
		def("cakes.bakery.example.com", "bakery.example.com", "cakes", "cake", "Somewhere", obj),
		def("as.probe.example.com", probeGroup, "as", "A", "Namespaced", `{"type":"object","properties":{"spec":{"type":"strin"}}}`),
		def("as.probe.example.com", probeGroup, "as", "A", "Namespaced",
			`{"type":"object","properties":{"spec":{"type":"object","properties":{"n":{"type":"integer","default":"x"},"m":{"type":"object","default":{"zz":1},"properties":{"a":{"type":"string"}}}}}}}`),
		def("as.probe.example.com", probeGroup, "as", "A", "Namespaced", `{"type":"object","properties":{"spec":{"type":"array"}}}`),
		def("as.probe.example.com", probeGroup, "as", "A", "Namespaced",
			`{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{"type":"string"}}}}`),
		def("as.probe.example.com", probeGroup, "as", "A", "Namespaced", `{"type":"object","properties":{"metadata":{"type":"object","properties":{"labels":{"type":"object"}}}}}`),
		def("as.probe.example.com", probeGroup, "as", "A", "Namespaced", `{"type":"string"}`),
		def("as.probe.example.com", probeGroup, "as", "A", "Namespaced", `{"type":"object","properties":{"n":{"type":"string","x-kubernetes-list-type":"set"}}}`),
		def("as.probe.example.com", probeGroup, "as", "A", "Namespaced", `{"type":"object","properties":{"n":{"type":"string","pattern":"(("}}}`),
		`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"cakes.bakery.example.com"},"spec":{"group":"bakery.example.com","scope":"Namespaced","names":{"plural":"cakes","kind":"Cake"},"versions":[{"name":"v1","served":true,"storage":true}]}}`,
		`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"cakes.bakery.example.com"},"spec":{"group":"bakery.example.com","scope":"Namespaced","names":{"plural":"cakes","kind":"Cake"},"versions":[]}}`,
		`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"cakes.bakery.example.com"},"spec":{"group":"bakery.example.com","scope":"Namespaced","names":{"plural":"cakes","kind":"Cake","listKind":"Cake"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}}]}}`,
	} {
		steps = append(steps, step{Method: "POST", Path: crdPath, Body: body})
	}
	return diffCase{"crd-invalid-definitions", steps}
}

// crdNormalise masks what differs by time (lastTransitionTime) and puts
// the causes of an Invalid Status in order, with its message rebuilt from
// them: the real server's schema validation reports fields in Go map
// order, which varies from run to run.
func crdNormalise(a answer) answer {
	a.Body = maskTimes(a.Body)
	m, ok := a.Body.(map[string]any)
	if !ok || m["kind"] != "Status" {
		return a
	}
	details, _ := m["details"].(map[string]any)
	causes, _ := details["causes"].([]any)
	if len(causes) < 2 {
		return a
	}
	parts := make([]string, 0, len(causes))
	for _, c := range causes {
		cm, _ := c.(map[string]any)
		parts = append(parts, fmt.Sprint(cm["field"], ": ", cm["message"]))
	}
	slices.Sort(parts)
	slices.SortFunc(causes, func(x, y any) int {
		return strings.Compare(fmt.Sprint(x), fmt.Sprint(y))
	})
	if msg, ok := m["message"].(string); ok {
		if i := strings.Index(msg, " is invalid: ["); i >= 0 {
			m["message"] = msg[:i] + " is invalid: [" + strings.Join(parts, ", ") + "]"
		}
	}
	return a
}

func maskTimes(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if k == "lastTransitionTime" {
				x[k] = "<time>"
				continue
			}
			x[k] = maskTimes(val)
		}
	case []any:
		for i := range x {
			x[i] = maskTimes(x[i])
		}
	}
	return v
}
