package informer

import (
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// DeltaType says what happened to an object, like client-go's
// cache.DeltaType.
type DeltaType string

// The kinds of change a [DeltaFIFO] or [RealFIFO] records.
const (
	// Added: a watch ADDED event, or an Add before the first list.
	Added DeltaType = "Added"
	// Updated: a watch MODIFIED event.
	Updated DeltaType = "Updated"
	// Deleted: a watch DELETED event, or a tombstone made by Replace for
	// an object that vanished while the watch was down (then
	// [Delta.Tombstone] is set).
	Deleted DeltaType = "Deleted"
	// Replaced: the object was in a full list (a relist). The consumer
	// cannot tell from this alone whether it is new or changed; it
	// compares with its cache. (client-go emits Sync instead unless
	// EmitDeltaTypeReplaced is set; kitchensync always emits Replaced.)
	Replaced DeltaType = "Replaced"
	// Sync: a periodic resync re-delivers a cached object that had nothing
	// pending, so handlers can re-check it.
	Sync DeltaType = "Sync"

	// The three below are made only by an atomic [RealFIFO]
	// ([RealFIFOOptions].AtomicEvents), each as one queue entry that
	// stands for many objects or for none, with [Delta.Info] set and
	// Object the zero T. Like client-go's delta types of the same names.

	// ReplacedAll: a whole list (the first one or a relist), to be
	// applied to the cache at once. Info has the list and its
	// resourceVersion. The consumer works out the tombstones itself, by
	// comparing the list with its cache when it gets there.
	ReplacedAll DeltaType = "ReplacedAll"
	// SyncAll: a periodic resync of everything cached, done when the
	// consumer gets there (so with the cache's state at that point).
	SyncAll DeltaType = "SyncAll"
	// Bookmark: the watch said the server's history has reached
	// Info.ResourceVersion; the consumer records it as the cache's
	// resourceVersion once everything before it is applied.
	Bookmark DeltaType = "Bookmark"
)

// atomic reports whether t is one of an atomic FIFO's deltas that stand
// for many objects or none (ReplacedAll, SyncAll, Bookmark).
func (t DeltaType) atomic() bool { return t == ReplacedAll || t == SyncAll || t == Bookmark }

// Delta is one recorded change to one object: the sticky note the runner
// writes for each thing it hears.
//
// client-go's Delta holds an interface{} that is either the object or a
// DeletedFinalStateUnknown, so every consumer must type-switch (and many
// got it wrong). Here Object is always a T: the object's state, or for a
// tombstone the last state known, which may be nil when nothing was known.
// Tombstone is non-nil exactly when the delete was inferred by a relist
// rather than seen on the watch; it carries the key, which is the only
// identity left when Object is nil.
type Delta[T meta.Object] struct {
	Type   DeltaType
	Object T
	// Tombstone is set only on Deleted deltas made by Replace; then
	// Tombstone.Obj == Object.
	Tombstone *DeletedFinalStateUnknown[T]
	// Info is set only on ReplacedAll and Bookmark deltas.
	Info *DeltaInfo[T]
}

// DeltaInfo is what a ReplacedAll or Bookmark delta carries: client-go's
// ReplacedAllInfo and BookmarkInfo in one type.
type DeltaInfo[T meta.Object] struct {
	// ResourceVersion is the list's (ReplacedAll) or the bookmark's.
	ResourceVersion string
	// Objects is the list, transformed already; nil for a Bookmark.
	Objects []T

	keys []string // Objects' keys, as the FIFO made them
}

// DeletedFinalStateUnknown is a tombstone: the object with this key was
// deleted while the watch was down, so its final state is unknown and Obj
// is the last state the FIFO or the cache had (nil if neither had one).
// Like client-go's type of the same name, but typed.
type DeletedFinalStateUnknown[T meta.Object] struct {
	Key string
	Obj T
}

// Deltas are the changes recorded for one key, oldest first.
type Deltas[T meta.Object] []Delta[T]

// Oldest returns the first delta, or nil if there is none.
func (d Deltas[T]) Oldest() *Delta[T] {
	if len(d) == 0 {
		return nil
	}
	return &d[0]
}

// Newest returns the last delta, or nil if there is none.
func (d Deltas[T]) Newest() *Delta[T] {
	if len(d) == 0 {
		return nil
	}
	return &d[len(d)-1]
}

// tombstone makes the Deleted delta Replace records for a vanished key.
func tombstone[T meta.Object](key string, last T) Delta[T] {
	return Delta[T]{Type: Deleted, Object: last, Tombstone: &DeletedFinalStateUnknown[T]{Key: key, Obj: last}}
}

// dedupDeltas merges the last two deltas if both are deletions; no other
// pair is ever merged. Like client-go's isDeletionDup, an older tombstone
// gives way to the newer delete, otherwise the older delete stays (a real
// delete seen on the watch beats a later tombstone for the same key).
func dedupDeltas[T meta.Object](d Deltas[T]) Deltas[T] {
	n := len(d)
	if n < 2 || d[n-1].Type != Deleted || d[n-2].Type != Deleted {
		return d
	}
	if d[n-2].Tombstone != nil {
		d[n-2] = d[n-1]
	}
	d[n-1] = Delta[T]{} // let the dropped object be collected
	return d[:n-1]
}
