// Package namespaces is the lifecycle of a namespace: what the API server
// does when one is created, updated or deleted (the namespace strategy
// and the NamespaceLifecycle admission of kube-apiserver), and the
// namespace controller that empties a namespace being deleted, as
// kube-controller-manager's does.
//
// In the kitchen, a namespace is a dining room. A room can be closed for
// the night: no new orders are taken there (403 Forbidden), every order
// still on its tables is cleared, and only once the room is empty is it
// gone. The front desk, the dining rooms and the staff who clear them are
// separate jobs, as they are on a cluster.
//
// # The lifecycle
//
// A kind registered at [Resource] whose Go type is an [Object] (as
// builtin.Namespace is) has a namespace's lifecycle:
//
//   - Create sets status.phase to [NamespaceActive] and adds
//     [FinalizerKubernetes] to spec.finalizers and the label
//     [LabelMetadataName] ([PrepareForCreate]); updates keep
//     spec.finalizers ([PrepareForUpdate]).
//   - Delete marks the namespace Terminating; it goes once spec.finalizers
//     and metadata.finalizers are both empty ([Finalized]). "default",
//     "kube-public" and "kube-system" may not be deleted ([CheckDelete]).
//   - A create in a namespace that does not exist is 404 NotFound; in a
//     terminating one, 403 Forbidden (the server's admission).
//   - The [Controller] deletes everything in a terminating namespace,
//     writes status.conditions after each pass, then removes
//     [FinalizerKubernetes], after which the namespace goes.
//
// # The seam
//
// The controller reaches the API server only through [Store], which it
// owns and the server implements: read an object, list a namespace's
// contents, and write atomically. The strategy functions are plain
// functions of objects, which the server calls on its own writes.
package namespaces
