package workqueue

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// RateLimiter decides how long an item must wait before it is retried. It
// is client-go's workqueue.TypedRateLimiter, generic from the start.
// Implementations must be safe for concurrent use.
type RateLimiter[T comparable] interface {
	// When records one more failure of item and returns how long to wait
	// before retrying it.
	When(item T) time.Duration
	// Forget clears item's failure history: the next When starts over. Call
	// it when the item succeeded (or will never be retried).
	Forget(item T)
	// NumRequeues returns how many failures of item were recorded since the
	// last Forget.
	NumRequeues(item T) int
}

// DefaultControllerRateLimiter returns the limiter client-go gives every
// controller: the larger of a per-item exponential backoff (5ms, 10ms,
// 20ms, ... capped at 1000s) and an overall token bucket of 10 retries per
// second with a burst of 100. The bucket only matters when many different
// items fail at once; the backoff matters when one item keeps failing.
func DefaultControllerRateLimiter[T comparable]() RateLimiter[T] {
	return NewMaxOfRateLimiter(
		NewItemExponentialFailureRateLimiter[T](5*time.Millisecond, 1000*time.Second),
		NewBucketRateLimiter[T](rate.NewLimiter(rate.Limit(10), 100)),
	)
}

// ItemExponentialFailureRateLimiter delays an item's n-th retry (counting
// from zero) by base·2ⁿ, capped at max. Create it with
// [NewItemExponentialFailureRateLimiter]. It is safe for concurrent use.
type ItemExponentialFailureRateLimiter[T comparable] struct {
	failureCounter[T]
	base, max time.Duration
}

// NewItemExponentialFailureRateLimiter returns a per-item exponential
// backoff from base to max. Negative durations count as zero.
func NewItemExponentialFailureRateLimiter[T comparable](base, max time.Duration) *ItemExponentialFailureRateLimiter[T] {
	return &ItemExponentialFailureRateLimiter[T]{base: base, max: max}
}

// When returns base·2ⁿ capped at max, where n is the number of earlier
// failures of item, and counts this failure.
func (r *ItemExponentialFailureRateLimiter[T]) When(item T) time.Duration {
	return exponentialDelay(r.base, r.max, r.count(item)-1)
}

// failureCounter counts each item's failures for the per-item limiters; its
// Forget and NumRequeues are theirs. The zero value counts nothing yet. It
// is safe for concurrent use.
type failureCounter[T comparable] struct {
	mu       sync.Mutex
	failures map[T]int // guarded by mu
}

// count records one more failure of item and returns how many there are
// now, this one included.
func (c *failureCounter[T]) count(item T) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.failures == nil {
		c.failures = map[T]int{}
	}
	c.failures[item]++
	return c.failures[item]
}

// Forget clears item's failure count.
func (c *failureCounter[T]) Forget(item T) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.failures, item)
}

// NumRequeues returns item's failure count.
func (c *failureCounter[T]) NumRequeues(item T) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.failures[item]
}

// exponentialDelay returns base·2^failures, capped at max. It cannot
// overflow, whatever failures is: client-go computes the power in floating
// point for the same reason. Negative inputs count as zero.
func exponentialDelay(base, max time.Duration, failures int) time.Duration {
	base, max, failures = nonNegative(base), nonNegative(max), nonNegative(failures)
	if base == 0 {
		return 0
	}
	// base·2^f > max  ⇔  base > ⌊max / 2^f⌋ for integers; a shift by 63 or
	// more would itself overflow, and then the delay is surely past max.
	if failures >= 63 || base > max>>failures {
		return max
	}
	return base << failures
}

// nonNegative returns x, or zero if x is negative.
func nonNegative[N time.Duration | int](x N) N { return max(x, 0) }

// ItemFastSlowRateLimiter retries an item quickly a few times, then slowly:
// the first maxFast failures wait fast, later ones wait slow. Create it with
// [NewItemFastSlowRateLimiter]. It is safe for concurrent use.
type ItemFastSlowRateLimiter[T comparable] struct {
	failureCounter[T]
	fast, slow time.Duration
	maxFast    int
}

// NewItemFastSlowRateLimiter returns a limiter that waits fast for an item's
// first maxFast failures and slow after that.
func NewItemFastSlowRateLimiter[T comparable](fast, slow time.Duration, maxFast int) *ItemFastSlowRateLimiter[T] {
	return &ItemFastSlowRateLimiter[T]{fast: fast, slow: slow, maxFast: maxFast}
}

// When counts a failure of item and returns fast or slow.
func (r *ItemFastSlowRateLimiter[T]) When(item T) time.Duration {
	return fastSlowDelay(r.fast, r.slow, r.maxFast, r.count(item))
}

// fastSlowDelay returns the wait after the failures-th failure (counting
// from one): fast while failures ≤ maxFast, slow afterwards.
func fastSlowDelay(fast, slow time.Duration, maxFast, failures int) time.Duration {
	if failures <= maxFast {
		return fast
	}
	return slow
}

// BucketRateLimiter is a token bucket shared by all items: it limits how
// often anything is retried, not how often one item is. Create it with
// [NewBucketRateLimiter]. It is safe for concurrent use.
type BucketRateLimiter[T comparable] struct {
	limiter *rate.Limiter
}

// NewBucketRateLimiter returns a limiter that reserves one token of l per
// When. A nil l means no limit.
func NewBucketRateLimiter[T comparable](l *rate.Limiter) *BucketRateLimiter[T] {
	return &BucketRateLimiter[T]{limiter: l}
}

// When reserves a token now and returns how long until it is available.
func (r *BucketRateLimiter[T]) When(T) time.Duration {
	return r.DelayAt(time.Now())
}

// DelayAt reserves a token at instant now and returns how long after now it
// is available: the pure form of When, like rate.Limiter.ReserveN. If the
// bucket can never hold a token (burst 0 with a finite rate), it returns
// rate.InfDuration, as rate.Reservation.Delay does.
func (r *BucketRateLimiter[T]) DelayAt(now time.Time) time.Duration {
	if r.limiter == nil {
		return 0
	}
	return r.limiter.ReserveN(now, 1).DelayFrom(now)
}

// Forget does nothing: the bucket keeps no per-item history.
func (r *BucketRateLimiter[T]) Forget(T) {}

// NumRequeues returns 0: the bucket keeps no per-item history.
func (r *BucketRateLimiter[T]) NumRequeues(T) int { return 0 }

// MaxOfRateLimiter combines limiters: an item waits as long as the most
// demanding of them says. Create it with [NewMaxOfRateLimiter]. It is safe
// for concurrent use if its limiters are.
type MaxOfRateLimiter[T comparable] struct {
	limiters []RateLimiter[T]
}

// NewMaxOfRateLimiter returns the combination of limiters; nil limiters are
// skipped.
func NewMaxOfRateLimiter[T comparable](limiters ...RateLimiter[T]) *MaxOfRateLimiter[T] {
	r := &MaxOfRateLimiter[T]{}
	for _, l := range limiters {
		if l != nil {
			r.limiters = append(r.limiters, l)
		}
	}
	return r
}

// When asks every limiter (each records the failure) and returns the
// longest delay.
func (r *MaxOfRateLimiter[T]) When(item T) time.Duration {
	var d time.Duration
	for _, l := range r.limiters {
		d = max(d, l.When(item))
	}
	return d
}

// Forget forgets item in every limiter.
func (r *MaxOfRateLimiter[T]) Forget(item T) {
	for _, l := range r.limiters {
		l.Forget(item)
	}
}

// NumRequeues returns the largest count any limiter reports.
func (r *MaxOfRateLimiter[T]) NumRequeues(item T) int {
	n := 0
	for _, l := range r.limiters {
		n = max(n, l.NumRequeues(item))
	}
	return n
}
