package httpapi_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiextensions"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

const tableCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: tables.restaurant.example.com
spec:
  group: restaurant.example.com
  scope: Namespaced
  names: {plural: tables, singular: table, kind: Table, shortNames: [tb], categories: [all]}
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.seats, statusReplicasPath: .status.seated}
    additionalPrinterColumns:
    - {name: Seats, type: integer, jsonPath: .spec.seats}
    - {name: Section, type: string, jsonPath: .spec.section}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            description: What the table is set for.
            required: [seats]
            properties:
              seats: {type: integer, minimum: 1, maximum: 12, description: How many chairs.}
              section: {type: string, enum: [terrace, hall, vip], default: hall}
          status:
            type: object
            properties:
              seated: {type: integer}
`

// TestKubectlCRD applies a CustomResourceDefinition with kubectl, as a
// user would, and uses the kind it defines: discovery, create with
// defaults, a schema refusal, tables with its printer columns, explain
// and scale.
func TestKubectlCRD(t *testing.T) {
	srv := apiserver.NewServer(meta.NewScheme(), apiserver.Options{})
	if _, err := apiextensions.Install(srv); err != nil {
		t.Fatal(err)
	}
	k := newKubectl(t, serve(t, srv).URL)
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	k.must("customresourcedefinition.apiextensions.k8s.io/tables.restaurant.example.com created\n", "apply", "-f", write("crd.yaml", tableCRD))
	k.must("customresourcedefinition.apiextensions.k8s.io/tables.restaurant.example.com\n", "wait", "--for=condition=Established", "crd/tables.restaurant.example.com", "-o", "name", "--timeout=5s")
	out, _, _ := k.run("api-resources", "--api-group=restaurant.example.com", "--no-headers")
	if fields := strings.Fields(out); strings.Join(fields, " ") != "tables tb restaurant.example.com/v1 true Table" {
		t.Errorf("api-resources: %q", out)
	}
	k.must("table.restaurant.example.com/t1 created\n", "apply", "-f", write("t1.yaml",
		"apiVersion: restaurant.example.com/v1\nkind: Table\nmetadata: {name: t1}\nspec: {seats: 4}\n"))
	k.must("hall", "get", "tb", "t1", "-o", "jsonpath={.spec.section}")
	k.must("NAME   SEATS   SECTION\nt1     4       hall\n", "get", "tables")
	k.fail(`The Table "t2" is invalid: spec.seats: Invalid value: 99: spec.seats in body should be less than or equal to 12`+"\n",
		"create", "-f", write("t2.yaml", "apiVersion: restaurant.example.com/v1\nkind: Table\nmetadata: {name: t2}\nspec: {seats: 99}\n"))
	k.must("table.restaurant.example.com/t1 scaled\n", "scale", "table/t1", "--replicas=6")
	k.must("6", "get", "tb", "t1", "-o", "jsonpath={.spec.seats}")
	out, errOut, ok := k.run("explain", "tables.spec.seats")
	if !ok || !strings.Contains(out, "How many chairs.") {
		t.Errorf("explain: %s %s", out, errOut)
	}
}

// TestKubectlGetCRD prints definitions as kube-apiserver's table does.
func TestKubectlGetCRD(t *testing.T) {
	srv := apiserver.NewServer(meta.NewScheme(), apiserver.Options{})
	if _, err := apiextensions.Install(srv); err != nil {
		t.Fatal(err)
	}
	crds, err := apiextensions.Decode([]byte(tableCRD))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := apiextensions.Apply(t.Context(), srv, crds...); err != nil {
		t.Fatal(err)
	}
	k := newKubectl(t, serve(t, srv).URL)
	out, _, _ := k.run("get", "crd", "-o", "wide", "--no-headers")
	fields := strings.Fields(out)
	if len(fields) != 8 || fields[1] != "Namespaced" || fields[2] != "v1(storage)" || fields[4] != "restaurant.example.com" ||
		fields[5] != "Table" || fields[6] != "tb" || fields[7] != "true" {
		t.Errorf("kubectl get crd -o wide: %q", out)
	}
}
