// Package structural applies a CustomResourceDefinition's structural
// schema to the objects of its kind, as kube-apiserver's apiextensions
// server does: it defaults them ([Default]), prunes the fields the schema
// does not know ([Prune]), and validates them ([Validate] for types,
// formats, enums, bounds, patterns and required fields, [ValidateLists]
// for x-kubernetes-list-type set and map), and coerces and validates
// the embedded resources in them ([CoerceEmbedded], [ValidateEmbedded]),
// with the real server's field paths and wording.
//
// In the kitchen: the order form's printed boxes. A box left empty gets
// the house default, scribbles outside the boxes are ignored (and the
// waiter is told which), and a box filled in wrong sends the form back
// with every mistake circled.
//
// # Structural
//
// A schema is structural when every field says its type and the logical
// parts (allOf, anyOf, oneOf, not) only add rules, never new fields or
// types: then the server knows, for every value, which schema node
// governs it, and pruning and defaulting are well defined. Kubernetes
// has required it since apiextensions.k8s.io/v1. A [Schema] is one node
// of such a schema, built by package apiextensions once it has checked
// the definition (with the real server's messages for a schema that is
// not structural).
//
// # Values
//
// Values are what [meta.Unstructured] content holds: map[string]any,
// []any, string, int64, float64, bool and nil. Everything here works in
// place on them and is deterministic: fields are visited in sorted order.
//
// CEL rules (x-kubernetes-validations) are kept in [Schema.Rules] and
// checked by package apiserver/apiextensions/cel, so that this package
// needs nothing beyond the standard library.
package structural
