package workqueue

// maxIdleItems is how many idle items (neither dirty nor processing) an
// [itemTable] may keep beyond as many as it has live ones.
const maxIdleItems = 4096

// itemEntry is one item known to a [Queue], with its state.
type itemEntry[T any] struct {
	item  T
	state itemState // zero: idle, kept only to save map work when the item comes back
}

// itemTable holds the state of the items of a [Queue] in a slab, found by
// slot through one map. Once an item has its slot, Get and Done work on the
// entry without hashing the item again, and an item that goes idle keeps its
// entry for a while, so that adding it again costs one map lookup. Idle
// entries are swept when there are more than maxIdleItems of them and more
// than live ones, so a sweep removes at least half the table (amortized
// constant work per Done) and the table holds at most twice the live items
// plus maxIdleItems. It is not safe for concurrent use.
type itemTable[T comparable] struct {
	slots   map[T]int32
	entries slab[itemEntry[T]]
	idle    int // entries whose state is zero
}

func (t *itemTable[T]) init() { t.slots = map[T]int32{} }

// at returns the entry in slot.
func (t *itemTable[T]) at(slot int32) *itemEntry[T] { return t.entries.at(slot) }

// lookup returns item's slot and whether item has an entry.
func (t *itemTable[T]) lookup(item T) (int32, bool) {
	slot, ok := t.slots[item]
	return slot, ok
}

// slotOf returns item's slot, giving it an idle entry if it has none.
func (t *itemTable[T]) slotOf(item T) int32 {
	if slot, ok := t.slots[item]; ok {
		return slot
	}
	slot := t.entries.alloc()
	*t.entries.at(slot) = itemEntry[T]{item: item}
	t.slots[item] = slot
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
	if s == 0 && t.idle > maxIdleItems && 2*t.idle > len(t.slots) {
		t.sweep()
	}
}

// sweep forgets every idle entry.
func (t *itemTable[T]) sweep() {
	for item, slot := range t.slots {
		if t.entries.at(slot).state == 0 {
			delete(t.slots, item)
			t.entries.release(slot)
		}
	}
	t.idle = 0
}
