// Package apiextensions serves CustomResourceDefinitions
// (apiextensions.k8s.io/v1): a kind defined by a YAML document that you
// apply, rather than by Go code that registers it, as every kubebuilder
// project ships its kinds and as controller-runtime's envtest installs
// them. [Install] makes a server serve them; [Decode], [ReadFiles] and
// [Apply] read and apply definition files.
//
// In the kitchen: the order form itself is an order. The manager hands
// the front desk a new printed form (the definition); the desk checks
// that its name is not taken (NamesAccepted), puts a stack of them out
// (Established), and from then on takes orders written on it, refusing
// a form filled in wrong. Withdrawing the form first clears every order
// written on it (Terminating), then the stack goes.
//
// # The definition
//
// A [CustomResourceDefinition] names a group, a kind and its plural
// (which together make the definition's name, "<plural>.<group>"), a
// scope, and one or more versions, each with a structural OpenAPI v3
// schema (see package apiserver/apiextensions/structural), optional
// status and scale subresources, printer columns and selectable fields.
// The server checks a definition as kube-apiserver does, with its field
// paths and messages; one that is wrong anywhere (a schema that is not
// structural, a group without a dot, names that break the rules) is
// refused whole, and nothing of it is served.
//
// # The controller
//
// [Controller] does what the real server's naming, establishing and
// finalizing controllers do, inside the call that wrote the definition
// (see [apiserver.Server.OnCommit]): it checks the names against the
// other definitions in the group, registers the kind in the server's
// scheme ([meta.Scheme.ReplaceResource]), which from then on serves it
// like any kind — CRUD, watch, selectors, finalizers, owner references
// and garbage collection, server-side apply, faults — and writes the
// conditions, in the real server's order and words: NamesAccepted, then
// Established. A definition whose names clash is kept but not served
// (NamesAccepted False, with the reason).
//
// Deleting a definition adds the finalizer
// customresourcecleanup.apiextensions.k8s.io and a Terminating condition
// in the same write; the controller then refuses new objects (403), deletes
// every object of the kind, and once the last is gone (after its own
// finalizers) stops serving the kind and lets the definition go.
//
// # Objects without Go types
//
// The objects of a defined kind are [meta.Unstructured]: apiVersion,
// kind, typed metadata, and the rest as decoded JSON. The server stores
// them through the same core as Go kinds. On every write the version's
// schema defaults them, prunes the fields it does not know (the HTTP
// front warns about them, or refuses them with fieldValidation=Strict),
// and validates them, CEL rules included (package
// apiserver/apiextensions/cel): a 422 names each bad field as the real
// server does,
//
//	spec.seats: Invalid value: 99: spec.seats in body should be less than or equal to 12
//
// An embedded resource (x-kubernetes-embedded-resource) needs an
// apiVersion and a kind, and its metadata is read as an ObjectMeta (what
// ObjectMeta lacks is dropped; a value of the wrong type is 400) and held
// to ObjectMeta's rules, but for a name, which it need not have.
//
// An update is not held to rules that a field it leaves unchanged broke
// already (ratcheting). With a status subresource, status is written
// only through it, and a spec change moves metadata.generation.
//
// Server-side apply merges and owns fields as the schema's markers say,
// as structured-merge-diff reads them: a list of x-kubernetes-list-type
// map item by item (by its x-kubernetes-list-map-keys), a set value by
// value, an object of x-kubernetes-map-type atomic whole; other lists are
// atomic, other objects granular ([meta.KindInfo.ListMapKeys], ListSets
// and AtomicMaps, filled from the schema).
//
// # A definition or a Go type
//
// A kind you build may come from either. Choose a definition when the
// kind must also live on a real cluster (the same YAML is applied there,
// as kubebuilder's config/crd/bases is), when its rules are data rather
// than code (a schema, CEL rules, defaults that a kubectl user can read),
// when tools must find it by discovery, or when you test a controller
// whose kinds ship as CRDs (envtest's CRDDirectoryPaths). Choose a Go
// type registered in the scheme ([meta.KindInfo]) when the kind lives
// only in process: the server then hands your code typed objects, with
// no conversion through JSON, Validate hooks in Go can say anything a
// schema cannot, and no definition has to be applied before the first
// write. The restaurant does the second (package kitchen registers Order,
// Dish and Cook) and ships the first for clusters (examples/manifests/crds);
// the cake shop's order-form scene applies its definition and then runs
// on Go types. With a definition, [client.ForResource] still gives typed
// access: a Go type of your own, converted through JSON.
//
// # Versions
//
// Every served version is served; objects are stored in the storage
// version and relabelled for the others (conversion None). In process,
// clients reach the storage version; over HTTP, every served version,
// and only those: a storage version marked served: false still stores
// the objects but is neither routed (404) nor discovered
// ([meta.KindInfo.NotServed]), and discovery prefers the highest served
// version (v1 before v1beta1), as on the real server.
//
// # What is left out
//
//   - Restarts: a server opened from a data directory (apiserver.Open)
//     restores only objects of kinds its scheme has before it reads them,
//     so custom objects written there do not survive a restart yet.
//   - Conversion webhooks: a definition that asks for one is accepted, and
//     its versions are relabelled as with None.
//   - The InstanceDeletionCheck condition of a deletion that waits for
//     finalizers.
//   - Defaulting when an object is read (defaults are applied when it is
//     written).
//   - Typed CEL (see package cel).
//   - Of an embedded resource's metadata, the ownerReferences and
//     managedFields are not validated, and unknown fields nested below its
//     top level (inside an owner reference) are dropped without a warning.
//   - Server-side apply does not see list-type and map-type markers below
//     a map's values (additionalProperties): those values merge as
//     granular objects with atomic lists.
package apiextensions
