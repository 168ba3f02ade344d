package trace

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// Component names the part of the machinery that emitted a [Record].
type Component string

// The components that emit records, in the order data flows through them.
const (
	// APIServer is apiserver.Server: the writes it commits.
	APIServer Component = "apiserver"
	// Reflector is informer.Reflector: its lists and watches.
	Reflector Component = "reflector"
	// DeltaFIFO is informer.DeltaFIFO, an informer's queue with
	// informer.QueueDeltaFIFO (client-go before 1.33): deltas recorded
	// and popped.
	DeltaFIFO Component = "deltafifo"
	// RealFIFO is informer.RealFIFO, an informer's queue by default
	// (informer.QueueAtomic, client-go v0.37's) and with
	// informer.QueueInOrder: the same actions as a DeltaFIFO's.
	RealFIFO Component = "realfifo"
	// Informer is informer.SharedIndexInformer: its cache and its handlers.
	Informer Component = "informer"
	// Workqueue is any queue of package workqueue.
	Workqueue Component = "workqueue"
	// Controller is reconcile.Controller: predicates and reconciles.
	Controller Component = "controller"
)

// Action says what happened in a [Record]. Each action belongs to one
// [Component]; the comment on each says which fields it fills in, beyond
// Component, Name, Kind and Key.
type Action string

// What the API server does.
const (
	// Created: an object was stored (ResourceVersion).
	Created Action = "created"
	// Updated: an object changed (ResourceVersion; Detail "status" for a
	// write of the status subresource, "deletion started" for a delete
	// that only set deletionTimestamp because finalizers remain).
	Updated Action = "updated"
	// Deleted: an object is gone (ResourceVersion of the deletion;
	// Detail [GarbageCollector] when the server's garbage collector
	// deleted it because its owners are gone, [NamespaceController] when
	// its namespace is being deleted).
	Deleted Action = "deleted"
	// Conflict: an update was refused with 409 Conflict because it
	// carried a resourceVersion that is no longer the object's
	// (ResourceVersion the stale one it carried, Detail "now at rv N").
	// Nothing was written.
	Conflict Action = "conflict"
	// WatchesClosed: the server ended every watch at once
	// (apiserver.Server.CloseWatches; Count watches).
	WatchesClosed Action = "watches-closed"
	// Compacted: the server forgot its history (apiserver.Server.CompactHistory;
	// ResourceVersion is the latest: a watch from any older one now gets
	// 410 Expired).
	Compacted Action = "compacted"
)

// What a reflector does.
const (
	// Listed: a list returned (ResourceVersion of the list, Count items,
	// Duration), or failed (Err).
	Listed Action = "listed"
	// WatchStarted: a watch began (ResourceVersion it starts from), or
	// could not (Err).
	WatchStarted Action = "watch-started"
	// WatchEnded: a watch ended (ResourceVersion last seen; Err if it
	// ended in an error).
	WatchEnded Action = "watch-ended"
	// Expired: the server answered 410 Expired (ResourceVersion that was
	// too old, Err): the reflector lists again.
	Expired Action = "expired"
)

// What an informer's queue does, a [DeltaFIFO] or a [RealFIFO].
const (
	// DeltaRecorded: a delta was queued, appended to its key's list in a
	// DeltaFIFO, an entry of its own in a RealFIFO (DeltaType,
	// ResourceVersion of its object, Depth entries pending after it; for
	// a RealFIFO's ReplacedAll or Bookmark, the list's or the bookmark's
	// ResourceVersion and Count its objects).
	DeltaRecorded Action = "delta-recorded"
	// DeltaPopped: an entry was handed to the informer, a key and all its
	// deltas from a DeltaFIFO, one delta or an atomic batch from a
	// RealFIFO (DeltaType and ResourceVersion of the newest delta, Count
	// deltas, Depth entries still pending).
	DeltaPopped Action = "delta-popped"
)

// What a shared informer does.
const (
	// CacheUpdated: the informer's cache took a delta (DeltaType,
	// ResourceVersion now cached; for Deleted, the last one known).
	CacheUpdated Action = "cache-updated"
	// HandlerCalled: an event handler was called (Detail "OnAdd",
	// "OnUpdate" or "OnDelete", ResourceVersion of the object, Worker the
	// handler's number, counting from 1 in the order they were added).
	HandlerCalled Action = "handler-called"
)

// What a work queue does. Key is the item, formatted with %v; Depth is
// the number of items ready for Get after the action (the queue's Len);
// Priority is the item's, for a priority queue.
const (
	// Added: the item became ready: added now, or its delay is over.
	Added Action = "added"
	// Merged: the item was added while already ready, or while a worker
	// has it and it is already due again, and so collapsed into the
	// ticket that is there (Priority it now has).
	Merged Action = "merged"
	// Deferred: the item was added while a worker has it; it is queued
	// again when the worker calls Done ([Requeued]).
	Deferred Action = "deferred"
	// Delayed: the item will be added after Duration (AddAfter, or
	// RequeueAfter); an [Added] follows when the time comes.
	Delayed Action = "delayed"
	// RateLimited: the item will be added after Duration, the wait its
	// rate limiter chose (AddRateLimited, a failed reconcile).
	RateLimited Action = "rate-limited"
	// Got: a worker took the item.
	Got Action = "got"
	// Done: the worker finished the item.
	Done Action = "done"
	// Requeued: the item, added while a worker had it, is ready now that
	// the worker is done.
	Requeued Action = "requeued"
)

// What a controller does.
const (
	// Dropped: a predicate filtered an event out, so no request was
	// queued (Detail the predicate's name, DeltaType the event: "Create",
	// "Update", "Delete" or "Generic", ResourceVersion of the object).
	Dropped Action = "dropped"
	// Mapped: an event on one object was turned into requests for
	// others — an owner (reconcile.Owns) or whatever a map function
	// chose (reconcile.Watches) — which are queued next (Kind and Key of
	// the object, DeltaType the event, Detail the requests, comma
	// separated). Not recorded when an object's event queues the object
	// itself (reconcile.For).
	Mapped Action = "mapped"
	// ReconcileStarted: a worker called Reconcile (Worker).
	ReconcileStarted Action = "reconcile-started"
	// ReconcileFinished: Reconcile returned (Worker, Result, Duration it
	// took; Err and Detail "terminal" or "panic" for failures, Detail
	// "after 5s" for [ResultRequeueAfter]).
	ReconcileFinished Action = "reconcile-finished"
	// StaleSkipped: a worker took a request but did not reconcile it,
	// because the controller's caches do not show its own last writes for
	// it yet (reconcile.Options.Freshness); the request is requeued with
	// backoff (Worker).
	StaleSkipped Action = "stale-skipped"
)

// The values of Record.Result for [ReconcileFinished]: controller-runtime's
// result label on controller_runtime_reconcile_total.
const (
	ResultSuccess      = "success"       // no error and no RequeueAfter
	ResultError        = "error"         // an error or a panic
	ResultRequeueAfter = "requeue_after" // asked to run again after Duration
)

// Record is one hand-off in the machinery: who did what to which object.
// Only the fields its [Action] documents are set; the others are zero.
//
// Records are plain values: a subscriber may keep them.
type Record struct {
	// Seq numbers the records of one [Tracer] from 1, in the order
	// subscribers receive them.
	Seq uint64 `json:"seq"`
	// Time is when the record was emitted (under testing/synctest, the
	// bubble's fake time).
	Time time.Time `json:"time"`
	// Component is the part of the machinery that acted.
	Component Component `json:"component"`
	// Name tells instances of a component apart: the informer's or the
	// reflector's resource, the queue's or the controller's name. Empty
	// for the API server.
	Name string `json:"name,omitempty"`
	// Action is what happened.
	Action Action `json:"action"`
	// Kind is the kind of the object, where known (e.g. "Order").
	Kind string `json:"kind,omitempty"`
	// Key is the object's "namespace/name" (or "name"), or a queue's item.
	Key string `json:"key,omitempty"`
	// ResourceVersion is the object's, or the list's or watch's.
	ResourceVersion string `json:"resourceVersion,omitempty"`
	// DeltaType is the type of a delta ("Added", "Updated", "Deleted",
	// "Replaced", "Sync") or of a controller event.
	DeltaType string `json:"deltaType,omitempty"`
	// Depth is the length of the queue after the action.
	Depth int `json:"depth,omitempty"`
	// Count is how many: items in a list, deltas popped, watches closed.
	Count int `json:"count,omitempty"`
	// Priority is a queue item's priority (0 unless a priority queue).
	Priority int `json:"priority,omitempty"`
	// Result is a reconcile's outcome (see [ResultSuccess]).
	Result string `json:"result,omitempty"`
	// Err is the error, if the action failed. JSON carries its message.
	Err error `json:"-"`
	// Duration is how long: a delay, a reconcile, a list.
	Duration time.Duration `json:"duration,omitempty"`
	// Worker numbers the worker or handler, from 1.
	Worker int `json:"worker,omitempty"`
	// Detail is anything else worth saying, documented per Action.
	Detail string `json:"detail,omitempty"`
}

// MarshalJSON encodes r with Err as its message, under "error".
func (r Record) MarshalJSON() ([]byte, error) {
	type plain Record // without this method
	var msg string
	if r.Err != nil {
		msg = r.Err.Error()
	}
	return json.Marshal(struct {
		plain
		Error string `json:"error,omitempty"`
	}{plain(r), msg})
}

// String formats r on one line. It leaves out Seq, Time and measured
// durations (it prints Duration only as the wait of [Delayed] and
// [RateLimited]), so that the same run prints the same lines:
//
//	workqueue[orders] added default/table-7 depth=1
func (r Record) String() string {
	var b strings.Builder
	b.WriteString(string(r.Component))
	if r.Name != "" {
		b.WriteString("[" + r.Name + "]")
	}
	b.WriteString(" " + string(r.Action))
	for _, s := range []string{r.Kind, r.Key} {
		if s != "" {
			b.WriteString(" " + s)
		}
	}
	field := func(name, value string) {
		if value != "" {
			b.WriteString(" " + name + "=" + value)
		}
	}
	num := func(name string, n int) {
		if n != 0 {
			field(name, strconv.Itoa(n))
		}
	}
	field("rv", r.ResourceVersion)
	field("delta", r.DeltaType)
	num("depth", r.Depth)
	num("count", r.Count)
	num("priority", r.Priority)
	num("worker", r.Worker)
	field("result", r.Result)
	if r.Action == Delayed || r.Action == RateLimited {
		field("after", r.Duration.String())
	}
	field("detail", r.Detail)
	if r.Err != nil {
		field("err", strconv.Quote(r.Err.Error()))
	}
	return b.String()
}

// GarbageCollector is the Detail of a [Deleted] record when the API
// server's garbage collector made the delete: no client asked for it.
const GarbageCollector = "garbage collector"

// NamespaceController is the Detail of a [Deleted] record when the API
// server's namespace controller made the delete: it empties a namespace
// being deleted, then lets the namespace go.
const NamespaceController = "namespace controller"
