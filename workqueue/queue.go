package workqueue

import "github.com/kitchensync/kitchensync/trace"

// QueueConfig configures a queue. The zero value is a valid configuration:
// an unnamed queue without metrics.
type QueueConfig struct {
	// Name identifies the queue in metrics. Like client-go, a queue records
	// metrics only if it has both a Name and a MetricsProvider.
	Name string
	// MetricsProvider creates the queue's metrics; nil means none, at no cost.
	MetricsProvider MetricsProvider
	// Tracer, when set, receives a record of every add (trace.Added, or
	// trace.Merged with the ticket already waiting, trace.Deferred while a
	// worker has the item, trace.Delayed, trace.RateLimited), every Get
	// (trace.Got), Done (trace.Done) and re-queue at Done (trace.Requeued),
	// named Name. Nil means none, at no cost.
	Tracer *trace.Tracer
}

// itemState says where an item known to a [Queue] is. Zero means idle:
// neither dirty nor processing.
type itemState uint8

const (
	// stateDirty: the item needs processing. It is in the FIFO, unless it is
	// also processing, in which case Done will put it there.
	stateDirty itemState = 1 << iota
	// stateProcessing: a worker got the item and has not called Done yet.
	stateProcessing
)

// Queue is a work queue with the rules of client-go's workqueue.Typed: a FIFO
// of items where an item is never handed to two workers at once, adds of an
// item that is already queued collapse into one, and an item added while a
// worker is processing it is queued again once, when the worker calls Done.
//
// Create a Queue with [New] or [NewWithConfig]; the zero value is not usable.
// A Queue is safe for concurrent use by many producers and workers.
type Queue[T comparable] struct {
	lifecycle[T] // the lock, the in-progress count and shutdown

	// lifecycle.mu guards the fields below.
	queue ring[slot]   // the items ready for Get, oldest first; each one is dirty and not processing
	items itemTable[T] // every dirty or processing item, and some idle ones
}

// New returns an empty queue without metrics.
func New[T comparable]() *Queue[T] {
	return NewWithConfig[T](QueueConfig{})
}

// NewWithConfig returns an empty queue configured by cfg. If the queue has
// metrics, a goroutine refreshes the unfinished-work gauges until the queue
// is shut down.
func NewWithConfig[T comparable](cfg QueueConfig) *Queue[T] {
	q := &Queue[T]{}
	q.items.init()
	q.init(cfg)
	return q
}

// Add marks item as needing processing. If the item is already queued,
// nothing changes (it keeps its place); if a worker is processing it, it is
// queued again when the worker calls Done. After shutdown, Add does nothing.
func (q *Queue[T]) Add(item T) {
	// Hash outside the lock and wake a worker after unlocking: the less
	// work under the lock, the less the others wait for it.
	h := q.items.hash(item)
	s, n := q.items.lookup(item, h)
	if n != nil && n.itemState()&stateDirty != 0 && q.tracer == nil {
		// Already queued, or to be queued again at Done: an add now
		// changes nothing, so it need not wait for the lock. (Traced
		// adds take it, to record the merge in order.)
		return
	}
	if q.add(item, h, s, n) {
		q.cond.Signal()
	}
}

// add is Add of item whose hash is h, under mu; n is item's node, in slot
// s, if a lookup without the lock found one. It reports whether it queued
// the item.
func (q *Queue[T]) add(item T, h uint64, s slot, n *itemNode[T]) (queued bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.shuttingDown {
		return false
	}
	if n == nil || n.itemState() == stateForgotten {
		s, n = q.items.insert(item, h)
	}
	return q.addNodeLocked(s, n)
}

// addLocked is Add on a queue that is not shut down, of item whose hash is
// h (see itemTable.hash). Call with mu held.
// It reports whether it queued the item, in which case the caller must
// signal q.cond (after unlocking, so that the woken Get finds mu free).
func (q *Queue[T]) addLocked(item T, h uint64) (queued bool) {
	return q.addNodeLocked(q.items.insert(item, h))
}

// addNodeLocked is addLocked of the item whose current node is n, in
// slot sl.
func (q *Queue[T]) addNodeLocked(sl slot, n *itemNode[T]) (queued bool) {
	s := n.itemState()
	if s&stateDirty != 0 {
		q.trace(trace.Merged, n.item, q.queue.len(), 0, 0)
		return false
	}
	q.metrics.add(n.item)
	q.items.setState(n, s|stateDirty)
	if s&stateProcessing != 0 {
		q.trace(trace.Deferred, n.item, q.queue.len(), 0, 0)
		return false // Done will queue it
	}
	q.queue.push(sl)
	q.trace(trace.Added, n.item, q.queue.len(), 0, 0)
	return true
}

// Len returns the number of items ready for Get. Items in progress, even if
// they were added again, are not counted.
func (q *Queue[T]) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.queue.len()
}

// Get blocks until an item is ready and hands it to the caller, who must call
// [Queue.Done] with it when finished. After shutdown, Get keeps returning the
// items still queued; shutdown is true only once the queue is shut down and
// empty, and then item is the zero value.
func (q *Queue[T]) Get() (item T, shutdown bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.queue.len() == 0 && !q.shuttingDown {
		q.cond.Wait()
	}
	if q.queue.len() == 0 {
		return item, true
	}
	n := q.items.node(q.queue.pop())
	item = n.item
	q.items.setState(n, stateProcessing) // it was dirty only: dirty and processing items are never in the FIFO
	q.startProcessing(item)
	q.trace(trace.Got, item, q.queue.len(), 0, 0)
	return item, false
}

// Done marks item as finished. If it was added again while in progress, it
// goes to the back of the queue now. Done of an item that is not in progress
// does nothing.
func (q *Queue[T]) Done(item T) {
	// As in Add: find the node before locking (an item in progress always
	// has one), wake after.
	h := q.items.hash(item)
	s, n := q.items.lookup(item, h)
	if q.done(item, h, s, n) {
		q.cond.Signal()
	}
}

// done is Done of item whose hash is h, under mu; n is item's node, in
// slot sl, if a lookup without the lock found one. It reports whether it
// queued the item again.
func (q *Queue[T]) done(item T, h uint64, sl slot, n *itemNode[T]) (requeued bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if n == nil || n.itemState() == stateForgotten {
		if sl, n = q.items.lookup(item, h); n == nil {
			return false
		}
	}
	s := n.itemState()
	if s&stateProcessing == 0 {
		return false
	}
	q.finishProcessing(item)
	q.trace(trace.Done, item, q.queue.len(), 0, 0)
	if s&stateDirty == 0 {
		q.items.setState(n, 0)
		if q.items.needsSweep() {
			q.sweepLocked()
		}
		return false
	}
	q.items.setState(n, stateDirty)
	q.queue.push(sl)
	q.trace(trace.Requeued, item, q.queue.len(), 0, 0)
	return true
}

// sweepLocked forgets idle items (see itemTable.sweep) and points the
// FIFO at the items' new slots. Call with mu held.
func (q *Queue[T]) sweepLocked() {
	old := q.items.sweep()
	for i := range q.queue.len() {
		item := old.at(q.queue.at(i)).item
		s, _ := q.items.lookup(item, q.items.hash(item))
		q.queue.set(i, s)
	}
}

// ShutDown makes the queue ignore new adds and lets Get report shutdown once
// the queued items have been handed out. It does not wait for items in
// progress; it does wait for the queue's own goroutines to end. Calling it
// again does nothing harmful.
func (q *Queue[T]) ShutDown() { q.shutDown(false) }

// ShutDownWithDrain is [Queue.ShutDown] that also waits until every item in
// progress is Done. Workers must therefore keep calling Done, and must not
// call ShutDownWithDrain themselves while holding an item, or it never
// returns (as in client-go). A concurrent ShutDown ends the wait.
func (q *Queue[T]) ShutDownWithDrain() { q.shutDown(true) }
