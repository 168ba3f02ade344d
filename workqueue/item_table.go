package workqueue

import (
	"hash/maphash"
	"sync/atomic"
)

// maxIdleItems is how many idle items (neither dirty nor processing) an
// [itemTable] may keep beyond as many as it has live ones.
const maxIdleItems = 4096

// stateForgotten marks an item node the table has dropped. It is never
// combined with the other states and never changes again, so a reader
// without the lock that finds the node in an old index sees that it is
// no longer the item's node.
const stateForgotten itemState = 1 << 7

// itemNode is one item known to a [Queue], with its state. Its item
// never changes; its state is written only under the queue's lock,
// but may be read without it (see [itemTable]).
type itemNode[T comparable] struct {
	item  T
	state atomic.Uint32 // an itemState; zero: idle, kept only to save work when the item comes back
}

// itemState returns the node's state.
func (n *itemNode[T]) itemState() itemState { return itemState(n.state.Load()) }

// itemIndex is an open-addressed hash index of nodes, probed linearly. It
// never shrinks or grows: the table replaces it whole.
type itemIndex[T comparable] struct {
	buckets []atomic.Pointer[itemNode[T]] // a power of two long; nil: empty
}

// itemTable holds the state of the items of a [Queue]: one node per item,
// found through a hash index of its own, hashed by the caller outside the
// queue's lock ([itemTable.hash]). The FIFO holds nodes, so Get and Done
// work on a node without hashing its item again, and an item that goes
// idle keeps its node for a while, so that adding it again costs one
// probe.
//
// Reads need no lock. A node is complete before it is stored in the index,
// the index is filled before it is published, and a node the table drops
// is marked forgotten first, so [itemTable.lookup] without the lock finds
// either the item's current node or nothing, or a forgotten one. That is
// what lets Add see that an item is already queued without taking the
// queue's lock. Writes (insert, setState, sweep) need the queue's lock.
//
// Seeing "dirty" without the lock is a safe answer because states are
// written with atomic stores, which Go orders with atomic loads as one
// sequence: if Add reads dirty, the Get that will hand the item out has
// not stored "processing" yet, so the worker that gets it runs after
// everything the producer did before Add (such as updating the cache the
// worker reads). The same holds for an item in progress that is dirty: its
// Done queues it again.
//
// Nodes are never reused, since a reader without the lock may still be
// reading an old one; a sweep copies the nodes it keeps instead.
//
// Idle nodes are swept when there are more than maxIdleItems of them and
// more than live ones, so a sweep removes at least half the table
// (amortized constant work per Done) and the table holds at most twice the
// live items plus maxIdleItems. A sweep also builds the index at the size
// the remaining items need, so the index shrinks after a burst. The zero
// value is not usable (call init).
type itemTable[T comparable] struct {
	seed  maphash.Seed
	index atomic.Pointer[itemIndex[T]]
	chunk []itemNode[T] // unused nodes, handed out from the front
	n     int           // nodes in the index
	idle  int           // nodes whose state is zero
}

func (t *itemTable[T]) init() {
	t.seed = maphash.MakeSeed()
	t.index.Store(&itemIndex[T]{buckets: make([]atomic.Pointer[itemNode[T]], 8)})
}

// hash returns item's hash for lookup and insert. It only reads the seed,
// which init sets once: safe to call without the queue's lock.
func (t *itemTable[T]) hash(item T) uint64 { return maphash.Comparable(t.seed, item) }

// len returns the number of items that have a node. Call with the lock.
func (t *itemTable[T]) len() int { return t.n }

// find returns the position in idx holding item, whose hash is h, and its
// node; if item has none, the node is nil and the position is the empty
// bucket where item belongs. idx must not be full.
func find[T comparable](idx *itemIndex[T], item T, h uint64) (int, *itemNode[T]) {
	mask := len(idx.buckets) - 1
	for pos := int(h) & mask; ; pos = (pos + 1) & mask {
		n := idx.buckets[pos].Load()
		if n == nil || n.item == item {
			return pos, n
		}
	}
}

// lookup returns the node of item, whose hash is h, or nil. Without the
// lock, it may also return nil for an item being inserted meanwhile, or a
// node being forgotten meanwhile (its state tells).
func (t *itemTable[T]) lookup(item T, h uint64) *itemNode[T] {
	_, n := find(t.index.Load(), item, h)
	return n
}

// insert returns the node of item, whose hash is h, giving it an idle
// node if it has none. Call with the lock.
func (t *itemTable[T]) insert(item T, h uint64) *itemNode[T] {
	idx := t.index.Load()
	if 4*(t.n+1) > 3*len(idx.buckets) { // keep the index at most 3/4 full
		idx = t.grow(2 * len(idx.buckets))
	}
	pos, n := find(idx, item, h)
	if n != nil {
		return n
	}
	n = t.newNode()
	n.item = item
	idx.buckets[pos].Store(n)
	t.n++
	t.idle++
	return n
}

// setState sets the state of node n. Changes to and from idle are counted.
// Call with the lock.
func (t *itemTable[T]) setState(n *itemNode[T], s itemState) {
	switch was := n.itemState(); {
	case was == 0 && s != 0:
		t.idle--
	case was != 0 && s == 0:
		t.idle++
	}
	n.state.Store(uint32(s))
}

// newNode returns an unused node. Nodes come in chunks that grow with the
// table, up to 256 nodes, so that a table of many items makes few
// allocations and keeps its nodes close together. Call with the lock.
func (t *itemTable[T]) newNode() *itemNode[T] {
	if len(t.chunk) == 0 {
		t.chunk = make([]itemNode[T], min(max(8, t.n), 256))
	}
	n := &t.chunk[0]
	t.chunk = t.chunk[1:]
	return n
}

// needsSweep reports whether there are more than maxIdleItems idle nodes,
// and more idle nodes than live ones. Call with the lock.
func (t *itemTable[T]) needsSweep() bool {
	return t.idle > maxIdleItems && 2*t.idle > t.n
}

// sweep forgets every idle node and moves the others to new nodes, side
// by side in one chunk, under a new index fitted to them; the old nodes
// are all forgotten, so that none of their chunks stays alive for one
// item. Whoever holds nodes (the FIFO) must find them again afterwards.
// Call with the lock.
func (t *itemTable[T]) sweep() {
	live := t.n - t.idle
	size := 8
	for 2*live > size { // at most half full
		size *= 2
	}
	old := t.index.Load()
	idx := &itemIndex[T]{buckets: make([]atomic.Pointer[itemNode[T]], size)}
	chunk := make([]itemNode[T], live)
	for i := range old.buckets {
		n := old.buckets[i].Load()
		if n == nil {
			continue
		}
		if s := n.itemState(); s != 0 {
			c := &chunk[0]
			chunk = chunk[1:]
			c.item = n.item
			c.state.Store(uint32(s))
			place(idx, c, t.hash(c.item))
		}
		n.state.Store(uint32(stateForgotten)) // readers of the old index take the lock and find c
	}
	t.index.Store(idx)
	t.chunk, t.n, t.idle = nil, live, 0
}

// grow publishes a new index of size buckets holding the nodes of the
// current one, and returns it. Call with the lock.
func (t *itemTable[T]) grow(size int) *itemIndex[T] {
	old := t.index.Load()
	idx := &itemIndex[T]{buckets: make([]atomic.Pointer[itemNode[T]], size)}
	for i := range old.buckets {
		if n := old.buckets[i].Load(); n != nil {
			place(idx, n, t.hash(n.item))
		}
	}
	t.index.Store(idx)
	return idx
}

// place puts node n, whose item is not in idx yet and hashes to h, in
// the first empty bucket from where h belongs.
func place[T comparable](idx *itemIndex[T], n *itemNode[T], h uint64) {
	mask := len(idx.buckets) - 1
	pos := int(h) & mask
	for idx.buckets[pos].Load() != nil {
		pos = (pos + 1) & mask
	}
	idx.buckets[pos].Store(n)
}
