package workqueue

import (
	"hash/maphash"
	"math/bits"
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

// A slot numbers a node in a [nodeSlab]: the FIFO and the index hold
// slots, not pointers, so that the collector has nothing to scan in them
// and storing one needs no write barrier.
type slot = uint32

// itemIndex is an open-addressed hash index of the nodes of one slab,
// probed linearly. A bucket holds the low 32 bits of its item's hash in
// its high half and its slot plus one in its low half (zero: empty), so
// that a probe compares hashes without reading a node, and growing the
// index moves buckets without hashing anything. It never shrinks or
// grows: the table replaces it whole.
type itemIndex[T comparable] struct {
	buckets []atomic.Uint64 // a power of two long
	nodes   *nodeSlab[T]    // the nodes the slots number
}

// bucketOf returns the bucket for slot s of an item whose hash is h.
func bucketOf(h uint64, s slot) uint64 { return h<<32 | (uint64(s) + 1) }

// itemTable holds the state of the items of a [Queue]: one node per item,
// found through a hash index of its own, hashed by the caller outside the
// queue's lock ([itemTable.hash]). The FIFO holds slots, so Get and Done
// work on a node without hashing its item again, and an item that goes
// idle keeps its node for a while, so that adding it again costs one
// probe.
//
// Reads need no lock. A node is complete before its slot is stored in the
// index, the slab publishes a new chunk before any slot in it is indexed,
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
// reading an old one; a sweep copies the nodes it keeps to a new slab
// instead.
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
	nodes *nodeSlab[T] // the current index's nodes
	n     int          // nodes in the index
	idle  int          // nodes whose state is zero
}

func (t *itemTable[T]) init() {
	t.seed = maphash.MakeSeed()
	t.nodes = &nodeSlab[T]{}
	t.index.Store(&itemIndex[T]{buckets: make([]atomic.Uint64, 8), nodes: t.nodes})
}

// hash returns item's hash for lookup and insert. It only reads the seed,
// which init sets once: safe to call without the queue's lock.
func (t *itemTable[T]) hash(item T) uint64 { return maphash.Comparable(t.seed, item) }

// len returns the number of items that have a node. Call with the lock.
func (t *itemTable[T]) len() int { return t.n }

// node returns the node in slot s. Call with the lock.
func (t *itemTable[T]) node(s slot) *itemNode[T] { return t.nodes.at(s) }

// find returns the position in idx holding item, whose hash is h, with
// its slot and node; if item has none, the node is nil and the position
// is the empty bucket where item belongs. idx must not be full.
func find[T comparable](idx *itemIndex[T], item T, h uint64) (int, slot, *itemNode[T]) {
	mask := len(idx.buckets) - 1
	tag := h << 32
	for pos := int(uint32(h)) & mask; ; pos = (pos + 1) & mask {
		b := idx.buckets[pos].Load()
		if b == 0 {
			return pos, 0, nil
		}
		if b&^(1<<32-1) == tag {
			s := slot(b) - 1
			if n := idx.nodes.load(s); n.item == item {
				return pos, s, n
			}
		}
	}
}

// lookup returns the slot and node of item, whose hash is h, or a nil
// node. Without the lock, it may also return nil for an item being
// inserted meanwhile, or a node being forgotten meanwhile (its state
// tells).
func (t *itemTable[T]) lookup(item T, h uint64) (slot, *itemNode[T]) {
	_, s, n := find(t.index.Load(), item, h)
	return s, n
}

// insert returns the slot and node of item, whose hash is h, giving it an
// idle node if it has none. Call with the lock.
func (t *itemTable[T]) insert(item T, h uint64) (slot, *itemNode[T]) {
	idx := t.index.Load()
	if 4*(t.n+1) > 3*len(idx.buckets) { // keep the index at most 3/4 full
		idx = t.grow(2 * len(idx.buckets))
	}
	pos, s, n := find(idx, item, h)
	if n != nil {
		return s, n
	}
	s, n = t.nodes.alloc()
	n.item = item
	idx.buckets[pos].Store(bucketOf(h, s))
	t.n++
	t.idle++
	return s, n
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

// needsSweep reports whether there are more than maxIdleItems idle nodes,
// and more idle nodes than live ones. Call with the lock.
func (t *itemTable[T]) needsSweep() bool {
	return t.idle > maxIdleItems && 2*t.idle > t.n
}

// sweep forgets every idle node and copies the others to a new slab,
// under a new index fitted to them; the old nodes are all forgotten, so
// that none of their chunks stays alive for one item. It returns the old
// slab: whoever holds slots (the FIFO) must find their items' new slots.
// Call with the lock.
func (t *itemTable[T]) sweep() (old *nodeSlab[T]) {
	live := t.n - t.idle
	size := 8
	for 2*live > size { // at most half full
		size *= 2
	}
	oldIdx := t.index.Load()
	old, t.nodes = t.nodes, &nodeSlab[T]{}
	idx := &itemIndex[T]{buckets: make([]atomic.Uint64, size), nodes: t.nodes}
	for i := range oldIdx.buckets {
		b := oldIdx.buckets[i].Load()
		if b == 0 {
			continue
		}
		n := old.at(slot(b) - 1)
		if st := n.itemState(); st != 0 {
			s, c := t.nodes.alloc()
			c.item = n.item
			c.state.Store(uint32(st))
			place(idx, b>>32, bucketOf(b>>32, s))
		}
		n.state.Store(uint32(stateForgotten)) // readers of the old index take the lock and find c
	}
	t.index.Store(idx)
	t.n, t.idle = live, 0
	return old
}

// grow publishes a new index of size buckets holding the buckets of the
// current one, and returns it. Call with the lock.
func (t *itemTable[T]) grow(size int) *itemIndex[T] {
	old := t.index.Load()
	idx := &itemIndex[T]{buckets: make([]atomic.Uint64, size), nodes: old.nodes}
	for i := range old.buckets {
		if b := old.buckets[i].Load(); b != 0 {
			place(idx, b>>32, b)
		}
	}
	t.index.Store(idx)
	return idx
}

// place stores bucket b, of an item not in idx yet whose hash's low 32
// bits are h, in the first empty bucket from where h belongs.
func place[T comparable](idx *itemIndex[T], h, b uint64) {
	mask := len(idx.buckets) - 1
	pos := int(uint32(h)) & mask
	for idx.buckets[pos].Load() != 0 {
		pos = (pos + 1) & mask
	}
	idx.buckets[pos].Store(b)
}

// nodeSlab holds nodes by slot, in chunks that never move: 8, 8, 16, 32,
// 64 and 128 nodes, then 256 each, so that a small queue stays small and
// a large one makes few allocations and keeps its nodes close together.
// Slots are handed out in order and never reused. The owner adds nodes
// under the queue's lock; a reader without it finds every node whose slot
// it read from an index, since a chunk is published before its slots are
// indexed.
type nodeSlab[T comparable] struct {
	chunks    [][]itemNode[T]                 // read and grown under the lock
	published atomic.Pointer[[][]itemNode[T]] // chunks, as of the last one added: for readers without the lock
	used      slot                            // slots handed out
}

// chunkOf returns the chunk holding slot s and the slot's place in it.
func chunkOf(s slot) (c int, i uint32) {
	if s >= 256 {
		return 5 + int(s>>8), s & 255
	}
	if c = bits.Len32(s >> 3); c == 0 {
		return 0, s
	}
	return c, s - 4<<c // chunk c (1 to 5) starts at slot 4<<c
}

// at returns the node in slot s. Call with the lock.
func (sl *nodeSlab[T]) at(s slot) *itemNode[T] {
	c, i := chunkOf(s)
	return &sl.chunks[c][i]
}

// load returns the node in slot s, which the caller read from an index of
// this slab; it needs no lock.
func (sl *nodeSlab[T]) load(s slot) *itemNode[T] {
	c, i := chunkOf(s)
	return &(*sl.published.Load())[c][i]
}

// alloc returns a new slot and its node, which holds the zero item and
// state. Call with the lock.
func (sl *nodeSlab[T]) alloc() (slot, *itemNode[T]) {
	s := sl.used
	c, i := chunkOf(s)
	if c == len(sl.chunks) {
		size := 256
		if c < 6 {
			size = max(8, 4<<c)
		}
		sl.chunks = append(sl.chunks, make([]itemNode[T], size))
		chunks := sl.chunks
		sl.published.Store(&chunks)
	}
	sl.used++
	return s, &sl.chunks[c][i]
}
