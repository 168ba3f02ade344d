// Package builtin defines Kubernetes' own kinds that controllers lean on,
// with their real names and field names, for registration in an
// [meta.Scheme] in one call ([Register]): [Lease]
// (coordination.k8s.io/v1), the lock of leader election, and [Event]
// (core/v1, served in events.k8s.io/v1 too), the notes a controller
// leaves on the objects it works on.
//
// In the kitchen, a Lease is the chef's hat on its hook: whoever wears it
// runs the pass, and must show it off every few seconds (renew it), or
// another chef may take it once it has hung unworn for long enough. An
// Event is a note pinned to an order's ticket: "Cooking", "Served", or a
// warning that a dish is not on the menu.
//
// Registration is opt-in: a scheme of only custom kinds stays that way.
// [Namespace] (core/v1) is opt-in on its own ([NamespaceKind], not part
// of [Register]): once registered, objects can only be created in a
// namespace that exists, as on a cluster.
//
// Each kind also reads and writes Kubernetes' protobuf form of itself
// (UnmarshalProtobuf, MarshalProtobuf), which client-go's typed clients
// send and prefer to read, with
// google.golang.org/protobuf's wire package and the field numbers of
// k8s.io/api's generated.proto; no generated types.
//
// Lease has no status subresource, as in Kubernetes; its spec is written
// with plain updates, guarded by resourceVersion like any other.
//
// # Events in two versions
//
// Kubernetes serves one stored Event in two versions: core/v1 (what
// `kubectl get events`, `kubectl describe` and client-go's tools/record
// use) and events.k8s.io/v1 (what client-go's tools/events and
// controller-runtime's GetEventRecorder write). So does [Register]: the
// stored kind is [Event], and [EventsV1] serves it again as
// [EventsV1Event], an [meta.ServedVersion] that the HTTP front
// (package apiserver/httpapi) applies. [EventToV1] and [EventFromV1]
// convert field by field, as Kubernetes does: message is note,
// involvedObject is regarding, source is deprecatedSource, and so on.
// Writes in events.k8s.io/v1 are held to the rules of new-style events
// ([ValidateEventsV1Create], [ValidateEventsV1Update]): eventTime,
// reportingController, reportingInstance, action and reason required,
// the deprecated fields unset, and nothing but the series may change
// afterwards.
package builtin
