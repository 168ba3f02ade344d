package apiextensions_test

import (
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiextensions"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// crdJSON is a definition of kind A (plural as) in probe.example.com, with
// the schema given.
func crdJSON(name, group, plural, kind, scope, schema string) string {
	return `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"` + name + `"},` +
		`"spec":{"group":"` + group + `","scope":"` + scope + `","names":{"plural":"` + plural + `","kind":"` + kind + `"},` +
		`"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":` + schema + `}}]}}`
}

// TestInvalidDefinitions holds kube-apiserver v1.37's answers to the same
// definitions, word for word: each is refused whole.
func TestInvalidDefinitions(t *testing.T) {
	obj := `{"type":"object"}`
	for _, tc := range []struct{ name, body, want string }{
		{"not structural", crdJSON("as.probe.example.com", "probe.example.com", "as", "A", "Namespaced",
			`{"type":"object","properties":{"spec":{"properties":{"x":{"type":"string"}}}}}`),
			`CustomResourceDefinition.apiextensions.k8s.io "as.probe.example.com" is invalid: spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields`},
		{"group without a dot", crdJSON("cakes.bakery", "bakery", "cakes", "Cake", "Namespaced", obj),
			`CustomResourceDefinition.apiextensions.k8s.io "cakes.bakery" is invalid: spec.group: Invalid value: "bakery": should be a domain with at least one dot`},
		{"name not plural.group", crdJSON("cake.bakery.example.com", "bakery.example.com", "cakes", "Cake", "Namespaced", obj),
			`CustomResourceDefinition.apiextensions.k8s.io "cake.bakery.example.com" is invalid: metadata.name: Invalid value: "cake.bakery.example.com": must be spec.names.plural+"."+spec.group`},
		{"bad scope", crdJSON("cakes.bakery.example.com", "bakery.example.com", "cakes", "cake", "Somewhere", obj),
			`CustomResourceDefinition.apiextensions.k8s.io "cakes.bakery.example.com" is invalid: spec.scope: Unsupported value: "Somewhere": supported values: "Cluster", "Namespaced"`},
		{"unknown type", crdJSON("as.probe.example.com", "probe.example.com", "as", "A", "Namespaced", `{"type":"object","properties":{"spec":{"type":"strin"}}}`),
			`CustomResourceDefinition.apiextensions.k8s.io "as.probe.example.com" is invalid: spec.validation.openAPIV3Schema.properties[spec].type: Unsupported value: "strin": supported values: "array", "boolean", "integer", "number", "object", "string"`},
		{"bad defaults", crdJSON("as.probe.example.com", "probe.example.com", "as", "A", "Namespaced",
			`{"type":"object","properties":{"spec":{"type":"object","properties":{"n":{"type":"integer","default":"x"},"m":{"type":"object","default":{"zz":1},"properties":{"a":{"type":"string"}}}}}}}`),
			`CustomResourceDefinition.apiextensions.k8s.io "as.probe.example.com" is invalid: [spec.validation.openAPIV3Schema.properties[spec].properties[m].default: Invalid value: {"zz":1}: must not have unknown fields, spec.validation.openAPIV3Schema.properties[spec].properties[n].default: Invalid value: "string":  in body must be of type integer: "string"]`},
		{"array without items", crdJSON("as.probe.example.com", "probe.example.com", "as", "A", "Namespaced", `{"type":"object","properties":{"spec":{"type":"array"}}}`),
			`CustomResourceDefinition.apiextensions.k8s.io "as.probe.example.com" is invalid: spec.validation.openAPIV3Schema.properties[spec].items: Required value: must be specified`},
		{"properties and additionalProperties", crdJSON("as.probe.example.com", "probe.example.com", "as", "A", "Namespaced",
			`{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{"type":"string"}}}}`),
			`CustomResourceDefinition.apiextensions.k8s.io "as.probe.example.com" is invalid: spec.validation.openAPIV3Schema.properties[spec].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`},
		{"metadata schema", crdJSON("as.probe.example.com", "probe.example.com", "as", "A", "Namespaced",
			`{"type":"object","properties":{"metadata":{"type":"object","properties":{"labels":{"type":"object"}}}}}`),
			`CustomResourceDefinition.apiextensions.k8s.io "as.probe.example.com" is invalid: spec.validation.openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`},
		{"root not an object", crdJSON("as.probe.example.com", "probe.example.com", "as", "A", "Namespaced", `{"type":"string"}`),
			`CustomResourceDefinition.apiextensions.k8s.io "as.probe.example.com" is invalid: spec.validation.openAPIV3Schema.type: Invalid value: "string": must be object at the root`},
		{"no schema", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"cakes.bakery.example.com"},"spec":{"group":"bakery.example.com","scope":"Namespaced","names":{"plural":"cakes","kind":"Cake"},"versions":[{"name":"v1","served":true,"storage":true}]}}`,
			`CustomResourceDefinition.apiextensions.k8s.io "cakes.bakery.example.com" is invalid: spec.versions[0].schema.openAPIV3Schema: Required value`},
		{"two storage versions", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"cakes.bakery.example.com"},"spec":{"group":"bakery.example.com","scope":"Namespaced","names":{"plural":"cakes","kind":"Cake"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}},{"name":"v2","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}}]}}`,
			`CustomResourceDefinition.apiextensions.k8s.io "cakes.bakery.example.com" is invalid: [spec.versions: Invalid value: [{"Name":"v1","Served":true,"Storage":true,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null},{"Name":"v2","Served":true,"Storage":true,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null}]: must have exactly one version marked as storage version, status.storedVersions: Invalid value: ["v1"]: must have the storage version v2]`},
		{"no versions", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"cakes.bakery.example.com"},"spec":{"group":"bakery.example.com","scope":"Namespaced","names":{"plural":"cakes","kind":"Cake"},"versions":[]}}`,
			`CustomResourceDefinition.apiextensions.k8s.io "cakes.bakery.example.com" is invalid: [spec.versions: Invalid value: []: must have exactly one version marked as storage version, status.storedVersions: Invalid value: null: must have at least one stored version]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := apiserver.NewServer(meta.NewScheme(), apiserver.Options{})
			if _, err := apiextensions.Install(srv); err != nil {
				t.Fatal(err)
			}
			crds, err := apiextensions.Decode([]byte(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			_, err = apiextensions.Apply(t.Context(), srv, crds...)
			if !meta.IsInvalid(err) || err.Error() != tc.want {
				t.Errorf("got  %v\nwant %s", err, tc.want)
			}
			if kinds := srv.Scheme().Kinds(); len(kinds) != 1 {
				t.Errorf("kinds registered: %d, want only CustomResourceDefinition", len(kinds))
			}
			list, _ := srv.Resource(apiextensions.Resource).List(t.Context(), meta.ListOptions{})
			if len(list.Items) != 0 {
				t.Errorf("%d definitions stored", len(list.Items))
			}
		})
	}
}
