// Package gc is the garbage collector: it deletes the objects whose
// owners are gone, and carries out the foreground and orphan propagation
// policies of a delete, as kube-controller-manager's garbage collector
// does on a cluster.
//
// In the kitchen, an order's cooks point at the order (their
// ownerReferences). When the customer cancels the order and the order is
// gone, nobody tells each cook to go home: the collector walks the
// kitchen, finds cooks whose order no longer exists, and sends them home.
//
// # What it does
//
// [Collector.Collect] takes the work a commit made ([Work]): the
// dependents of an object that went, the owners that wait for a
// dependent that went, and objects that name owners or carry a
// propagation finalizer. For each it decides as the Kubernetes collector
// does:
//
//   - A dependent whose owners are all gone is deleted (its own
//     finalizers still hold it). One that still has a living owner only
//     loses its references to the dead ones.
//   - Foreground ([meta.DeletePropagationForeground]): the owner waits,
//     with a deletionTimestamp and the finalizer
//     [meta.FinalizerDeleteDependents], until every dependent whose
//     reference sets blockOwnerDeletion is gone; then it goes.
//   - Orphan ([meta.DeletePropagationOrphan]): the dependents stay, and
//     lose their references to the owner; then the owner goes.
//
// # The seam
//
// The collector reaches the API server only through [Store], which it
// owns and the server implements: read an object, find the dependents of
// an owner, find an owner, and write atomically (read, decide, write,
// again if the object changed meanwhile). That is all a collector needs,
// and it is what the real one gets from its informers and its client.
//
// # When it acts
//
// The real collector is a controller that acts a moment after its
// informers hear of a change. Here, dependents whose owners are gone are
// deleted within the call that made the garbage, so a test sees those
// writes right after that call (a simplification). A Foreground or Orphan
// delete is carried out as on a cluster: the DELETE answers the owner
// with its deletionTimestamp and the policy's finalizer, a GET right
// after finds it so, and the collector does the rest [Delay] later, on a
// goroutine that exists only while it has work (under testing/synctest:
// time.Sleep(gc.Delay), then synctest.Wait).
//
// Simplified too: it does not break
// cycles of blocking references (the real one makes such references
// non-blocking), so two objects that own each other and are both deleted
// in the foreground stay.
package gc
