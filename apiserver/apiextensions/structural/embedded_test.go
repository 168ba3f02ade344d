package structural_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver/apiextensions/structural"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// tray is spec: {item: an embedded resource with a spec of its own,
// template: an embedded resource that keeps what it is sent, items: a
// list of embedded resources}.
func tray() *structural.Schema {
	item := func() *structural.Schema {
		return &structural.Schema{Type: "object", EmbeddedResource: true, Properties: map[string]*structural.Schema{
			"spec": {Type: "object", Properties: map[string]*structural.Schema{"dish": {Type: "string"}}}}}
	}
	return &structural.Schema{Type: "object", Properties: map[string]*structural.Schema{
		"spec": {Type: "object", Properties: map[string]*structural.Schema{
			"item":     item(),
			"template": {Type: "object", EmbeddedResource: true, PreserveUnknownFields: true},
			"items":    {Type: "array", Items: item()},
		}},
	}}
}

func causes(errs meta.FieldErrors) []string {
	var out []string
	for _, c := range errs {
		out = append(out, c.Field+": "+c.Message)
	}
	return out
}

// TestEmbeddedPruneAndCoerce: pruning leaves an embedded resource's
// apiVersion, kind and metadata alone (its other fields go by its
// schema); coercion reads the metadata as an ObjectMeta, dropping what
// ObjectMeta does not have and what is empty, and reports the dropped
// fields after the pruned ones, as the real server warns of them.
func TestEmbeddedPruneAndCoerce(t *testing.T) {
	doc := decode(t, `{"spec":{
		"item":{"apiVersion":"v1","kind":"Dish","metadata":{"name":"soup","labels":{"a":"b"},"junk":1},"spec":{"dish":"soup","extra":1},"more":2},
		"template":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"labels":{},"annotations":null,"generation":0,"creationTimestamp":null},"data":{"k":"v"}},
		"items":[{"apiVersion":"v1","kind":"Dish","metadata":{"zz":1}}]}}`)
	pruned := structural.Prune(tray(), doc, "")
	dropped, errs := structural.CoerceEmbedded(tray(), doc, "")
	if errs != nil {
		t.Fatalf("coerce: %v", errs)
	}
	if diff := cmp.Diff([]string{"spec.item.more", "spec.item.spec.extra"}, pruned); diff != "" {
		t.Errorf("pruned (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"spec.item.metadata.junk", "spec.items[0].metadata.zz"}, dropped); diff != "" {
		t.Errorf("dropped by coercion (-want +got):\n%s", diff)
	}
	want := decode(t, `{"spec":{
		"item":{"apiVersion":"v1","kind":"Dish","metadata":{"name":"soup","labels":{"a":"b"}},"spec":{"dish":"soup"}},
		"template":{"apiVersion":"v1","kind":"ConfigMap","metadata":{},"data":{"k":"v"}},
		"items":[{"apiVersion":"v1","kind":"Dish","metadata":{}}]}}`)
	if diff := cmp.Diff(want, doc); diff != "" {
		t.Errorf("after pruning and coercion (-want +got):\n%s", diff)
	}
}

// TestEmbeddedCoerceErrors: what cannot be coerced is one cause, the
// real server's 400.
func TestEmbeddedCoerceErrors(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"apiVersion not a string", `{"spec":{"item":{"apiVersion":5,"kind":"Dish"}}}`,
			"spec.item.apiVersion: Invalid value: 5: must be a string"},
		{"labels not a map", `{"spec":{"item":{"apiVersion":"v1","kind":"Dish","metadata":{"labels":"x"}}}}`,
			`spec.item.metadata: Invalid value: {"labels":"x"}: json: cannot unmarshal string into Go struct field ObjectMeta.labels of type map[string]string`},
		{"metadata not an object", `{"spec":{"items":[{"apiVersion":"v1","kind":"Dish","metadata":"x"}]}}`,
			`spec.items[0].metadata: Invalid value: "x": json: cannot unmarshal string into Go value of type v1.ObjectMeta`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errs := structural.CoerceEmbedded(tray(), decode(t, tc.doc), "")
			if diff := cmp.Diff([]string{tc.want}, causes(errs)); diff != "" {
				t.Errorf("causes (-want +got):\n%s", diff)
			}
		})
	}
}

// TestValidateEmbedded: an embedded resource needs an apiVersion and a
// kind, well formed, and its metadata follows ObjectMeta's rules, but
// for a name, which it need not have and which must only be a path
// segment.
func TestValidateEmbedded(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      []string
	}{
		{"valid, no name", `{"spec":{"item":{"apiVersion":"probe.example.com/v1","kind":"Dish","metadata":{"labels":{"a":"b"}}}}}`, nil},
		{"missing", `{"spec":{"item":{"spec":{}},"items":[{"metadata":{"name":"x"}}]}}`, []string{
			"spec.item.apiVersion: Required value", "spec.item.kind: Required value",
			"spec.items[0].apiVersion: Required value", "spec.items[0].kind: Required value"}},
		{"malformed", `{"spec":{"item":{"apiVersion":"a/b/c","kind":"no_way"},"template":{"apiVersion":"","kind":""}}}`, []string{
			`spec.item.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c`,
			`spec.item.kind: Invalid value: "no_way": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
			`spec.template.apiVersion: Invalid value: "": must not be empty`,
			`spec.template.kind: Invalid value: "": must not be empty`}},
		{"metadata", `{"spec":{"item":{"apiVersion":"v1","kind":"Dish","metadata":{"name":"a/b%","generateName":"c%","namespace":"Not_A_NS","generation":-1,"finalizers":["a/b/c"]}}}}`, []string{
			`spec.item.metadata.generateName: Invalid value: "c%": may not contain '%'`,
			`spec.item.metadata.name: Invalid value: "a/b%": may not contain '/'`,
			`spec.item.metadata.name: Invalid value: "a/b%": may not contain '%'`,
			`spec.item.metadata.namespace: Invalid value: "Not_A_NS": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
			`spec.item.metadata.generation: Invalid value: -1: must be greater than or equal to 0`,
			`spec.item.metadata.finalizers: Invalid value: "a/b/c": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`}},
		{"a dot for a name", `{"spec":{"item":{"apiVersion":"v1","kind":"Dish","metadata":{"name":".."}}}}`,
			[]string{`spec.item.metadata.name: Invalid value: "..": may not be '..'`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := causes(structural.ValidateEmbedded(tray(), decode(t, tc.doc), ""))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("causes (-want +got):\n%s", diff)
			}
		})
	}
}
