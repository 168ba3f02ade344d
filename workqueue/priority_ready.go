package workqueue

// readySet holds the ready entries of a [PriorityQueue] in the order Get
// hands them out. A binary heap alone would cost O(log n) for each push and
// pop, yet most entries arrive in that order already: at one priority, each
// add comes after the ones before it. So the set keeps a run, a FIFO of
// entries each of which comes after the one pushed before it, where pushes
// and pops cost O(1), and a heap only for the entries that arrive out of
// order (a higher priority than the last one pushed, or an item held for
// its worker, which keeps its place from before). Get takes whichever of
// the run's front and the heap's top comes first.
//
// Each entry records where it is, through moved: a heap position (0 or
// more), or -(i+1) for the run's i-th push. An entry removed from the run
// leaves a hole (-1) that pops skip. The zero value is not usable (set
// less, after and moved). It is not safe for concurrent use.
type readySet struct {
	run   []int32 // a ring, a power of two long: push i is at run[i&(len-1)] for head <= i < tail; -1: removed
	head  int     // the index of the run's first push still there
	tail  int     // the index of the next push
	live  int     // entries in the run (not holes)
	last  int32   // the run's last entry, while live > 0
	heap  slotHeap
	less  func(a, b int32) bool     // a comes out before b
	moved func(slot int32, pos int) // records where slot is (see above)
}

// init sets the order and the callback that records positions.
func (r *readySet) init(less func(a, b int32) bool, moved func(slot int32, pos int)) {
	r.less, r.moved = less, moved
	r.heap.less, r.heap.moved = less, moved
}

// len returns the number of ready entries.
func (r *readySet) len() int { return r.live + r.heap.len() }

// push adds slot: onto the run if it comes after the run's last entry (or
// the run is empty), else into the heap.
func (r *readySet) push(slot int32) {
	if r.live > 0 && !r.less(r.last, slot) {
		r.heap.push(slot)
		return
	}
	if r.tail-r.head == len(r.run) {
		r.grow()
	}
	r.run[r.tail&(len(r.run)-1)] = slot
	r.moved(slot, -(r.tail + 1))
	r.tail++
	r.live++
	r.last = slot
}

// pop removes and returns the first entry. The set must not be empty.
func (r *readySet) pop() int32 {
	if r.live == 0 || r.heap.len() > 0 && r.less(r.heap.top(), r.run[r.head&(len(r.run)-1)]) {
		return r.heap.pop()
	}
	slot := r.run[r.head&(len(r.run)-1)]
	r.removeFromRun(r.head)
	return slot
}

// fix restores the order after the key of the entry at pos changed.
func (r *readySet) fix(pos int) {
	if pos >= 0 {
		r.heap.fix(pos)
		return
	}
	i := -pos - 1
	slot := r.run[i&(len(r.run)-1)]
	r.removeFromRun(i)
	r.push(slot)
}

// removeFromRun leaves a hole at the run's i-th push, and trims the holes
// at both ends, so that last is the run's last entry again.
func (r *readySet) removeFromRun(i int) {
	mask := len(r.run) - 1
	r.run[i&mask] = -1
	r.live--
	for r.head < r.tail && r.run[r.head&mask] == -1 {
		r.head++
	}
	for r.tail > r.head && r.run[(r.tail-1)&mask] == -1 {
		r.tail--
	}
	if r.live > 0 {
		r.last = r.run[(r.tail-1)&mask]
	}
}

// grow doubles the run's ring (16 at least), keeping each push at its
// index.
func (r *readySet) grow() {
	run := make([]int32, max(16, 2*len(r.run)))
	for i := r.head; i < r.tail; i++ {
		run[i&(len(run)-1)] = r.run[i&(len(r.run)-1)]
	}
	r.run = run
}
