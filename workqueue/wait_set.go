package workqueue

import "time"

// waitEntry is one item waiting for its ready time.
type waitEntry[T any] struct {
	item T
	at   time.Duration // the ready time, as an offset from waitSet.base
	seq  uint64        // arrival order: equal ready times come out first in, first out
	pos  int32         // position in the heap
}

// waitSet is the set of waiting items, at most one entry per item, ordered
// by ready time. Entries live in a [slab] whose freed slots are reused, so a
// steady stream of AddAfter calls does not allocate.
// It is not safe for concurrent use.
type waitSet[T comparable] struct {
	entries slab[waitEntry[T]]
	base    time.Time   // ready times are kept as offsets from it: cheaper to compare than a time.Time
	slots   map[T]int32 // the slot of each waiting item
	heap    slotHeap    // slots, earliest ready time first
	seq     uint64      // next waitEntry.seq
}

// init prepares an empty set whose ready times are at or after base (a
// ready time more than 292 years after base would be kept as 292 years).
func (w *waitSet[T]) init(base time.Time) {
	w.slots = map[T]int32{}
	w.base = base
	w.heap.less = func(a, b int32) bool {
		ea, eb := w.entries.at(a), w.entries.at(b)
		if ea.at != eb.at {
			return ea.at < eb.at
		}
		return ea.seq < eb.seq
	}
	w.heap.moved = func(slot int32, pos int) { w.entries.at(slot).pos = int32(pos) }
}

func (w *waitSet[T]) len() int { return w.heap.len() }

// add makes item wait until readyAt, or keeps its earlier ready time if it
// is already waiting. It reports whether item is now the first to be ready.
func (w *waitSet[T]) add(item T, readyAt time.Time) (first bool) {
	at := readyAt.Sub(w.base)
	if slot, ok := w.slots[item]; ok {
		e := w.entries.at(slot)
		if at >= e.at {
			return false
		}
		e.at = at
		w.heap.fix(int(e.pos))
		return w.heap.top() == slot
	}
	slot := w.entries.alloc()
	*w.entries.at(slot) = waitEntry[T]{item: item, at: at, seq: w.seq}
	w.seq++
	w.slots[item] = slot
	w.heap.push(slot)
	return w.heap.top() == slot
}

// first returns the item with the earliest ready time. The set must not be
// empty.
func (w *waitSet[T]) first() (T, time.Time) {
	e := w.entries.at(w.heap.top())
	return e.item, w.base.Add(e.at)
}

// removeFirst removes the item with the earliest ready time.
func (w *waitSet[T]) removeFirst() {
	slot := w.heap.pop()
	delete(w.slots, w.entries.at(slot).item)
	w.entries.release(slot)
}
