package workqueue

import (
	"time"

	"github.com/kitchensync/kitchensync/trace"
)

// The bookkeeping of [PriorityQueue]. Every function here must be called
// with q.mu held.

// addLocked adds one item as o says, at instant now, and reports whether
// the earliest ready time of the waiting heap moved earlier (so the timer
// loop must wake up).
func (q *PriorityQueue[T]) addLocked(item T, o AddOpts, now time.Time) (earlier bool) {
	after := o.After
	if o.RateLimited {
		// As in controller-runtime: the shorter of After and the backoff.
		if backoff := q.limiter.When(item); after == 0 || backoff < after {
			after = backoff
		}
	}
	priority := 0
	if o.Priority != nil {
		priority = *o.Priority
	}
	var readyAt time.Time // zero: ready now
	if after > 0 {
		readyAt = now.Add(after)
		q.metrics.retry()
		action := trace.Delayed
		if o.RateLimited {
			action = trace.RateLimited
		}
		q.trace(action, item, q.ready.len(), priority, after)
	}
	slot, ok := q.slots[item]
	if !ok {
		slot = q.newEntry(item)
	}
	if e := q.entries.at(slot); e.where == nowhere {
		if !e.processing {
			q.idle-- // an idle entry comes back
		}
		e.priority, e.order = priority, q.takeOrder()
		return q.place(slot, readyAt)
	}
	return q.update(slot, priority, readyAt)
}

// place puts an entry that is not queued into the ready heap (readyAt is
// zero) or the waiting heap, and reports whether it became the first to wait.
func (q *PriorityQueue[T]) place(slot int32, readyAt time.Time) (first bool) {
	if readyAt.IsZero() {
		q.makeReady(slot)
		return false
	}
	e := q.entries.at(slot)
	e.readyAt, e.where = readyAt, inWaiting
	q.waiting.push(slot)
	return q.waiting.top() == slot
}

// update merges a new add into a queued entry: the higher priority and the
// earlier ready time win. A raised priority takes a new order, so the item
// goes to the back of its new priority, as in controller-runtime.
func (q *PriorityQueue[T]) update(slot int32, priority int, readyAt time.Time) (earlier bool) {
	e := q.entries.at(slot)
	raised := priority > e.priority
	if raised {
		e.priority, e.order = priority, q.takeOrder()
	}
	switch e.where {
	case inReady:
		if raised {
			q.ready.fix(e.pos)
		}
		q.trace(trace.Merged, e.item, q.ready.len(), e.priority, 0)
		return false
	case held:
		q.trace(trace.Merged, e.item, q.ready.len(), e.priority, 0)
		return false
	}
	// The entry is waiting.
	if readyAt.IsZero() {
		q.waiting.remove(e.pos)
		q.makeReady(slot) // keeps its order: it was added before later adds
		return false
	}
	moved := readyAt.Before(e.readyAt)
	if moved {
		e.readyAt = readyAt
	}
	if moved || raised {
		q.waiting.fix(e.pos)
	}
	return moved && q.waiting.top() == slot
}

// makeReady makes an entry that is in no heap ready: into the ready heap,
// or held if a worker is processing its item.
func (q *PriorityQueue[T]) makeReady(slot int32) {
	e := q.entries.at(slot)
	e.readyAt = time.Time{}
	q.metrics.add(e.item)
	if e.processing {
		e.where = held
		q.trace(trace.Deferred, e.item, q.ready.len(), e.priority, 0)
		return
	}
	q.pushReady(slot)
	q.trace(trace.Added, e.item, q.ready.len(), e.priority, 0)
}

// pushReady puts an entry into the ready heap and wakes one Get.
func (q *PriorityQueue[T]) pushReady(slot int32) {
	q.entries.at(slot).where = inReady
	q.ready.push(slot)
	q.cond.Signal()
}

// moveDue makes every waiting entry whose time has come ready, at the back
// of its priority, and returns the next ready time (zero if none). The
// timer loop calls it (so it takes q.mu itself).
func (q *PriorityQueue[T]) moveDue(now time.Time) time.Time {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.waiting.len() > 0 && !q.shuttingDown {
		slot := q.waiting.top()
		if readyAt := q.entries.at(slot).readyAt; readyAt.After(now) {
			return readyAt
		}
		q.waiting.pop()
		q.entries.at(slot).order = q.takeOrder()
		q.makeReady(slot)
	}
	return time.Time{}
}

// takeOrder returns the next FIFO order number.
func (q *PriorityQueue[T]) takeOrder() uint64 {
	q.nextOrder++
	return q.nextOrder
}

// newEntry returns a fresh entry for item, idle, reusing a freed slot if any.
func (q *PriorityQueue[T]) newEntry(item T) int32 {
	slot := q.entries.alloc()
	*q.entries.at(slot) = pqEntry[T]{item: item}
	q.slots[item] = slot
	q.idle++ // until it is placed
	return slot
}

// goIdle notes that the entry in slot is neither queued nor processing any
// more. It keeps the entry, so that adding its item again finds it, until
// idle entries are more than maxIdleItems and more than the others; then
// it forgets them all, which costs as much as the Dones that made them
// idle did.
func (q *PriorityQueue[T]) goIdle() {
	q.idle++
	if q.idle <= maxIdleItems || 2*q.idle <= len(q.slots) {
		return
	}
	for _, slot := range q.slots {
		if e := q.entries.at(slot); e.where == nowhere && !e.processing {
			q.release(slot)
		}
	}
	q.idle = 0
}

// release forgets an entry that is neither queued nor processing.
func (q *PriorityQueue[T]) release(slot int32) {
	delete(q.slots, q.entries.at(slot).item)
	q.entries.release(slot)
}
