package reconcile_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/workqueue"
)

// queueRecorder is a priority queue that records the priority of each add.
type queueRecorder struct {
	*workqueue.PriorityQueue[reconcile.Request]
	mu   sync.Mutex
	adds []string
}

func (q *queueRecorder) record(prio *int, items ...reconcile.Request) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, r := range items {
		p := 0
		if prio != nil {
			p = *prio
		}
		q.adds = append(q.adds, r.String()+"@"+strconv.Itoa(p))
	}
}

func (q *queueRecorder) Add(r reconcile.Request) {
	q.record(nil, r)
	q.PriorityQueue.Add(r)
}

func (q *queueRecorder) AddWithOpts(o workqueue.AddOpts, items ...reconcile.Request) {
	q.record(o.Priority, items...)
	q.PriorityQueue.AddWithOpts(o, items...)
}

// recordingQueue returns Options whose queue is q.
func recordingQueue(q *queueRecorder) reconcile.Options {
	return reconcile.Options{
		NewQueue: func(name string, rl workqueue.RateLimiter[reconcile.Request]) reconcile.WorkQueue {
			q.PriorityQueue = workqueue.NewPriorityQueue(rl, workqueue.QueueConfig{Name: name})
			return q
		},
	}
}

// Result.Priority sets the priority of the requeue, for errors and
// RequeueAfter alike; without it, the request keeps the priority it had.
func TestResultPriority(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		high := 7
		r := newRecorder(returns(reconcile.Result{Priority: &high}, errors.New("boom")),
			returns(reconcile.Result{RequeueAfter: time.Second}, nil))
		q := &queueRecorder{}
		c := newController(t, r, recordingQueue(q))
		c.Queue().Add(soup)
		if err := runFor(t, c, time.Hour); err != nil {
			t.Fatal(err)
		}
		want := []string{"kitchen/soup@0", "kitchen/soup@7", "kitchen/soup@7"}
		if diff := cmp.Diff(want, q.adds); diff != "" {
			t.Errorf("adds (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]time.Duration{0, 5 * ms, time.Second + 5*ms}, r.times()); diff != "" {
			t.Errorf("reconcile times (-want +got):\n%s", diff)
		}
	})
}

// Any queue with the WorkQueue contract can be plugged in; one without
// priorities simply ignores them.
func TestPlainRateLimitingQueue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		high := 7
		boom := errors.New("boom")
		r := newRecorder(returns(reconcile.Result{Priority: &high}, boom), fail(boom),
			returns(reconcile.Result{RequeueAfter: time.Minute}, nil))
		c := newController(t, r, reconcile.Options{
			NewQueue: func(name string, rl workqueue.RateLimiter[reconcile.Request]) reconcile.WorkQueue {
				return workqueue.NewRateLimiting(rl, workqueue.QueueConfig{Name: name})
			},
		})
		c.Queue().Add(soup)
		if err := runFor(t, c, time.Hour); err != nil {
			t.Fatal(err)
		}
		want := []time.Duration{0, 5 * ms, 15 * ms, time.Minute + 15*ms}
		if diff := cmp.Diff(want, r.times()); diff != "" {
			t.Errorf("reconcile times (-want +got):\n%s", diff)
		}
		checkMetrics(t, c, reconcile.Metrics{
			ReconcileTotal:          reconcile.ReconcileTotals{Success: 1, Error: 2, RequeueAfter: 1},
			ReconcileErrors:         2,
			MaxConcurrentReconciles: 1,
		})
	})
}

// Each reconcile logs at Debug with the controller, the key, the result
// and the duration; the reconciler gets a logger with the key attached.
func TestLogs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var logs bytes.Buffer
		r := reconcile.ReconcilerFunc(func(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
			reconcile.LoggerFrom(ctx).Info("tasting", "salt", "enough")
			<-time.After(30 * ms) // cooking, in virtual time
			return reconcile.Result{}, nil
		})
		logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		c := newController(t, r, reconcile.Options{Logger: logger})
		c.Queue().Add(soup)
		if err := runFor(t, c, time.Hour); err != nil {
			t.Fatal(err)
		}
		rec := findLog(t, &logs, "tasting")
		if rec["controller"] != "test" || rec["namespace"] != "kitchen" || rec["name"] != "soup" || rec["salt"] != "enough" {
			t.Errorf("reconciler's log = %v", rec)
		}
		rec = findLog(t, &logs, "Reconcile done")
		want := map[string]any{"level": "DEBUG", "controller": "test", "namespace": "kitchen", "name": "soup",
			"result": "success", "requeueAfter": float64(0), "duration": float64(30 * ms)}
		delete(rec, "time")
		delete(rec, "msg")
		if diff := cmp.Diff(want, rec); diff != "" {
			t.Errorf("reconcile log (-want +got):\n%s", diff)
		}
		if got := c.Metrics().ReconcileTime; got.Count != 1 || got.Sum != 0.03 || got.Buckets[2].Count != 0 || got.Buckets[3].Count != 1 {
			t.Errorf("reconcile_time_seconds = count %d sum %v, want one observation of 0.03s in the 0.05 bucket", got.Count, got.Sum)
		}
	})
	if reconcile.LoggerFrom(context.Background()) == nil {
		t.Errorf("LoggerFrom outside a reconcile returned nil")
	}
}

// Which wins when an event races a pending RequeueAfter (the package doc,
// "What a Result does"): the event reconciles at once. With the default
// priority queue it replaces the timed requeue, so a reconcile that then
// returns the zero Result ends the timed requeues; with a plain
// rate-limiting queue the timed requeue still fires.
func TestEventRacesRequeueAfter(t *testing.T) {
	plain := func(name string, rl workqueue.RateLimiter[reconcile.Request]) reconcile.WorkQueue {
		return workqueue.NewRateLimiting(rl, workqueue.QueueConfig{Name: name})
	}
	tests := []struct {
		name     string
		newQueue func(string, workqueue.RateLimiter[reconcile.Request]) reconcile.WorkQueue
		want     []time.Duration
	}{
		{"priority queue", nil, []time.Duration{0, 10 * time.Second}},
		{"rate-limiting queue", plain, []time.Duration{0, 10 * time.Second, time.Minute}},
	}
	for _, tt := range tests {
		synctest.Test(t, func(t *testing.T) {
			r := newRecorder(returns(reconcile.Result{RequeueAfter: time.Minute}, nil))
			c := newController(t, r, reconcile.Options{NewQueue: tt.newQueue})
			c.Queue().Add(soup)
			time.AfterFunc(10*time.Second, func() { c.Queue().Add(soup) }) // the event
			if err := runFor(t, c, time.Hour); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, r.times()); diff != "" {
				t.Errorf("%s: reconcile times (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}
