// Package apiservertest provides ready-made test kinds and a server for
// tests of packages built on [apiserver], the way net/http/httptest serves
// tests of HTTP code.
//
// [Widget] is a namespaced kind with a Spec and a Status (so it has a
// status subresource) and the extra field selector "spec.color"; [Gadget]
// is a cluster-scoped kind without a Status. [NewScheme] registers both and
// [NewServer] starts an in-memory server with them, ending its watches when
// the test ends.
package apiservertest
