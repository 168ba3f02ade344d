package compare

import (
	"math/rand/v2"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	ksq "github.com/kitchensync/kitchensync/workqueue"
	"golang.org/x/time/rate"
	cgq "k8s.io/client-go/util/workqueue"

	"github.com/kitchensync/kitchensync/compare/internal/ops"
)

// ksQueue adapts a kitchensync queue (any of the three kinds) to the harness.
func ksQueue(q *ksq.Queue[string]) queueImpl {
	return queueImpl{
		add:      q.Add,
		get:      func() (string, int, bool) { item, shut := q.Get(); return item, 0, shut },
		done:     q.Done,
		shutDown: q.ShutDown,
		drain:    q.ShutDownWithDrain,
	}
}

// cgQueue adapts a client-go queue to the harness.
func cgQueue(q cgq.TypedInterface[string]) queueImpl {
	return queueImpl{
		add:      q.Add,
		get:      func() (string, int, bool) { item, shut := q.Get(); return item, 0, shut },
		done:     q.Done,
		shutDown: q.ShutDown,
		drain:    q.ShutDownWithDrain,
	}
}

// diffQueues plays the sequence of each seed on a fresh pair of queues in
// one synctest bubble and fails on the first differing trace.
func diffQueues(t *testing.T, cfg ops.QueueConfig, withPriority bool, newKS, newCG func() queueImpl) {
	t.Helper()
	handed := 0
	defer func() {
		if !t.Failed() && handed == 0 {
			t.Fatal("no sequence handed out any item: the harness is broken")
		}
	}()
	for seed := range seeds(t, 5000) {
		seq := ops.QueueOps(rand.New(rand.NewPCG(seed, 7)), cfg)
		var want, got []string
		synctest.Test(t, func(t *testing.T) {
			want = runQueue(newCG(), seq, withPriority)
			got = runQueue(newKS(), seq, withPriority)
		})
		for _, line := range want {
			if strings.Contains(line, "got") {
				handed++
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("seed %d: trace differs (-client-go +kitchensync):\n%s\nsequence:\n%s", seed, diff, formatOps(seq))
		}
	}
}

func TestQueueMatchesClientGo(t *testing.T) {
	cfg := ops.QueueConfig{Ops: 80, Keys: 6, Hold: true, ShutDown: true, Drain: true}
	diffQueues(t, cfg, false,
		func() queueImpl { return ksQueue(ksq.New[string]()) },
		func() queueImpl { return cgQueue(cgq.NewTyped[string]()) })
}

func TestDelayingQueueMatchesClientGo(t *testing.T) {
	cfg := ops.QueueConfig{Ops: 80, Keys: 6, Hold: true, Delaying: true, ShutDown: true, Drain: true}
	diffQueues(t, cfg, false,
		func() queueImpl {
			q := ksq.NewDelaying[string]()
			impl := ksQueue(q.Queue)
			impl.addAfter, impl.shutDown, impl.drain = q.AddAfter, q.ShutDown, q.ShutDownWithDrain
			return impl
		},
		func() queueImpl {
			q := cgq.NewTypedDelayingQueue[string]()
			impl := cgQueue(q)
			impl.addAfter = q.AddAfter
			return impl
		})
}

func TestRateLimitingQueueMatchesClientGo(t *testing.T) {
	cfg := ops.QueueConfig{Ops: 80, Keys: 6, Hold: true, Delaying: true, RateLimited: true, ShutDown: true, Drain: true}
	diffQueues(t, cfg, false,
		func() queueImpl {
			q := ksq.NewRateLimiting(ksq.NewItemExponentialFailureRateLimiter[string](5*time.Millisecond, time.Second), ksq.QueueConfig{})
			impl := ksQueue(q.Queue)
			impl.addAfter, impl.shutDown, impl.drain = q.AddAfter, q.ShutDown, q.ShutDownWithDrain
			impl.addRL, impl.forget, impl.numRequeues = q.AddRateLimited, q.Forget, q.NumRequeues
			return impl
		},
		func() queueImpl {
			q := cgq.NewTypedRateLimitingQueue(cgq.NewTypedItemExponentialFailureRateLimiter[string](5*time.Millisecond, time.Second))
			impl := cgQueue(q)
			impl.addAfter, impl.addRL, impl.forget, impl.numRequeues = q.AddAfter, q.AddRateLimited, q.Forget, q.NumRequeues
			return impl
		})
}

// limiterPair builds the same limiter on both sides.
type limiterPair struct {
	name string
	ks   func() ksq.RateLimiter[string]
	cg   func() cgq.TypedRateLimiter[string]
}

func limiterPairs() []limiterPair {
	return []limiterPair{
		{"exponential",
			func() ksq.RateLimiter[string] {
				return ksq.NewItemExponentialFailureRateLimiter[string](5*time.Millisecond, 10*time.Second)
			},
			func() cgq.TypedRateLimiter[string] {
				return cgq.NewTypedItemExponentialFailureRateLimiter[string](5*time.Millisecond, 10*time.Second)
			}},
		{"exponential-overflow",
			func() ksq.RateLimiter[string] {
				return ksq.NewItemExponentialFailureRateLimiter[string](time.Nanosecond, 1<<62)
			},
			func() cgq.TypedRateLimiter[string] {
				return cgq.NewTypedItemExponentialFailureRateLimiter[string](time.Nanosecond, 1<<62)
			}},
		{"bucket",
			func() ksq.RateLimiter[string] { return ksq.NewBucketRateLimiter[string](rate.NewLimiter(10, 5)) },
			func() cgq.TypedRateLimiter[string] {
				return &cgq.TypedBucketRateLimiter[string]{Limiter: rate.NewLimiter(10, 5)}
			}},
		{"fast-slow",
			func() ksq.RateLimiter[string] {
				return ksq.NewItemFastSlowRateLimiter[string](5*time.Millisecond, 2*time.Second, 3)
			},
			func() cgq.TypedRateLimiter[string] {
				return cgq.NewTypedItemFastSlowRateLimiter[string](5*time.Millisecond, 2*time.Second, 3)
			}},
		{"max-of",
			func() ksq.RateLimiter[string] {
				return ksq.NewMaxOfRateLimiter(
					ksq.NewItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second),
					ksq.NewBucketRateLimiter[string](rate.NewLimiter(20, 3)),
					ksq.NewItemFastSlowRateLimiter[string](2*time.Millisecond, 300*time.Millisecond, 4))
			},
			func() cgq.TypedRateLimiter[string] {
				return cgq.NewTypedMaxOfRateLimiter(
					cgq.NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second),
					&cgq.TypedBucketRateLimiter[string]{Limiter: rate.NewLimiter(20, 3)},
					cgq.NewTypedItemFastSlowRateLimiter[string](2*time.Millisecond, 300*time.Millisecond, 4))
			}},
		{"default",
			ksq.DefaultControllerRateLimiter[string],
			cgq.DefaultTypedControllerRateLimiter[string]},
	}
}

// limiterAPI is the part both RateLimiter interfaces share.
type limiterAPI interface {
	When(string) time.Duration
	Forget(string)
	NumRequeues(string) int
}

// runLimiter plays seq on l and returns every answer. Inside a synctest
// bubble, so that token buckets read virtual time.
func runLimiter(l limiterAPI, seq []ops.LimiterOp) []any {
	var out []any
	for _, op := range seq {
		switch op.Kind {
		case ops.LWhen:
			out = append(out, l.When(op.Key))
		case ops.LForget:
			l.Forget(op.Key)
		case ops.LNumRequeues:
			out = append(out, l.NumRequeues(op.Key))
		case ops.LAdvance:
			time.Sleep(op.Delay)
		}
	}
	return out
}

func TestRateLimitersMatchClientGo(t *testing.T) {
	for _, p := range limiterPairs() {
		t.Run(p.name, func(t *testing.T) {
			for seed := range seeds(t, 300) {
				seq := ops.LimiterOps(rand.New(rand.NewPCG(seed, 11)), 200, 4)
				var want, got []any
				synctest.Test(t, func(t *testing.T) {
					want = runLimiter(p.cg(), seq)
					got = runLimiter(p.ks(), seq)
				})
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("seed %d: answers differ (-client-go +kitchensync):\n%s", seed, diff)
				}
			}
		})
	}
}
