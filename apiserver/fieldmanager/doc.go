// Package fieldmanager is server-side apply and metadata.managedFields: who
// owns which field of an object, and what applying a configuration does to
// it, like kube-apiserver's fieldmanager over structured-merge-diff. The
// API server (package apiserver) calls it on every write; it works on
// objects and their decoded JSON and knows nothing of storage.
//
// In the kitchen, several hands write on one order slip: the waiter owns
// the table and the dishes, the chef owns the status. Each signs the
// lines they wrote, so that when the waiter rewrites the slip from
// scratch, the chef's lines stay, and when two hands want the same line
// to say different things, the second is told who wrote it first.
//
// # Apply
//
// [Apply] takes a field manager's whole intent, "these fields, these
// values" (a patch of [meta.ApplyPatchType]), and merges it into the
// stored object: maps field by field, unless the kind declares them
// atomic ([meta.KindInfo.AtomicMaps]); lists whole, unless the kind
// declares them keyed ([meta.KindInfo.ListMapKeys]) or sets
// ([meta.KindInfo.ListSets]). A CustomResourceDefinition's schema
// declares them with its x-kubernetes-map-type and x-kubernetes-list-type
// markers (package apiserver/apiextensions). It records in
// metadata.managedFields ([meta.ManagedFieldsEntry]) which manager owns
// which field. Applying a different value to a field another manager owns
// is a 409 Conflict naming both ("Apply failed with 1 conflict: conflict
// with \"alice\": .spec.color"), unless force takes the field; the same
// value makes them co-owners. A field a manager stops applying is removed,
// if no other manager owns it. An apply that changes nothing writes
// nothing: the manager's time stays, so re-applying a manifest makes no
// new resourceVersion and no event, as on kube-apiserver.
//
// # Updates
//
// Writes other than apply that name a field manager become owners too,
// with operation Update, of what they change ([TrackCreate],
// [TrackUpdate]).
//
// # Versions
//
// A kind served in more than one version ([meta.ServedVersion]: core/v1
// and events.k8s.io/v1 Events) keeps each manager's fields in the version
// it wrote in ([Versions], [Writer]): an apply's configuration and an
// update's entry are in the writer's version, and a write is compared in
// each manager's version, so that a writer in one takes a field from a
// manager in the other ("message" is "note"), and a conflict names the
// field in its owner's version, as Kubernetes' field manager converts.
//
// # Differences from Kubernetes
//
// Server-side apply works here on the decoded JSON of objects. Where it
// differs from the real algorithm:
//
//   - The schema is the kind's Go type plus [meta.KindInfo.ListMapKeys],
//     [meta.KindInfo.ListSets] and [meta.KindInfo.AtomicMaps]: objects are
//     granular unless declared atomic, lists atomic unless declared keyed
//     or sets; there are no unions. They are named by static field paths,
//     so a marker below a map's values (additionalProperties) is not seen:
//     those values are granular objects and atomic lists.
//   - A field the kind's schema ([meta.SchemaOf]) does not declare is refused,
//     as for a CRD; one the Go type still drops (an omitempty field
//     applied at its zero value) is owned by nobody. A removed field of a
//     non-omitempty Go field comes back as its zero value.
//   - Update managers are not capped at 10 (no "ancient-changes" entry),
//     and writes without a field manager are tracked only on objects
//     that already carry managedFields (the real server would name the
//     client's user agent).
package fieldmanager
