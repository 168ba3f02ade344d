package apiextensions_test

import (
	"context"
	"fmt"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiextensions"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// A kind made by applying a definition, not by Go code: the server
// establishes it, then serves it with its schema's defaults and rules.
func Example() {
	ctx := context.Background()
	srv := apiserver.NewServer(meta.NewScheme(), apiserver.Options{})
	if _, err := apiextensions.Install(srv); err != nil {
		fmt.Println(err)
		return
	}
	crds, _ := apiextensions.Decode([]byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: tables.restaurant.example.com}
spec:
  group: restaurant.example.com
  scope: Namespaced
  names: {plural: tables, kind: Table}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              seats: {type: integer, maximum: 12}
              section: {type: string, default: hall}
`))
	applied, err := apiextensions.Apply(ctx, srv, crds...)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range applied[0].Status.Conditions {
		fmt.Printf("%s=%s (%s)\n", c.Type, c.Status, c.Reason)
	}

	gvr := meta.GroupVersionResource{Group: "restaurant.example.com", Version: "v1", Resource: "tables"}
	tables := client.ForResource[*meta.Unstructured](srv, gvr).Namespace("default")
	t := meta.NewUnstructured(meta.GroupVersionKind{Group: gvr.Group, Version: gvr.Version, Kind: "Table"})
	t.Name = "t7"
	t.SetNestedField(int64(4), "spec", "seats")
	t.SetNestedField("red", "spec", "colour")
	stored, err := tables.Create(ctx, t, meta.CreateOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("stored spec:", stored.Content["spec"])

	t.Name = "t8"
	t.SetNestedField(int64(99), "spec", "seats")
	_, err = tables.Create(ctx, t, meta.CreateOptions{})
	fmt.Println(err)
	// Output:
	// NamesAccepted=True (NoConflicts)
	// Established=True (InitialNamesAccepted)
	// stored spec: map[seats:4 section:hall]
	// Table.restaurant.example.com "t8" is invalid: spec.seats: Invalid value: 99: spec.seats in body should be less than or equal to 12
}
