package workqueue

// slotHeap is a binary min-heap of slots: indices into a slab of entries
// that its owner keeps. Storing small integers instead of pointers or
// boxed values keeps pushes and pops free of allocations (container/heap
// would box every pushed value in an interface), and the moved callback lets
// the owner record each entry's position so that it can fix or remove the
// entry in O(log n) when its key changes.
// It is not safe for concurrent use.
type slotHeap struct {
	slots []int32
	less  func(a, b int32) bool     // the order: less(a, b) means a comes out first
	moved func(slot int32, pos int) // records that slot is now at slots[pos]
}

// len returns the number of slots in the heap.
func (h *slotHeap) len() int { return len(h.slots) }

// top returns the first slot without removing it. The heap must not be empty.
func (h *slotHeap) top() int32 { return h.slots[0] }

// push adds slot.
func (h *slotHeap) push(slot int32) {
	h.slots = append(h.slots, slot)
	h.moved(slot, len(h.slots)-1)
	h.up(len(h.slots) - 1)
}

// pop removes and returns the first slot. The heap must not be empty.
func (h *slotHeap) pop() int32 { return h.remove(0) }

// remove removes and returns the slot at position pos.
func (h *slotHeap) remove(pos int) int32 {
	slot := h.slots[pos]
	last := len(h.slots) - 1
	if pos != last {
		h.swap(pos, last)
	}
	h.slots = h.slots[:last]
	if pos != last {
		h.fix(pos)
	}
	return slot
}

// fix restores the order after the key of the slot at pos changed.
func (h *slotHeap) fix(pos int) {
	if !h.down(pos) {
		h.up(pos)
	}
}

func (h *slotHeap) swap(i, j int) {
	h.slots[i], h.slots[j] = h.slots[j], h.slots[i]
	h.moved(h.slots[i], i)
	h.moved(h.slots[j], j)
}

func (h *slotHeap) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !h.less(h.slots[i], h.slots[parent]) {
			return
		}
		h.swap(i, parent)
		i = parent
	}
}

// down sifts the slot at i towards the leaves and reports whether it moved.
func (h *slotHeap) down(i int) bool {
	start, n := i, len(h.slots)
	for {
		child := 2*i + 1
		if child >= n {
			break
		}
		if right := child + 1; right < n && h.less(h.slots[right], h.slots[child]) {
			child = right
		}
		if !h.less(h.slots[child], h.slots[i]) {
			break
		}
		h.swap(i, child)
		i = child
	}
	return i > start
}
