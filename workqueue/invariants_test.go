package workqueue

import (
	"testing"
	"testing/synctest"
	"time"
)

// checkQueue verifies the invariants of a Queue, like container/heap's
// verify: every queued item is dirty and not processing (queued ∩
// processing = ∅), no item is queued twice, every dirty item that is not
// processing is queued, and the processing count is right.
func checkQueue[T comparable](t *testing.T, q *Queue[T]) {
	t.Helper()
	q.mu.Lock()
	defer q.mu.Unlock()
	seen := map[T]bool{}
	for i := range q.queue.len() {
		s := q.queue.at(i)
		n := q.items.node(s)
		if seen[n.item] {
			t.Fatalf("item %v is queued twice", n.item)
		}
		seen[n.item] = true
		if st := n.itemState(); st != stateDirty {
			t.Fatalf("queued item %v has state %b, want dirty and not processing", n.item, st)
		}
		if got, gotN := q.items.lookup(n.item, q.items.hash(n.item)); got != s || gotN != n {
			t.Fatalf("queued item %v is in slot %d, but the index holds it in slot %d", n.item, s, got)
		}
	}
	processing, idle := 0, 0
	count := 0
	idx := q.items.index.Load()
	if idx.nodes != q.items.nodes {
		t.Fatalf("the index numbers the nodes of another slab")
	}
	for pos := range idx.buckets {
		b := idx.buckets[pos].Load()
		if b == 0 {
			continue
		}
		count++
		s := slot(b) - 1
		if s >= q.items.nodes.used {
			t.Fatalf("bucket %d holds slot %d, but only %d are used", pos, s, q.items.nodes.used)
		}
		n := q.items.node(s)
		item := n.item
		if h := q.items.hash(item); b>>32 != h&(1<<32-1) {
			t.Fatalf("bucket %d of item %v holds hash %#x, want %#x", pos, item, b>>32, h&(1<<32-1))
		}
		if got, _ := q.items.lookup(item, q.items.hash(item)); got != s {
			t.Fatalf("item %v in bucket %d is found in slot %d, want %d", item, pos, got, s)
		}
		switch st := n.itemState(); {
		case st == stateForgotten:
			t.Fatalf("item %v is forgotten but still indexed", item)
		case st == 0:
			idle++
		case st&stateProcessing != 0:
			processing++
		case !seen[item]:
			t.Fatalf("dirty item %v is neither queued nor processing", item)
		}
	}
	if count != q.items.len() {
		t.Fatalf("%d items indexed, count %d", count, q.items.len())
	}
	if 4*count > 3*len(idx.buckets) {
		t.Fatalf("%d items in an index of %d buckets: more than 3/4 full", count, len(idx.buckets))
	}
	if idle != q.items.idle {
		t.Fatalf("idle count = %d, but %d items are idle", q.items.idle, idle)
	}
	if processing != q.processing {
		t.Fatalf("processing count = %d, but %d items are processing", q.processing, processing)
	}
}

// checkWaitSet verifies a waitSet: the heap order, the recorded positions,
// the item index and the free list.
func checkWaitSet[T comparable](t *testing.T, w *waitSet[T]) {
	t.Helper()
	checkHeap(t, "waiting", &w.heap, func(slot int32) int { return int(w.entries.at(slot).pos) })
	if len(w.slots) != w.heap.len() {
		t.Fatalf("%d items indexed, %d in the heap", len(w.slots), w.heap.len())
	}
	for item, slot := range w.slots {
		if got := w.entries.at(slot).item; got != item {
			t.Fatalf("item %v indexed at slot %d holding %v", item, slot, got)
		}
	}
	if len(w.slots) != w.entries.inUse() {
		t.Fatalf("%d items indexed, %d slots in use", len(w.slots), w.entries.inUse())
	}
}

// checkDelaying verifies a DelayingQueue: its queue and its waiting set.
func checkDelaying[T comparable](t *testing.T, q *DelayingQueue[T]) {
	t.Helper()
	checkQueue(t, q.Queue)
	q.wmu.Lock()
	defer q.wmu.Unlock()
	checkWaitSet(t, &q.waiting)
}

// checkHeap verifies the heap property and that pos(slot) is each slot's
// position.
func checkHeap(t *testing.T, name string, h *slotHeap, pos func(int32) int) {
	t.Helper()
	for i, slot := range h.slots {
		if p := pos(slot); p != i {
			t.Fatalf("%s heap: slot %d is at %d but records %d", name, slot, i, p)
		}
		if i > 0 && h.less(slot, h.slots[(i-1)/2]) {
			t.Fatalf("%s heap: slot at %d comes before its parent", name, i)
		}
	}
}

// checkRun verifies the run of a readySet and returns its slots: in
// order, each recording its push, holes only between entries, and the
// counts and last entry right.
func checkRun(t *testing.T, r *readySet, pos func(int32) int) []int32 {
	t.Helper()
	var slots []int32
	mask := len(r.run) - 1
	for i := r.head; i < r.tail; i++ {
		s := r.run[i&mask]
		if s == -1 {
			if i == r.head || i == r.tail-1 {
				t.Fatalf("ready run: a hole at its end (%d in [%d, %d))", i, r.head, r.tail)
			}
			continue
		}
		if p := pos(s); p != -(i + 1) {
			t.Fatalf("ready run: slot %d is push %d but records %d", s, i, p)
		}
		if n := len(slots); n > 0 && !r.less(slots[n-1], s) {
			t.Fatalf("ready run: slot %d does not come after slot %d", s, slots[n-1])
		}
		slots = append(slots, s)
	}
	if len(slots) != r.live {
		t.Fatalf("ready run: %d entries, live count %d", len(slots), r.live)
	}
	if r.live > 0 && r.last != slots[len(slots)-1] {
		t.Fatalf("ready run: last = %d, want %d", r.last, slots[len(slots)-1])
	}
	return slots
}

// checkPriorityQueue verifies the invariants of a PriorityQueue: each
// entry is in exactly the structure its state names, no ready item is
// processing (ready ∩ processing = ∅), held items are processing, both heaps
// are ordered, and the slab's bookkeeping adds up.
func checkPriorityQueue[T comparable](t *testing.T, q *PriorityQueue[T]) {
	t.Helper()
	q.mu.Lock()
	defer q.mu.Unlock()
	pos := func(slot int32) int { return q.entries.at(slot).pos }
	checkHeap(t, "ready", &q.ready.heap, pos)
	checkHeap(t, "waiting", &q.waiting, pos)
	inHeap := map[int32]where{}
	for _, s := range checkRun(t, &q.ready, pos) {
		inHeap[s] = inReady
	}
	for _, s := range q.ready.heap.slots {
		if _, dup := inHeap[s]; dup {
			t.Fatalf("slot %d is in the ready run and the ready heap", s)
		}
		inHeap[s] = inReady
	}
	for _, s := range q.waiting.slots {
		if _, dup := inHeap[s]; dup {
			t.Fatalf("slot %d is in both heaps", s)
		}
		inHeap[s] = inWaiting
	}
	processing, idle := 0, 0
	for item, slot := range q.slots {
		e := *q.entries.at(slot)
		checkEntry(t, item, e, inHeap[slot])
		switch {
		case e.processing:
			processing++
		case e.where == nowhere:
			idle++
		}
	}
	if idle != q.idle {
		t.Fatalf("idle count = %d, but %d entries are idle", q.idle, idle)
	}
	if processing != q.processing {
		t.Fatalf("processing count = %d, but %d items are processing", q.processing, processing)
	}
	if len(q.slots) != q.entries.inUse() || len(inHeap) != q.ready.len()+q.waiting.len() {
		t.Fatalf("slab: %d slots in use for %d items, %d in heaps", q.entries.inUse(), len(q.slots), len(inHeap))
	}
}

// checkEntry verifies one entry of a PriorityQueue against the heap it was
// found in (nowhere if none).
func checkEntry[T comparable](t *testing.T, item T, e pqEntry[T], heap where) {
	t.Helper()
	if e.item != item {
		t.Fatalf("item %v indexed at an entry holding %v", item, e.item)
	}
	wantHeap := e.where
	if wantHeap == held {
		wantHeap = nowhere
	}
	switch {
	case heap != wantHeap:
		t.Fatalf("item %v: state %d but found in heap %d", item, e.where, heap)
	case e.where == inReady && e.processing:
		t.Fatalf("item %v is ready and processing", item)
	case e.where == held && !e.processing:
		t.Fatalf("item %v: held but not processing", item)
	case (e.where == inWaiting) == e.readyAt.IsZero():
		t.Fatalf("item %v: state %d with ready time %v", item, e.where, e.readyAt)
	}
}

// got is what a Get returned, and when (virtual time since the test began).
type got[T any] struct {
	Item     T
	Priority int
	Shutdown bool
	At       time.Duration
}

// getter is what every queue here offers to a worker.
type getter[T any] interface {
	Get() (T, bool)
}

// getAsync calls q.Get in a new goroutine and delivers the result, stamped
// with the virtual time since start.
func getAsync[T any](q getter[T], start time.Time) <-chan got[T] {
	ch := make(chan got[T], 1)
	go func() {
		item, shutdown := q.Get()
		ch <- got[T]{Item: item, Shutdown: shutdown, At: time.Since(start)}
	}()
	return ch
}

// getAt calls q.Get and stamps the result with the virtual time since start.
func getAt[T any](q getter[T], start time.Time) got[T] {
	item, shutdown := q.Get()
	return got[T]{Item: item, Shutdown: shutdown, At: time.Since(start)}
}

// advance lets d of virtual time pass inside a synctest bubble (the bubble's
// clock jumps as soon as every goroutine is blocked; no real time passes),
// then waits until the bubble is quiet.
func advance(d time.Duration) {
	<-time.After(d)
	synctest.Wait()
}
