package compare

import (
	"testing"
	"time"

	ksq "github.com/kitchensync/kitchensync/workqueue"
	cgq "k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"

	"github.com/kitchensync/kitchensync/compare/internal/ops"
)

// prioOf returns the generated priority as a pointer, nil when unset.
func prioOf(op ops.QueueOp) *int {
	if !op.HasPriority {
		return nil
	}
	p := op.Priority
	return &p
}

func ksPriorityQueue() queueImpl {
	q := ksq.NewPriorityQueue(ksq.NewItemExponentialFailureRateLimiter[string](5*time.Millisecond, time.Second), ksq.QueueConfig{})
	return queueImpl{
		add:         q.Add,
		addAfter:    q.AddAfter,
		addRL:       q.AddRateLimited,
		forget:      q.Forget,
		numRequeues: q.NumRequeues,
		addWithOpts: func(op ops.QueueOp) {
			q.AddWithOpts(ksq.AddOpts{After: op.Delay, RateLimited: op.RateLimited, Priority: prioOf(op)}, op.Key)
		},
		get:      q.GetWithPriority,
		done:     q.Done,
		shutDown: q.ShutDown,
	}
}

func crPriorityQueue() queueImpl {
	// An empty name turns metrics off (controller-runtime's noMetrics).
	q := priorityqueue.New("", func(o *priorityqueue.Opts[string]) {
		o.RateLimiter = cgq.NewTypedItemExponentialFailureRateLimiter[string](5*time.Millisecond, time.Second)
	})
	return queueImpl{
		add:         q.Add,
		addAfter:    q.AddAfter,
		addRL:       q.AddRateLimited,
		forget:      q.Forget,
		numRequeues: q.NumRequeues,
		addWithOpts: func(op ops.QueueOp) {
			q.AddWithOpts(priorityqueue.AddOpts{After: op.Delay, RateLimited: op.RateLimited, Priority: prioOf(op)}, op.Key)
		},
		get:      q.GetWithPriority,
		done:     q.Done,
		shutDown: q.ShutDown,
	}
}

// TestPriorityQueueMatchesControllerRuntime compares Get order and
// priorities with controller-runtime's priorityqueue for one worker, with
// priorities, delays, rate-limited adds, re-adds while queued and adds
// while the worker holds the item.
func TestPriorityQueueMatchesControllerRuntime(t *testing.T) {
	cfg := ops.QueueConfig{Ops: 80, Keys: 6, Hold: true, Delaying: true, RateLimited: true, Priority: true}
	diffQueues(t, cfg, true, ksPriorityQueue, crPriorityQueue)
}
