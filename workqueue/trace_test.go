package workqueue_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/trace"
	"github.com/kitchensync/kitchensync/workqueue"
)

func lines(recs []trace.Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.String()
	}
	return out
}

func checkTrace(t *testing.T, rec *trace.Recorder, want []string) {
	t.Helper()
	if diff := cmp.Diff(want, lines(rec.Records())); diff != "" {
		t.Errorf("trace (-want +got):\n%s", diff)
	}
}

func TestTraceQueue(t *testing.T) {
	tr := trace.New()
	rec := trace.NewRecorder(tr)
	q := workqueue.NewWithConfig[string](workqueue.QueueConfig{Name: "rail", Tracer: tr})
	defer q.ShutDown()
	q.Add("a")
	q.Add("b")
	q.Add("a")
	a, _ := q.Get()
	q.Add(a)
	q.Add(a)
	q.Done(a)
	checkTrace(t, rec, []string{
		"workqueue[rail] added a depth=1",
		"workqueue[rail] added b depth=2",
		"workqueue[rail] merged a depth=2",
		"workqueue[rail] got a depth=1",
		"workqueue[rail] deferred a depth=1",
		"workqueue[rail] merged a depth=1",
		"workqueue[rail] done a depth=1",
		"workqueue[rail] requeued a depth=2",
	})
}

func TestTraceRateLimitingQueue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := trace.New()
		rec := trace.NewRecorder(tr)
		q := workqueue.NewRateLimiting[string](workqueue.NewItemExponentialFailureRateLimiter[string](time.Second, time.Minute),
			workqueue.QueueConfig{Name: "rail", Tracer: tr})
		defer q.ShutDown()
		q.AddRateLimited("a")
		q.AddRateLimited("a")
		q.AddAfter("b", 3*time.Second)
		time.Sleep(time.Minute)
		checkTrace(t, rec, []string{
			"workqueue[rail] rate-limited a after=1s",
			"workqueue[rail] rate-limited a after=2s", // the earlier ready time stays
			"workqueue[rail] delayed b after=3s",
			"workqueue[rail] added a depth=1",
			"workqueue[rail] added b depth=2",
		})
	})
}

func TestTracePriorityQueue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := trace.New()
		rec := trace.NewRecorder(tr)
		q := workqueue.NewPriorityQueue[string](workqueue.NewItemExponentialFailureRateLimiter[string](time.Second, time.Minute),
			workqueue.QueueConfig{Name: "rail", Tracer: tr})
		defer q.ShutDown()
		vip := 10
		q.Add("a")
		q.Add("b")
		q.AddWithOpts(workqueue.AddOpts{Priority: &vip}, "b") // raised: b goes first
		b, _, _ := q.GetWithPriority()
		q.Add(b) // held until Done
		q.Done(b)
		q.AddRateLimited("c")
		time.Sleep(time.Minute)
		checkTrace(t, rec, []string{
			"workqueue[rail] added a depth=1",
			"workqueue[rail] added b depth=2",
			"workqueue[rail] merged b depth=2 priority=10",
			"workqueue[rail] got b depth=1 priority=10",
			"workqueue[rail] deferred b depth=1",
			"workqueue[rail] done b depth=1", // the held add's priority, 0, is b's now
			"workqueue[rail] requeued b depth=2",
			"workqueue[rail] rate-limited c depth=2 after=1s",
			"workqueue[rail] added c depth=3",
		})
	})
}

// TestTraceUnheardAllocatesNothing checks that a queue whose tracer has no
// subscriber allocates no more than one without a tracer.
func TestTraceUnheardAllocatesNothing(t *testing.T) {
	cycle := func(tr *trace.Tracer) float64 {
		q := workqueue.NewPriorityQueue[string](nil, workqueue.QueueConfig{Name: "rail", Tracer: tr})
		defer q.ShutDown()
		return testing.AllocsPerRun(100, func() {
			q.Add("a")
			q.Add("a")
			a, _ := q.Get()
			q.Add(a)
			q.Done(a)
			a, _ = q.Get()
			q.Done(a)
		})
	}
	if none, unheard := cycle(nil), cycle(trace.New()); unheard != none {
		t.Errorf("allocations per cycle: %v with an unheard tracer, %v without one", unheard, none)
	}
}
