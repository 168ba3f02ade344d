package workqueue

import "github.com/kitchensync/kitchensync/trace"

// RateLimitingQueue is a [DelayingQueue] that asks a [RateLimiter] how long
// to hold back an item that failed, like client-go's rate-limiting queue.
// A worker that fails calls AddRateLimited; one that succeeds calls Forget,
// so that the item's next failure starts the backoff over.
//
// Create it with [NewRateLimiting]; end it with ShutDown or
// ShutDownWithDrain. It is safe for concurrent use.
type RateLimitingQueue[T comparable] struct {
	*DelayingQueue[T]
	limiter RateLimiter[T]
}

// NewRateLimiting returns an empty rate-limiting queue that asks limiter
// for delays. A nil limiter means [DefaultControllerRateLimiter].
func NewRateLimiting[T comparable](limiter RateLimiter[T], cfg QueueConfig) *RateLimitingQueue[T] {
	if limiter == nil {
		limiter = DefaultControllerRateLimiter[T]()
	}
	return &RateLimitingQueue[T]{DelayingQueue: NewDelayingWithConfig[T](cfg), limiter: limiter}
}

// AddRateLimited adds item after the delay the rate limiter gives it, and
// so counts one more failure of item.
func (q *RateLimitingQueue[T]) AddRateLimited(item T) {
	q.addAfter(item, q.limiter.When(item), trace.RateLimited)
}

// Forget tells the rate limiter that item is done failing. It does not
// remove item from the queue.
func (q *RateLimitingQueue[T]) Forget(item T) {
	q.limiter.Forget(item)
}

// NumRequeues returns how many times item failed since it was last
// forgotten.
func (q *RateLimitingQueue[T]) NumRequeues(item T) int {
	return q.limiter.NumRequeues(item)
}
