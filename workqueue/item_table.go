package workqueue

import "hash/maphash"

// maxIdleItems is how many idle items (neither dirty nor processing) an
// [itemTable] may keep beyond as many as it has live ones.
const maxIdleItems = 4096

// itemEntry is one item known to a [Queue], with its state.
type itemEntry[T any] struct {
	item  T
	state itemState // zero: idle, kept only to save work when the item comes back
}

// itemTable holds the state of the items of a [Queue] in a slab, found by
// slot through a hash index of its own rather than a Go map: the index is
// one slice of words, each a slot and the high half of its item's hash,
// probed linearly, so it costs 8 bytes per bucket where a map[T]int32 of
// strings costs about 24, and the hash is computed by the caller, outside
// the queue's lock ([itemTable.hash]). Once an item has its slot, Get and
// Done work on the entry without hashing the item again, and an item that
// goes idle keeps its entry for a while, so that adding it again costs one
// probe.
//
// Idle entries are swept when there are more than maxIdleItems of them and
// more than live ones, so a sweep removes at least half the table
// (amortized constant work per Done) and the table holds at most twice the
// live items plus maxIdleItems. A sweep also rebuilds the index at the size
// the remaining items need, so the index shrinks after a burst. The zero
// value is not usable (call init); it is not safe for concurrent use,
// except hash.
type itemTable[T comparable] struct {
	seed    maphash.Seed
	index   []uint64 // a power of two long; 0: empty, else hash>>32<<32 | slot+1
	n       int      // entries in the index
	entries slab[itemEntry[T]]
	idle    int // entries whose state is zero
}

func (t *itemTable[T]) init() { t.seed = maphash.MakeSeed() }

// hash returns item's hash for lookup and slotOf. It only reads the seed,
// which init sets once: safe to call without the queue's lock.
func (t *itemTable[T]) hash(item T) uint64 { return maphash.Comparable(t.seed, item) }

// at returns the entry in slot.
func (t *itemTable[T]) at(slot int32) *itemEntry[T] { return t.entries.at(slot) }

// len returns the number of items that have an entry.
func (t *itemTable[T]) len() int { return t.n }

// find returns the index position holding item, whose hash is h, and
// whether it is there; if not, the position is the empty bucket where item
// belongs. The index must not be full.
func (t *itemTable[T]) find(item T, h uint64) (pos int, ok bool) {
	mask := len(t.index) - 1
	tag := h >> 32 << 32
	for pos = int(h) & mask; ; pos = (pos + 1) & mask {
		w := t.index[pos]
		if w == 0 {
			return pos, false
		}
		if w&^0xffffffff == tag && t.entries.at(int32(uint32(w))-1).item == item {
			return pos, true
		}
	}
}

// lookup returns the slot of item, whose hash is h, and whether item has
// an entry.
func (t *itemTable[T]) lookup(item T, h uint64) (int32, bool) {
	if t.n == 0 {
		return 0, false
	}
	pos, ok := t.find(item, h)
	return int32(uint32(t.index[pos])) - 1, ok
}

// slotOf returns the slot of item, whose hash is h, giving it an idle
// entry if it has none.
func (t *itemTable[T]) slotOf(item T, h uint64) int32 {
	if 4*(t.n+1) > 3*len(t.index) { // keep the index at most 3/4 full
		t.rebuild(max(8, 2*len(t.index)), false)
	}
	pos, ok := t.find(item, h)
	if ok {
		return int32(uint32(t.index[pos])) - 1
	}
	slot := t.entries.alloc()
	*t.entries.at(slot) = itemEntry[T]{item: item}
	t.index[pos] = h>>32<<32 | uint64(slot+1)
	t.n++
	t.idle++
	return slot
}

// setState sets the state of the entry e. Changes to and from idle are
// counted; a change to idle may sweep the idle entries.
func (t *itemTable[T]) setState(e *itemEntry[T], s itemState) {
	switch was := e.state; {
	case was == 0 && s != 0:
		t.idle--
	case was != 0 && s == 0:
		t.idle++
	}
	e.state = s
	if s == 0 && t.idle > maxIdleItems && 2*t.idle > t.n {
		t.sweep()
	}
}

// sweep forgets every idle entry and fits the index to the items left.
func (t *itemTable[T]) sweep() {
	live := t.n - t.idle
	size := 8
	for 2*live > size { // at most half full
		size *= 2
	}
	t.rebuild(size, true)
	t.idle = 0
}

// rebuild moves the index to a new one of size buckets, releasing the
// entries of idle items if forget is set.
func (t *itemTable[T]) rebuild(size int, forget bool) {
	old := t.index
	t.index, t.n = make([]uint64, size), 0
	for _, w := range old {
		if w == 0 {
			continue
		}
		slot := int32(uint32(w)) - 1
		e := t.entries.at(slot)
		if forget && e.state == 0 {
			t.entries.release(slot)
			continue
		}
		t.place(t.hash(e.item), w)
		t.n++
	}
}

// place puts the index word w, of an item whose hash is h and which is
// not in the index yet, in the first empty bucket from where h belongs.
func (t *itemTable[T]) place(h, w uint64) {
	mask := len(t.index) - 1
	pos := int(h) & mask
	for t.index[pos] != 0 {
		pos = (pos + 1) & mask
	}
	t.index[pos] = w
}
