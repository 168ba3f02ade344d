package liveview

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/trace"
)

// phrases say each action in a learner's words; describe adds the
// details. The object's key is not repeated: the page shows it beside.
var phrases = map[trace.Action]string{
	trace.Created: "stored", trace.Updated: "updated", trace.Deleted: "deleted", trace.Conflict: "409 Conflict: refused a write from",
	trace.WatchesClosed: "watches cut", trace.Compacted: "history compacted",
	trace.Listed: "LIST", trace.WatchStarted: "WATCH", trace.WatchEnded: "watch ended", trace.Expired: "410 Expired: relist",
	trace.DeltaRecorded: "queued", trace.DeltaPopped: "popped", trace.CacheUpdated: "indexer ←",
	trace.HandlerCalled: "handler", trace.Added: "ticket pinned", trace.Merged: "merged with the waiting ticket",
	trace.Deferred: "added while a worker has it: dirty, again when done", trace.Delayed: "delayed", trace.RateLimited: "backoff",
	trace.Got: "taken by a worker", trace.Done: "done", trace.Requeued: "back on the rail",
	trace.Dropped: "dropped by a predicate", trace.ReconcileStarted: "reconcile", trace.ReconcileFinished: "reconciled:",
}

// describe says what a record means, in a few words.
func describe(rec trace.Record) string {
	var b strings.Builder
	b.WriteString(cmp.Or(phrases[rec.Action], string(rec.Action)))
	switch rec.Action {
	case trace.Listed:
		fmt.Fprintf(&b, " %s: %d at rv %s", shortResource(rec.Name), rec.Count, rec.ResourceVersion)
	case trace.WatchStarted:
		fmt.Fprintf(&b, " %s from rv %s", shortResource(rec.Name), rec.ResourceVersion)
	case trace.WatchEnded, trace.Expired:
		fmt.Fprintf(&b, " (%s at rv %s)", shortResource(rec.Name), rec.ResourceVersion)
	case trace.WatchesClosed:
		fmt.Fprintf(&b, ": %d", rec.Count)
	case trace.Delayed, trace.RateLimited:
		fmt.Fprintf(&b, " %s", rec.Duration.Round(time.Millisecond))
	case trace.Added, trace.Merged:
		fmt.Fprintf(&b, " (priority %d, depth %d)", rec.Priority, rec.Depth)
	case trace.DeltaRecorded, trace.DeltaPopped:
		fmt.Fprintf(&b, " %s (%s queue)", rec.DeltaType, shortResource(rec.Name))
	case trace.Dropped:
		// "dropped by GenerationChangedOrResyncPredicate (Update)": the
		// predicate's own name, without its package.
		name := rec.Detail[strings.LastIndexByte(rec.Detail, '.')+1:]
		rec.Detail = ""
		fmt.Fprintf(&b, " %s: %s", rec.DeltaType, name)
	case trace.ReconcileStarted:
		fmt.Fprintf(&b, " by worker %d", rec.Worker)
	case trace.ReconcileFinished:
		fmt.Fprintf(&b, " %s in %s", rec.Result, rec.Duration.Round(time.Microsecond))
	default:
		if rec.DeltaType != "" {
			b.WriteString(" " + rec.DeltaType)
		}
	}
	if rec.Kind == "Cook" || rec.Name == "brigade" {
		_, name := splitKey(rec.Key)
		b.WriteString(" [cook " + name + "]")
	}
	if rec.Detail != "" {
		b.WriteString(" (" + rec.Detail + ")")
	}
	if rec.Err != nil {
		b.WriteString(": " + rec.Err.Error())
	}
	return b.String()
}

// classOf picks the page's style for a record.
func classOf(rec trace.Record) string {
	switch {
	case rec.Err != nil || rec.Result == trace.ResultError || rec.Action == trace.Conflict:
		return "error"
	case rec.Action == trace.Listed || rec.Action == trace.Expired || rec.Action == trace.Compacted:
		return "relist"
	case rec.Action == trace.WatchEnded || rec.Action == trace.WatchStarted || rec.Action == trace.WatchesClosed:
		return "watch"
	case rec.Component == trace.APIServer && rec.Action == trace.Deleted:
		return "deleted-object"
	case rec.Action == trace.Merged || rec.Action == trace.Deferred:
		return "dedup"
	}
	return ""
}

// shortResource turns an informer's name ("orders.menu.example.com", or
// a GroupVersionResource's string) into its resource ("orders").
func shortResource(name string) string {
	if i := strings.LastIndex(name, "Resource="); i >= 0 {
		return name[i+len("Resource="):]
	}
	if i := strings.IndexByte(name, '.'); i > 0 {
		return name[:i]
	}
	return name
}

// queueName names the runner's queue on the page.
func queueName(k informer.QueueKind) string {
	switch k {
	case informer.QueueInOrder:
		return "RealFIFO (in order)"
	case informer.QueueDeltaFIFO:
		return "DeltaFIFO"
	}
	return "RealFIFO (atomic)"
}

func itoa(n int) string { return strconv.Itoa(n) }
