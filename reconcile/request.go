package reconcile

import (
	"context"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// NamespacedName names one object: its namespace (empty for cluster-scoped
// kinds) and its name. It is a comparable value, so it can be a queue item
// and a map key, like Kubernetes' types.NamespacedName.
type NamespacedName struct {
	Namespace string
	Name      string
}

// String returns "namespace/name", or just "name" when the namespace is
// empty — the same form as the cache's keys ([store.MetaNamespaceKeyFunc]).
func (n NamespacedName) String() string {
	if n.Namespace == "" {
		return n.Name
	}
	return n.Namespace + "/" + n.Name
}

// NamespacedNameOf returns the namespace and name of obj.
func NamespacedNameOf(obj meta.Object) NamespacedName {
	m := metaOf(obj)
	if m == nil {
		return NamespacedName{}
	}
	return NamespacedName{Namespace: m.Namespace, Name: m.Name}
}

// Request asks a [Reconciler] to look at one object. It carries only the
// object's key, never the object or the event that caused it: the
// reconciler reads the current state itself (see the package doc,
// "Level-triggered, not edge-triggered").
type Request struct {
	NamespacedName
}

// RequestFor returns the request for obj's own key.
func RequestFor(obj meta.Object) Request {
	return Request{NamespacedName: NamespacedNameOf(obj)}
}

// Result tells the [Controller] what to do with a request after a
// successful reconcile. The zero Result means "done until something
// changes". A Result returned together with a non-nil error is ignored: the
// error decides (see the package doc, "What a Result does").
type Result struct {
	// RequeueAfter, when positive, asks to reconcile the same request again
	// after this long, even if nothing changes. An event for the key that
	// arrives earlier reconciles it at once and, with the default priority
	// queue, replaces the timed requeue (with a workqueue.RateLimitingQueue
	// the timed requeue fires as well).
	RequeueAfter time.Duration
	// Priority, when set, is the priority of the requeue (error or
	// RequeueAfter) in a priority queue; higher runs first. Nil keeps the
	// priority the request was dequeued with. Ignored by queues without
	// priorities.
	Priority *int
}

// IsZero reports whether r asks for nothing: no requeue, no priority.
func (r Result) IsZero() bool {
	return r.RequeueAfter == 0 && r.Priority == nil
}

// Reconciler makes the world match what one object asks for. It is the
// only code a controller author writes; the [Controller] calls it with one
// [Request] at a time per key, from one of its workers.
//
// Reconcile must be idempotent: it may be called any number of times for
// the same key, including when nothing changed, and must converge. A
// non-nil error makes the controller retry with a per-key exponential
// backoff, unless it is wrapped by [TerminalError]. Like controller-runtime's
// reconcile.Reconciler.
type Reconciler interface {
	Reconcile(ctx context.Context, req Request) (Result, error)
}

// ReconcilerFunc lets an ordinary function be a [Reconciler], like
// [net/http.HandlerFunc].
type ReconcilerFunc func(ctx context.Context, req Request) (Result, error)

// Reconcile calls f(ctx, req).
func (f ReconcilerFunc) Reconcile(ctx context.Context, req Request) (Result, error) {
	return f(ctx, req)
}
