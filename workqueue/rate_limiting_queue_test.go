package workqueue

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// queueInterface is what the reconcile package asks of a queue; both
// rate-limited queues must satisfy it.
type queueInterface[T comparable] interface {
	Add(T)
	AddAfter(T, time.Duration)
	AddRateLimited(T)
	Forget(T)
	NumRequeues(T) int
	Get() (T, bool)
	Done(T)
	Len() int
	ShutDown()
	ShutDownWithDrain()
	ShuttingDown() bool
}

var (
	_ queueInterface[string] = (*RateLimitingQueue[string])(nil)
	_ queueInterface[string] = (*PriorityQueue[string])(nil)
)

// TestAddRateLimitedBacksOff runs the same failing item through both queues:
// it comes back after 5ms, 10ms, 20ms, and after Forget after 5ms again.
func TestAddRateLimitedBacksOff(t *testing.T) {
	queues := map[string]func() queueInterface[string]{
		"RateLimitingQueue": func() queueInterface[string] {
			return NewRateLimiting(NewItemExponentialFailureRateLimiter[string](5*time.Millisecond, time.Second), QueueConfig{})
		},
		"PriorityQueue": func() queueInterface[string] {
			return NewPriorityQueue[string](nil, QueueConfig{}) // nil: controller-runtime's 5ms..1000s backoff
		},
	}
	for name, newQueue := range queues {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) { testBackoff(t, newQueue()) })
		})
	}
}

func testBackoff(t *testing.T, q queueInterface[string]) {
	defer q.ShutDown()
	start := time.Now()
	var gots []got[string]
	var requeues []int
	step := func() {
		g := getAt[string](q, start)
		gots = append(gots, g)
		requeues = append(requeues, q.NumRequeues(g.Item))
		q.Done(g.Item)
	}
	q.Add("burnt")
	step()
	for range 3 {
		q.AddRateLimited("burnt")
		step()
	}
	q.Forget("burnt")
	q.AddRateLimited("burnt")
	step()
	const ms = time.Millisecond
	want := []got[string]{
		{Item: "burnt"}, {Item: "burnt", At: 5 * ms}, {Item: "burnt", At: 15 * ms},
		{Item: "burnt", At: 35 * ms}, {Item: "burnt", At: 40 * ms},
	}
	if diff := cmp.Diff(want, gots); diff != "" {
		t.Errorf("Gets (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{0, 1, 2, 3, 1}, requeues); diff != "" {
		t.Errorf("NumRequeues (-want +got):\n%s", diff)
	}
}

func TestNewRateLimitingNilLimiter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := NewRateLimiting[string](nil, QueueConfig{})
		defer q.ShutDown()
		start := time.Now()
		q.AddRateLimited("a")
		if g := getAt[string](q, start); g.At != 5*time.Millisecond {
			t.Errorf("with the default limiter the first retry came at %v, want 5ms", g.At)
		}
	})
}
