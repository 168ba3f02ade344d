package workqueue

import (
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/trace"
)

// DelayingQueue is a [Queue] that can also add an item after a delay, like
// client-go's delaying queue. Waiting items sit in a heap ordered by the
// time they become ready; one goroutine sleeps on a timer set to the
// earliest of those times and adds each item to the queue when it is due.
//
// Create a DelayingQueue with [NewDelaying] or [NewDelayingWithConfig] and
// end it with ShutDown or ShutDownWithDrain, which also end its goroutine;
// items still waiting then are dropped. It is safe for concurrent use.
type DelayingQueue[T comparable] struct {
	*Queue[T]

	wmu     sync.Mutex // guards waiting; when both are held, wmu is taken before Queue.mu
	waiting waitSet[T]
	wake    chan struct{} // capacity 1: the earliest ready time moved earlier
	loop    sync.WaitGroup
}

// NewDelaying returns an empty delaying queue without metrics.
func NewDelaying[T comparable]() *DelayingQueue[T] {
	return NewDelayingWithConfig[T](QueueConfig{})
}

// NewDelayingWithConfig returns an empty delaying queue configured by cfg,
// and starts its timer goroutine.
func NewDelayingWithConfig[T comparable](cfg QueueConfig) *DelayingQueue[T] {
	q := &DelayingQueue[T]{
		Queue: NewWithConfig[T](cfg),
		wake:  make(chan struct{}, 1),
	}
	q.waiting.init()
	q.loop.Go(func() { runTimerLoop(q.stopCh, q.wake, q.addDue) })
	return q
}

// AddAfter adds item to the queue once d has passed; d <= 0 adds it now.
// If item is already waiting, it keeps the earlier of its two ready times:
// AddAfter can bring a pending add forward, never push it back. After
// shutdown, AddAfter does nothing.
//
// A plain [Queue.Add] does not cancel a pending AddAfter (a classic
// surprise, kubernetes#126027): the item is queued now, and when the delay
// is over it is added again, so a worker processes it twice unless the
// first add is still queued by then and the two collapse.
// [PriorityQueue] behaves differently: there, an add that is due now
// replaces the pending one.
func (q *DelayingQueue[T]) AddAfter(item T, d time.Duration) {
	q.addAfter(item, d, trace.Delayed)
}

// addAfter is AddAfter; action names a delayed add in the trace
// (trace.Delayed, or trace.RateLimited for AddRateLimited).
func (q *DelayingQueue[T]) addAfter(item T, d time.Duration, action trace.Action) {
	if q.ShuttingDown() {
		return
	}
	if d <= 0 {
		q.retry()
		q.Add(item)
		return
	}
	readyAt := time.Now().Add(d)
	q.wmu.Lock()
	q.retry()
	if q.tracer.Enabled() {
		q.emit(action, item, q.Len(), 0, d)
	}
	first := q.waiting.add(item, readyAt)
	q.wmu.Unlock()
	if first {
		notify(q.wake)
	}
}

// retry counts a delayed add in the retries metric, as client-go does for
// every AddAfter, whatever its delay.
func (q *DelayingQueue[T]) retry() {
	q.Queue.mu.Lock()
	q.Queue.metrics.retry()
	q.Queue.mu.Unlock()
}

// ShutDown shuts the queue down (see [Queue.ShutDown]), drops the items
// still waiting for their delay, and waits for the timer goroutine to end.
func (q *DelayingQueue[T]) ShutDown() {
	q.Queue.ShutDown()
	q.loop.Wait()
}

// ShutDownWithDrain is [Queue.ShutDownWithDrain] that also ends the timer
// goroutine; items still waiting for their delay are dropped.
func (q *DelayingQueue[T]) ShutDownWithDrain() {
	q.Queue.ShutDownWithDrain()
	q.loop.Wait()
}

// addDue adds every waiting item whose time has come and returns the next
// ready time (zero if none). The timer loop calls it.
func (q *DelayingQueue[T]) addDue(now time.Time) time.Time {
	q.wmu.Lock()
	defer q.wmu.Unlock()
	for q.waiting.len() > 0 {
		item, readyAt := q.waiting.first()
		if readyAt.After(now) {
			return readyAt
		}
		q.waiting.removeFirst()
		q.Add(item)
	}
	return time.Time{}
}

// waitEntry is one item waiting for its ready time.
type waitEntry[T any] struct {
	item    T
	readyAt time.Time
	seq     uint64 // arrival order: equal ready times come out first in, first out
	pos     int    // position in the heap
}

// waitSet is the set of waiting items, at most one entry per item, ordered
// by ready time. Entries live in a slab whose freed slots are reused, so a
// steady stream of AddAfter calls does not allocate.
// It is not safe for concurrent use.
type waitSet[T comparable] struct {
	entries []waitEntry[T]
	free    []int32     // unused slots of entries
	slots   map[T]int32 // the slot of each waiting item
	heap    slotHeap    // slots, earliest ready time first
	seq     uint64      // next waitEntry.seq
}

func (w *waitSet[T]) init() {
	w.slots = map[T]int32{}
	w.heap.less = func(a, b int32) bool {
		ea, eb := &w.entries[a], &w.entries[b]
		if !ea.readyAt.Equal(eb.readyAt) {
			return ea.readyAt.Before(eb.readyAt)
		}
		return ea.seq < eb.seq
	}
	w.heap.moved = func(slot int32, pos int) { w.entries[slot].pos = pos }
}

func (w *waitSet[T]) len() int { return w.heap.len() }

// add makes item wait until readyAt, or keeps its earlier ready time if it
// is already waiting. It reports whether item is now the first to be ready.
func (w *waitSet[T]) add(item T, readyAt time.Time) (first bool) {
	if slot, ok := w.slots[item]; ok {
		e := &w.entries[slot]
		if !readyAt.Before(e.readyAt) {
			return false
		}
		e.readyAt = readyAt
		w.heap.fix(e.pos)
		return w.heap.top() == slot
	}
	var slot int32
	if n := len(w.free); n > 0 {
		slot, w.free = w.free[n-1], w.free[:n-1]
	} else {
		w.entries = append(w.entries, waitEntry[T]{})
		slot = int32(len(w.entries) - 1)
	}
	w.entries[slot] = waitEntry[T]{item: item, readyAt: readyAt, seq: w.seq}
	w.seq++
	w.slots[item] = slot
	w.heap.push(slot)
	return w.heap.top() == slot
}

// first returns the item with the earliest ready time. The set must not be
// empty.
func (w *waitSet[T]) first() (T, time.Time) {
	e := &w.entries[w.heap.top()]
	return e.item, e.readyAt
}

// removeFirst removes the item with the earliest ready time.
func (w *waitSet[T]) removeFirst() {
	slot := w.heap.pop()
	delete(w.slots, w.entries[slot].item)
	w.entries[slot] = waitEntry[T]{} // drop references held by the item
	w.free = append(w.free, slot)
}
