package workqueue_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/kitchensync/kitchensync/workqueue"
)

// With both RateLimited and a negative After, the shorter delay wins, as in
// controller-runtime: a negative After means now, so the backoff is not
// waited for.
func TestPriorityQueueNegativeAfterWithRateLimitIsNow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := workqueue.NewPriorityQueue[string](workqueue.NewItemExponentialFailureRateLimiter[string](time.Second, time.Minute), workqueue.QueueConfig{})
		defer q.ShutDown()
		q.AddWithOpts(workqueue.AddOpts{After: -time.Second, RateLimited: true}, "table-1")
		if got := q.Len(); got != 1 {
			t.Fatalf("Len = %d right after the add, want 1 (ready now, not after the 1s backoff)", got)
		}
		if got := q.NumRequeues("table-1"); got != 1 {
			t.Errorf("NumRequeues = %d, want 1 (the rate limiter still counts the failure)", got)
		}
	})
}
