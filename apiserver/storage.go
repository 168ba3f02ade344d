package apiserver

import (
	"cmp"
	"strconv"
	"sync/atomic"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// entry is one stored state of one object. Once committed it is never
// mutated: requests that return an object copy it, watches share it, and
// writers build a new entry for every change. That is what lets the server hold its lock only
// for map and ring updates, never for deep copies or JSON encoding.
type entry struct {
	obj meta.Object
	// content is the object's JSON with metadata.resourceVersion cleared:
	// two states with equal content are the same state, which is how a
	// no-op update is recognised (as the real server compares the bytes it
	// would write to etcd).
	content []byte
	rv      int64
	// spec is where content holds obj's spec, when content is this
	// process's json.Marshal of obj (not read back from a file), so that
	// it can be compared with another entry's (see nextGeneration).
	spec span
	// rvPlace is where the resourceVersion goes in content, found by the
	// first list or event that writes it (see appendEntryJSON); 0: not yet.
	rvPlace atomic.Uint64
	// committedJSON is the object's JSON as committed, kept only with
	// [Options].CacheMutationDetector on, to catch a change made to it
	// afterwards by anyone it was shared with.
	committedJSON []byte
}

// span is where a member's value lies in an entry's content, [start,
// end); end 0 means unknown.
type span struct{ start, end int32 }

// stored is one stored object with the resource and key it is kept under.
type stored struct {
	gr  meta.GroupResource
	key string
	e   *entry
}

// key returns the storage key of an object: "namespace/name", or "name" for
// cluster-scoped kinds (namespace is then empty).
func objectKey(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}

// event is one committed change, kept in the history ring and fanned out to
// watchers. obj is the state after the change (for a deletion, the final
// state with the deletion's resourceVersion); prev is the state before it
// (nil for a creation). Watchers need prev to tell whether an object
// entered or left their selector.
type event struct {
	typ  meta.EventType
	gr   meta.GroupResource
	key  string
	ns   string
	obj  *entry
	prev *entry
}

// change is what a mutation wants to commit. An empty typ commits nothing
// and obj is returned as it is (a no-op or a dry run).
type change struct {
	typ meta.EventType
	obj *entry
	by  string // who made the change, when no client did (trace.GarbageCollector, trace.NamespaceController)
	// reply, when set, is what the caller gets instead of obj: the
	// update that removes a deleting object's last finalizer answers
	// the object it asked for, while the event carries the stored one.
	reply *entry
	// out, when set, is the writer's own copy of the object of result(),
	// made before the commit (see [Server.mutateCopy]).
	out meta.Object
}

// result is the entry a change answers with: reply, or else obj.
func (ch change) result() *entry { return cmp.Or(ch.reply, ch.obj) }

// history is a ring of the most recent events. Every resourceVersion is
// made by exactly one event, so the event with resourceVersion r sits at
// buf[r%len(buf)] and the ring holds exactly the events with
// compacted < r <= last. Like etcd after a compaction, a watch or a
// paged list that needs an event at or below compacted gets 410 Expired.
//
// The fields are guarded by the server's mu, but the slots may be read
// without it: the fan-out does (see watch_fanout.go), and [history.at]
// tells it when a slot has been overwritten since.
type history struct {
	buf       []atomic.Pointer[event]
	compacted int64 // every event with rv <= compacted is forgotten
	// listFloor is the latest compaction's resourceVersion: an exact
	// list or a continue token below it gets 410, as from etcd.
	listFloor int64
	last      int64 // the newest resourceVersion
	// shown is the newest resourceVersion that watchers may hear of: last,
	// or on a durable server the newest on the disk (set by commitLocked).
	shown int64
	// bytes is what the events hold alive that no object does (see
	// eventBytes); past maxBytes the oldest events go.
	bytes, maxBytes int64
	// fannedOut: every event up to here has been offered to the live
	// watchers, or is being offered (see watch_fanout.go).
	fannedOut int64
}

func newHistory(opts Options, start int64) *history {
	// Like etcd, whose revision starts at 1: an empty server reports
	// resourceVersion "1" (or start) and its first write gets the next.
	// It never reports "0", which clients read as "any version" (a
	// reflector that listed "0" would re-watch from "0" after a dropped
	// watch and never hear of a delete made meanwhile). Everything before
	// start counts as compacted: a client of an earlier server that
	// watches from its old resourceVersion gets 410 and lists again.
	start = max(start, 1)
	return &history{buf: make([]atomic.Pointer[event], opts.HistorySize), last: start, compacted: start,
		fannedOut: start, shown: start, maxBytes: opts.HistoryBytes}
}

// add appends the event of resourceVersion h.last+1.
// The oldest events go when the ring is full, or when what they hold
// passes maxBytes (the newest stays, however big).
func (h *history) add(ev *event) {
	h.last++
	h.bytes += eventBytes(ev) - eventBytes(h.buf[h.last%int64(len(h.buf))].Swap(ev))
	h.compacted = max(h.compacted, h.last-int64(len(h.buf)))
	for h.bytes > h.maxBytes && h.compacted < h.last-1 {
		h.compacted++
		h.bytes -= eventBytes(h.buf[h.compacted%int64(len(h.buf))].Swap(nil))
	}
}

// eventBytes is what an event (nil: none) alone keeps alive: the state
// it replaced, by the size of its JSON (decoded, it costs as much again).
func eventBytes(ev *event) int64 {
	if ev == nil || ev.prev == nil {
		return 0
	}
	return int64(len(ev.prev.content))
}

// at returns the event of resourceVersion rv, or nil if the ring no
// longer holds it. Holding the server's mu, the caller checks that
// compacted < rv <= last instead.
func (h *history) at(rv int64) *event {
	ev := h.buf[rv%int64(len(h.buf))].Load()
	if ev == nil || ev.obj.rv != rv {
		return nil
	}
	return ev
}

// cursor reads the ring's events in resourceVersion order, from rv on,
// with a division for the first slot only: see [history.at], which next
// is.
type cursor struct {
	buf     []atomic.Pointer[event]
	rv, pos int64
}

func (h *history) cursor(rv int64) cursor {
	return cursor{buf: h.buf, rv: rv, pos: rv % int64(len(h.buf))}
}

// next returns the event of resourceVersion c.rv, or nil if the ring no
// longer holds it, and moves on to the next resourceVersion.
func (c *cursor) next() *event {
	ev := c.buf[c.pos].Load()
	if ev != nil && ev.obj.rv != c.rv {
		ev = nil
	}
	c.rv++
	if c.pos++; c.pos == int64(len(c.buf)) {
		c.pos = 0
	}
	return ev
}

// compact forgets every event.
func (h *history) compact() {
	for i := range h.buf {
		h.buf[i].Store(nil)
	}
	h.compacted, h.bytes = h.last, 0
}

func formatRV(rv int64) string { return strconv.FormatInt(rv, 10) }

// parseRV reads a resourceVersion; ok is false for anything but a
// non-negative decimal number.
func parseRV(s string) (int64, bool) {
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && n >= 0
}
