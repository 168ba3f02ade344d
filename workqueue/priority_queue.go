package workqueue

import (
	"time"

	"github.com/kitchensync/kitchensync/trace"
)

// AddOpts says how [PriorityQueue.AddWithOpts] adds items, as in
// controller-runtime's priorityqueue.AddOpts.
type AddOpts struct {
	// After delays the add; zero or negative means now.
	After time.Duration
	// RateLimited asks the rate limiter for a delay (counting a failure).
	// If After is also set, the shorter of the two delays wins.
	RateLimited bool
	// Priority of the items; nil means 0. Higher goes first.
	Priority *int
}

// where says which structure of a [PriorityQueue] holds an entry.
type where uint8

const (
	nowhere   where = iota // not queued (the entry exists only because the item is processing)
	inReady                // in the ready heap: Get may return it
	inWaiting              // in the waiting heap: its ready time has not come
	held                   // ready, but processing: Done moves it to the ready heap
)

// pqEntry is what a [PriorityQueue] knows about one item.
type pqEntry[T comparable] struct {
	item       T
	priority   int
	order      uint64    // FIFO order within a priority: lower was added first
	readyAt    time.Time // while inWaiting
	where      where
	processing bool // a worker got the item and has not called Done yet
	pos        int  // position in the ready or waiting heap
}

// PriorityQueue is a rate-limiting work queue that hands out the item with
// the highest priority first, and items of equal priority in the order they
// were added, like controller-runtime's priorityqueue. Its rules:
//
//   - An item is queued at most once and never handed to two workers at once.
//   - Adding an item that is already queued or waiting keeps the earlier
//     ready time and the higher priority. Raising the priority moves the item
//     to the back of its new priority; a lower priority is ignored.
//   - An item whose delay is over joins the back of its priority.
//   - An item added while a worker processes it is held until Done, then
//     takes the place it was given when it was added, possibly ahead of
//     items added later (a [Queue] instead puts it at the back at Done).
//
// Unlike controller-runtime, and like [Queue], Get keeps handing out queued
// items after ShutDown, ShutDownWithDrain waits for items in progress, and
// Len does not count items held for a worker. Adds take effect before
// AddWithOpts returns (controller-runtime hands them to a goroutine through a
// buffer), and there is no depth metric per priority. Unlike
// [DelayingQueue], an add that is due now replaces a pending delayed add of
// the same item (there is a single entry per item).
//
// Create it with [NewPriorityQueue]. It is safe for concurrent use.
type PriorityQueue[T comparable] struct {
	lifecycle[T] // the lock, the in-progress count (entries with processing set) and shutdown

	// lifecycle.mu guards the fields below.
	slots     map[T]int32      // the entry of every item queued, waiting or processing, and of some idle ones
	idle      int              // entries neither queued nor processing, kept for their item's next add
	entries   slab[pqEntry[T]] // the entries the slots point into
	ready     readySet         // highest priority first, then lowest order
	waiting   slotHeap         // earliest readyAt first
	nextOrder uint64           // the order the next add gets

	limiter RateLimiter[T]
	wake    chan struct{} // capacity 1: the earliest ready time moved earlier
}

// NewPriorityQueue returns an empty priority queue that asks limiter for
// the delays of rate-limited adds. A nil limiter means controller-runtime's
// default for this queue: per-item exponential backoff from 5ms to 1000s.
func NewPriorityQueue[T comparable](limiter RateLimiter[T], cfg QueueConfig) *PriorityQueue[T] {
	if limiter == nil {
		limiter = NewItemExponentialFailureRateLimiter[T](5*time.Millisecond, 1000*time.Second)
	}
	q := &PriorityQueue[T]{
		slots:   map[T]int32{},
		limiter: limiter,
		wake:    make(chan struct{}, 1),
	}
	q.init(cfg)
	q.ready.init(q.lessReady, q.setPos)
	q.waiting.less = q.lessWaiting
	q.waiting.moved = q.setPos
	q.wg.Go(func() { runTimerLoop(q.stopCh, q.wake, q.moveDue) })
	return q
}

// lessReady orders the ready heap: higher priority, then earlier order.
func (q *PriorityQueue[T]) lessReady(a, b int32) bool {
	ea, eb := q.entries.at(a), q.entries.at(b)
	if ea.priority != eb.priority {
		return ea.priority > eb.priority
	}
	return ea.order < eb.order
}

// lessWaiting orders the waiting heap: earlier ready time, then as ready.
func (q *PriorityQueue[T]) lessWaiting(a, b int32) bool {
	ea, eb := q.entries.at(a), q.entries.at(b)
	if !ea.readyAt.Equal(eb.readyAt) {
		return ea.readyAt.Before(eb.readyAt)
	}
	return q.lessReady(a, b)
}

func (q *PriorityQueue[T]) setPos(slot int32, pos int) { q.entries.at(slot).pos = pos }

// AddWithOpts adds items as o says. After shutdown it does nothing.
func (q *PriorityQueue[T]) AddWithOpts(o AddOpts, items ...T) {
	if len(items) == 0 {
		return
	}
	q.mu.Lock()
	if q.shuttingDown {
		q.mu.Unlock()
		return
	}
	var now time.Time // read the clock only if a delay needs it: it is not free
	if o.After > 0 || o.RateLimited {
		now = time.Now()
	}
	earlier := false
	for _, item := range items {
		if q.addLocked(item, o, now) {
			earlier = true
		}
	}
	q.mu.Unlock()
	if earlier {
		notify(q.wake)
	}
}

// Add adds item now with priority 0.
func (q *PriorityQueue[T]) Add(item T) { q.AddWithOpts(AddOpts{}, item) }

// AddAfter adds item with priority 0 once d has passed; d <= 0 adds it now.
func (q *PriorityQueue[T]) AddAfter(item T, d time.Duration) {
	q.AddWithOpts(AddOpts{After: d}, item)
}

// AddRateLimited adds item with priority 0 after the delay the rate limiter
// gives it, and so counts one more failure of item.
func (q *PriorityQueue[T]) AddRateLimited(item T) {
	q.AddWithOpts(AddOpts{RateLimited: true}, item)
}

// Forget tells the rate limiter that item is done failing.
func (q *PriorityQueue[T]) Forget(item T) { q.limiter.Forget(item) }

// NumRequeues returns how many times item failed since it was last
// forgotten.
func (q *PriorityQueue[T]) NumRequeues(item T) int { return q.limiter.NumRequeues(item) }

// Get is [PriorityQueue.GetWithPriority] without the priority.
func (q *PriorityQueue[T]) Get() (item T, shutdown bool) {
	item, _, shutdown = q.GetWithPriority()
	return item, shutdown
}

// GetWithPriority blocks until an item is ready and hands out the one with
// the highest priority (the oldest among equals), with that priority. The
// caller must call [PriorityQueue.Done] with it when finished. shutdown is
// true only once the queue is shut down and has no ready item left.
func (q *PriorityQueue[T]) GetWithPriority() (item T, priority int, shutdown bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.ready.len() == 0 && !q.shuttingDown {
		q.cond.Wait()
	}
	if q.ready.len() == 0 {
		return item, 0, true
	}
	e := q.entries.at(q.ready.pop())
	e.where, e.processing = nowhere, true
	q.startProcessing(e.item)
	q.trace(trace.Got, e.item, q.ready.len(), e.priority, 0)
	return e.item, e.priority, false
}

// Done marks item as finished. If it was added again meanwhile and is
// ready, it becomes available to Get. Done of an item not in progress does
// nothing.
func (q *PriorityQueue[T]) Done(item T) {
	q.mu.Lock()
	defer q.mu.Unlock()
	slot, ok := q.slots[item]
	if !ok || !q.entries.at(slot).processing {
		return
	}
	e := q.entries.at(slot)
	e.processing = false
	q.trace(trace.Done, item, q.ready.len(), e.priority, 0)
	switch e.where {
	case held:
		q.pushReady(slot) // at the place its add gave it
		q.trace(trace.Requeued, item, q.ready.len(), e.priority, 0)
	case nowhere:
		q.goIdle()
	}
	q.finishProcessing(item)
}

// Len returns the number of items ready for Get: neither waiting for their
// delay nor held for a worker that is processing them.
func (q *PriorityQueue[T]) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.ready.len()
}

// ShutDown makes the queue ignore new adds, drops the items waiting for a
// delay, lets Get report shutdown once the ready items have been handed out,
// and waits for the queue's goroutines to end. It does not wait for items in
// progress.
func (q *PriorityQueue[T]) ShutDown() {
	q.shutDown(false)
}

// ShutDownWithDrain is [PriorityQueue.ShutDown] that also waits until every
// item in progress is Done. (controller-runtime's ShutDownWithDrain does not
// wait; this one keeps [Queue]'s contract.)
func (q *PriorityQueue[T]) ShutDownWithDrain() {
	q.shutDown(true)
}
