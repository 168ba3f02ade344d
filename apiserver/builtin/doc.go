// Package builtin defines Kubernetes' own kinds that controllers lean on,
// with their real names and field names, for registration in an
// [apiserver.Scheme] in one call ([Register]): today [Lease]
// (coordination.k8s.io/v1), the lock of leader election.
//
// In the kitchen, a Lease is the chef's hat on its hook: whoever wears it
// runs the pass, and must show it off every few seconds (renew it), or
// another chef may take it once it has hung unworn for long enough.
//
// Registration is opt-in: a scheme of only custom kinds stays that way.
// Lease has no status subresource, as in Kubernetes; its spec is written
// with plain updates, guarded by resourceVersion like any other.
package builtin
