package reconcile

import (
	"time"

	"github.com/kitchensync/kitchensync/workqueue"
)

// WorkQueue is the ticket rail a [Controller] needs: a rate-limiting work
// queue of requests with client-go's rules (an item is never handed to two
// workers at once; adds of a queued item collapse; an item added while it
// is processed is queued again after Done). It is the method set client-go
// calls workqueue.TypedRateLimitingInterface. The concrete
// *workqueue.RateLimitingQueue and *workqueue.PriorityQueue satisfy it; so
// can any queue with the same contract, plugged in through
// [Options].NewQueue.
type WorkQueue interface {
	Add(item Request)
	AddAfter(item Request, d time.Duration)
	AddRateLimited(item Request)
	Forget(item Request)
	NumRequeues(item Request) int
	Get() (item Request, shutdown bool)
	Done(item Request)
	Len() int
	ShutDown()
	ShutDownWithDrain()
	ShuttingDown() bool
}

// PriorityWorkQueue is a [WorkQueue] that also orders items by priority
// (higher first), like controller-runtime's priorityqueue.PriorityQueue
// interface. When the queue a controller uses is one, the controller adds
// the initial list and resyncs at [LowPriority] and honours
// [Result].Priority; otherwise priorities are ignored.
type PriorityWorkQueue interface {
	WorkQueue
	AddWithOpts(o workqueue.AddOpts, items ...Request)
	GetWithPriority() (item Request, priority int, shutdown bool)
}

// LowPriority is the priority of requests caused by the informer's initial
// list and by resyncs: they tell the controller nothing new, so a fresh
// change to another object goes first. The same value as
// controller-runtime's handler.LowPriority.
const LowPriority = -100

// asPriorityQueue returns q itself if it has priorities, or wraps it in an
// adapter that ignores them.
func asPriorityQueue(q WorkQueue) PriorityWorkQueue {
	if pq, ok := q.(PriorityWorkQueue); ok {
		return pq
	}
	return plainQueue{q}
}

// plainQueue gives a [WorkQueue] without priorities the
// [PriorityWorkQueue] methods, dropping the priority.
type plainQueue struct{ WorkQueue }

func (q plainQueue) AddWithOpts(o workqueue.AddOpts, items ...Request) {
	for _, item := range items {
		switch {
		case o.RateLimited:
			q.AddRateLimited(item)
		case o.After > 0:
			q.AddAfter(item, o.After)
		default:
			q.Add(item)
		}
	}
}

func (q plainQueue) GetWithPriority() (Request, int, bool) {
	item, shutdown := q.Get()
	return item, 0, shutdown
}
