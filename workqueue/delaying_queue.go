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
// AddAfter itself does not touch the heap: like client-go, which sends
// each delayed add to its waiting loop over a channel, it only notes the
// item and its ready time, and the timer goroutine files what was noted
// into the heap, a batch at a time. A producer pays for an append, not a
// heap insert, and wakes the goroutine only when the new ready time is
// earlier than the one its timer is set for, or when 1,024 adds are
// noted; otherwise the batch waits for the timer, which fires no later
// than any of its ready times. Where client-go's producer blocks on a full
// channel, ours files the batch itself once twice that many are noted, so
// that a goroutine short of CPU cannot let them pile up.
//
// Create a DelayingQueue with [NewDelaying] or [NewDelayingWithConfig] and
// end it with ShutDown or ShutDownWithDrain, which also end its goroutine;
// items still waiting then are dropped. It is safe for concurrent use.
type DelayingQueue[T comparable] struct {
	*Queue[T]

	// Queue.mu guards noted, spare and armed.
	noted []delayed[T] // delayed adds not yet filed in waiting, oldest first
	spare []delayed[T] // the previous batch's slice, emptied, for reuse
	armed time.Time    // when the timer goroutine wakes next; zero: not before it is woken

	wmu     sync.Mutex // guards waiting and due; when both are held, wmu is taken before Queue.mu
	waiting waitSet[T]
	due     []T           // the items popDue found due, reused
	wake    chan struct{} // capacity 1: something was noted
	loop    sync.WaitGroup
}

// maxNoted is how many delayed adds may be noted before the timer
// goroutine is woken to file them, like the 1,000 of client-go's channel.
const maxNoted = 1024

// delayed is one noted AddAfter.
type delayed[T any] struct {
	item    T
	readyAt time.Time
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
	q.waiting.init(time.Now())
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
// (trace.Delayed, or trace.RateLimited for AddRateLimited). Every call
// counts in the retries metric, whatever its delay, as in client-go.
func (q *DelayingQueue[T]) addAfter(item T, d time.Duration, action trace.Action) {
	var readyAt time.Time
	if d > 0 {
		readyAt = time.Now().Add(d)
	}
	q.mu.Lock()
	if q.shuttingDown {
		q.mu.Unlock()
		return
	}
	q.metrics.retry()
	if d <= 0 {
		wake := q.addLocked(item, q.items.hash(item))
		q.mu.Unlock()
		if wake {
			q.cond.Signal()
		}
		return
	}
	q.trace(action, item, q.queue.len(), 0, d)
	q.noted = append(q.noted, delayed[T]{item, readyAt})
	n, earlier := len(q.noted), q.armed.IsZero() || readyAt.Before(q.armed)
	if earlier {
		q.armed = readyAt // later adds need not wake it again
	}
	q.mu.Unlock()
	if earlier || n == maxNoted {
		notify(q.wake)
	}
	if n >= 2*maxNoted { // the timer goroutine is behind: file them here
		q.wmu.Lock()
		q.file(q.takeNoted())
		q.wmu.Unlock()
	}
}

// takeNoted returns the delayed adds noted since the last call (nil if
// none), and gives noted the slice of the batch before to fill.
func (q *DelayingQueue[T]) takeNoted() []delayed[T] {
	q.mu.Lock()
	defer q.mu.Unlock()
	batch := q.noted
	if len(batch) == 0 {
		return nil // and noted keeps its slice
	}
	q.noted, q.spare = q.spare[:0], nil
	return batch
}

// arm records that the timer goroutine sleeps until next, unless more
// adds were noted meanwhile; it reports whether it did. Both in one
// critical section, so that no add needing an earlier wake-up slips in
// between.
func (q *DelayingQueue[T]) arm(next time.Time) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.noted) > 0 {
		return false
	}
	q.armed = next
	return true
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

// addDue files the noted adds in the waiting set, adds every waiting item
// whose time has come, and returns the next ready time (zero if none).
// The timer loop calls it.
func (q *DelayingQueue[T]) addDue(now time.Time) time.Time {
	q.wmu.Lock()
	defer q.wmu.Unlock()
	q.file(q.takeNoted())
	next := q.popDue(now)
	if !q.arm(next) {
		// Producers noted more while this ran: come back at once, with a
		// fresh now, rather than file them against a stale one.
		return now
	}
	return next
}

// file puts a batch of noted adds in the waiting set, then empties the
// batch, so that it holds no items, and keeps it for the next one unless
// a burst made it large. Call with wmu held.
func (q *DelayingQueue[T]) file(batch []delayed[T]) {
	if len(batch) == 0 {
		return
	}
	for _, d := range batch {
		q.waiting.add(d.item, d.readyAt)
	}
	if cap(batch) > 4*maxNoted { // a burst; a batch is 2*maxNoted at most alone, plus append's slack
		return
	}
	clear(batch)
	q.mu.Lock()
	q.spare = batch
	q.mu.Unlock()
}

// popDue adds every waiting item whose time has come and returns the
// next ready time (zero if none). Call with wmu held.
//
// It hands the due items to the queue maxNoted at a time, each batch in
// one critical section (workers wait for the lock once per batch), so
// that a burst of many due items needs no buffer as large as the burst.
func (q *DelayingQueue[T]) popDue(now time.Time) (next time.Time) {
	if q.due == nil {
		q.due = make([]T, 0, maxNoted)
	}
	for {
		due := q.due[:0]
		for len(due) < maxNoted && q.waiting.len() > 0 {
			item, readyAt := q.waiting.first()
			if readyAt.After(now) {
				next = readyAt
				break
			}
			q.waiting.removeFirst()
			due = append(due, item)
		}
		q.queueDue(due)
		clear(due)
		if len(due) < maxNoted {
			return next
		}
	}
}

// queueDue adds the items of due to the queue in one critical section.
func (q *DelayingQueue[T]) queueDue(due []T) {
	if len(due) == 0 {
		return
	}
	queued := 0
	q.mu.Lock()
	for _, item := range due {
		if !q.shuttingDown && q.addLocked(item, q.items.hash(item)) {
			queued++
		}
	}
	q.mu.Unlock()
	for range queued {
		q.cond.Signal()
	}
}
