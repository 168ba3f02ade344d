package compare

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

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
			q.AddWithOpts(ksq.AddOpts{After: op.Delay, RateLimited: op.RateLimited, Priority: prioOf(op)}, append([]string{op.Key}, op.More...)...)
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
			q.AddWithOpts(priorityqueue.AddOpts{After: op.Delay, RateLimited: op.RateLimited, Priority: prioOf(op)}, append([]string{op.Key}, op.More...)...)
		},
		get:      q.GetWithPriority,
		done:     q.Done,
		shutDown: q.ShutDown,
	}
}

// TestPriorityQueueMatchesControllerRuntime compares Get order and
// priorities with controller-runtime's priorityqueue for one worker, with
// priorities, delays, rate-limited adds, several items per AddWithOpts
// (repeats included), re-adds while queued and adds while the worker holds
// the item.
func TestPriorityQueueMatchesControllerRuntime(t *testing.T) {
	cfg := ops.QueueConfig{Ops: 80, Keys: 6, Hold: true, Delaying: true, RateLimited: true, Priority: true}
	diffQueues(t, cfg, true, ksPriorityQueue, crPriorityQueue)
}

// TestPriorityQueueShutDownDeliberateDifference pins a declared
// difference (see workqueue.PriorityQueue's doc): after ShutDown,
// controller-runtime's Get returns shutdown at once, dropping what is
// queued; kitchensync's, like client-go's Queue, first hands out what is
// queued.
func TestPriorityQueueShutDownDeliberateDifference(t *testing.T) {
	seq := []ops.QueueOp{{Kind: ops.QAdd, Key: "a"}, {Kind: ops.QAdd, Key: "b"}, {Kind: ops.QShutDown}, {Kind: ops.QGetDone}, {Kind: ops.QGetDone}}
	var cr, ks []string
	synctest.Test(t, func(t *testing.T) {
		cr = runQueue(crPriorityQueue(), seq, true)
		ks = runQueue(ksPriorityQueue(), seq, true)
	})
	wantCR := []string{"3: shutdown", "4: shutdown"}
	wantKS := []string{"3: got a prio 0", "4: got b prio 0"}
	if diff := cmp.Diff(wantCR, cr); diff != "" {
		t.Errorf("controller-runtime (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantKS, ks); diff != "" {
		t.Errorf("kitchensync (-want +got):\n%s", diff)
	}
	t.Log("deliberate: after ShutDown controller-runtime drops queued items, kitchensync hands them out first")
}
