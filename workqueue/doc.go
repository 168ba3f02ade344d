// Package workqueue holds the work a controller still has to do: queues that
// hand each item to one worker at a time, collapse duplicates, delay and
// rate-limit retries, and let urgent items jump the line.
//
// In the kitchen, this is the ticket rail (订单看板) above the pass. The
// runner clips a ticket to the rail whenever something about an order
// changes; a ticket already on the rail is not clipped twice; the chef (a
// worker) takes the oldest ticket and no other worker touches that order
// until the chef is done with it; a ticket whose work failed goes back on
// the rail after a pause that grows each time, and retries together may be
// held to so many a minute; and a VIP's ticket goes in front of the
// others. A new ticket is never held back: Add does not wait for any rate
// limiter (the kitchen's own TicketRail chooses to, for its rush hour).
//
// The queues follow client-go's util/workqueue and controller-runtime's
// priority queue, generic over the item type from the start. Items are
// usually keys ("namespace/name"), not objects: the worker reads the current
// object from the cache when it gets the key, so a queue never holds stale
// state.
//
// Every queue here guarantees:
//   - Fair: items are handed out in the order they were added (within a
//     priority, for [PriorityQueue]).
//   - Stingy: an item is never handed to two workers at once, and an item
//     added many times before a worker gets it is processed once.
//   - Multiple consumers and producers: any goroutine may add, and any
//     number of workers may Get. An item added again while a worker
//     processes it is processed again after the worker calls Done.
//   - Shutdown: after ShutDown, adds are ignored, Get hands out what is
//     still queued and then reports shutdown; ShutDownWithDrain also waits
//     until every item in progress is Done.
//
// A worker's loop therefore looks like this:
//
//	for {
//		key, shutdown := queue.Get()
//		if shutdown {
//			return
//		}
//		if err := reconcile(key); err != nil {
//			queue.AddRateLimited(key) // try again later, later each time
//		} else {
//			queue.Forget(key) // the next failure starts the backoff over
//		}
//		queue.Done(key)
//	}
//
// # Delays
//
// [DelayingQueue.AddAfter] adds an item once a duration has passed. Waiting
// items sit in a heap by ready time and a single goroutine sleeps on a timer
// set to the earliest one. If an item is added after a delay twice, the
// earlier ready time wins: a delay can be shortened, never lengthened. A
// plain Add does not cancel a pending AddAfter on a [DelayingQueue]: the
// item is processed now and again when the delay is over.
//
// # Rate limiting
//
// A [RateLimiter] decides how long a failed item waits. Per-item limiters
// count failures: [ItemExponentialFailureRateLimiter] waits base·2ⁿ up to a
// cap (a burnt dish waits 5ms, 10ms, 20ms, ...), [ItemFastSlowRateLimiter]
// retries fast a few times, then slowly. [BucketRateLimiter] is one token
// bucket for all items (golang.org/x/time/rate): however many dishes burn,
// ten retries a minute come back. A rate limiter only decides how long
// AddRateLimited waits; Add never waits. [MaxOfRateLimiter] takes
// the longest delay of several, and [DefaultControllerRateLimiter] is
// client-go's choice for controllers. [RateLimitingQueue.Forget] resets an
// item's history once it succeeds.
//
// # Priority
//
// [PriorityQueue] hands out the ready item with the highest priority first,
// oldest first within a priority. Adding an item again keeps the higher
// priority and the earlier ready time; raising an item's priority sends it
// to the back of its new priority. It has the same methods as
// [RateLimitingQueue], plus [PriorityQueue.AddWithOpts] and
// [PriorityQueue.GetWithPriority], so a controller can use either.
//
// # Under the hood
//
// Each queue is one mutex around plain data, as client-go's is; what
// keeps it fast is how little happens under the mutex. A [Queue] keeps
// each item in a node found through a hash index of its own, and the
// index can be read without the lock: Add and Done hash the item and find
// its node first, and an Add of an item that is already queued returns
// without locking at all (it would change nothing). A [PriorityQueue]
// keeps the ready items that arrive in Get order, as items of one
// priority do, in a FIFO run, and only the others in a heap. The package's
// tests check every structure's invariants after each step, and
// compare/'s side-by-side benchmarks time the queues against client-go's
// and controller-runtime's.
//
// # Metrics
//
// A queue with a [QueueConfig.Name] and a [MetricsProvider] reports its
// depth, adds, time in queue, work duration, unfinished work and retries
// under controller-runtime's names ([DepthMetricName] and the other
// constants). Without a provider, metrics cost nothing and no metrics
// goroutine runs; with one, a goroutine refreshes the unfinished-work gauges
// every half second until the queue is shut down.
package workqueue
