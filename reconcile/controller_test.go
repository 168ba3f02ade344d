package reconcile_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kitchensync/kitchensync/reconcile"
)

var soup = reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "kitchen", Name: "soup"}}

// recorder is a Reconciler that records the virtual time of each call,
// relative to its creation, and answers with the next scripted outcome
// (the zero Result once the script runs out).
type recorder struct {
	start time.Time
	mu    sync.Mutex // guards calls and script
	calls []call
	// script is consumed one step per call.
	script []func() (reconcile.Result, error)
}

type call struct {
	Req reconcile.Request
	At  time.Duration
}

func newRecorder(script ...func() (reconcile.Result, error)) *recorder {
	return &recorder{start: time.Now(), script: script}
}

func (r *recorder) Reconcile(_ context.Context, req reconcile.Request) (reconcile.Result, error) {
	r.mu.Lock()
	r.calls = append(r.calls, call{req, time.Since(r.start)})
	var step func() (reconcile.Result, error)
	if len(r.script) > 0 {
		step, r.script = r.script[0], r.script[1:]
	}
	r.mu.Unlock()
	if step == nil {
		return reconcile.Result{}, nil
	}
	return step()
}

func (r *recorder) times() []time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []time.Duration
	for _, c := range r.calls {
		out = append(out, c.At)
	}
	return out
}

func fail(err error) func() (reconcile.Result, error) {
	return func() (reconcile.Result, error) { return reconcile.Result{}, err }
}

func returns(res reconcile.Result, err error) func() (reconcile.Result, error) {
	return func() (reconcile.Result, error) { return res, err }
}

// runFor starts c with a context that ends after d of virtual time, and
// returns Start's result once every worker has finished. Requests must be
// queued before.
func runFor(t *testing.T, c *reconcile.Controller, d time.Duration) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), d)
	defer cancel()
	return c.Start(ctx)
}

func newController(t *testing.T, r reconcile.Reconciler, opts reconcile.Options) *reconcile.Controller {
	t.Helper()
	c, err := reconcile.NewController("test", r, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// ignoreTime leaves the reconcile-time histogram out of metric comparisons;
// tests that care check its count.
var ignoreTime = cmpopts.IgnoreFields(reconcile.Metrics{}, "ReconcileTime")

func checkMetrics(t *testing.T, c *reconcile.Controller, want reconcile.Metrics) {
	t.Helper()
	got := c.Metrics()
	if diff := cmp.Diff(want, got, ignoreTime); diff != "" {
		t.Errorf("metrics (-want +got):\n%s", diff)
	}
	total := want.ReconcileTotal.Success + want.ReconcileTotal.Error + want.ReconcileTotal.RequeueAfter
	if got.ReconcileTime.Count != uint64(total) {
		t.Errorf("reconcile_time_seconds count = %d, want %d", got.ReconcileTime.Count, total)
	}
}

const ms = time.Millisecond

func TestErrorBackoffDoubles(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		boom := errors.New("stove cold")
		r := newRecorder(fail(boom), fail(boom), fail(boom), fail(boom), fail(boom))
		c := newController(t, r, reconcile.Options{})
		c.Queue().Add(soup)
		if err := runFor(t, c, time.Hour); err != nil {
			t.Fatal(err)
		}
		// Each failure waits twice as long as the one before: 5, 10, 20,
		// 40, 80ms, then the sixth try succeeds.
		want := []time.Duration{0, 5 * ms, 15 * ms, 35 * ms, 75 * ms, 155 * ms}
		if diff := cmp.Diff(want, r.times()); diff != "" {
			t.Errorf("reconcile times (-want +got):\n%s", diff)
		}
		checkMetrics(t, c, reconcile.Metrics{
			ReconcileTotal:          reconcile.ReconcileTotals{Success: 1, Error: 5},
			ReconcileErrors:         5,
			MaxConcurrentReconciles: 1,
		})
		if n := c.Queue().NumRequeues(soup); n != 0 {
			t.Errorf("NumRequeues after success = %d, want 0 (forgotten)", n)
		}
	})
}

func TestRequeueAfterLandsOnTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRecorder(returns(reconcile.Result{RequeueAfter: 30 * time.Second}, nil),
			returns(reconcile.Result{RequeueAfter: 7 * time.Minute}, nil))
		c := newController(t, r, reconcile.Options{})
		c.Queue().Add(soup)
		if err := runFor(t, c, time.Hour); err != nil {
			t.Fatal(err)
		}
		want := []time.Duration{0, 30 * time.Second, 30*time.Second + 7*time.Minute}
		if diff := cmp.Diff(want, r.times()); diff != "" {
			t.Errorf("reconcile times (-want +got):\n%s", diff)
		}
		checkMetrics(t, c, reconcile.Metrics{
			ReconcileTotal:          reconcile.ReconcileTotals{Success: 1, RequeueAfter: 2},
			MaxConcurrentReconciles: 1,
		})
	})
}

// An error wins over a RequeueAfter returned with it: the request is
// retried with the error's backoff, and a warning says so.
func TestErrorIgnoresRequeueAfter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var logs bytes.Buffer
		r := newRecorder(returns(reconcile.Result{RequeueAfter: time.Minute}, errors.New("boom")))
		c := newController(t, r, reconcile.Options{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
		c.Queue().Add(soup)
		if err := runFor(t, c, time.Hour); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]time.Duration{0, 5 * ms}, r.times()); diff != "" {
			t.Errorf("reconcile times (-want +got):\n%s", diff)
		}
		if !strings.Contains(logs.String(), "the RequeueAfter is ignored") {
			t.Errorf("no warning about the ignored RequeueAfter in logs:\n%s", logs.String())
		}
		checkMetrics(t, c, reconcile.Metrics{
			ReconcileTotal:          reconcile.ReconcileTotals{Success: 1, Error: 1},
			ReconcileErrors:         1,
			MaxConcurrentReconciles: 1,
		})
	})
}

func TestTerminalErrorIsNotRetried(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		boom := errors.New("no such dish")
		r := newRecorder(fail(boom), fail(reconcile.TerminalError(boom)))
		c := newController(t, r, reconcile.Options{})
		c.Queue().Add(soup)
		if err := runFor(t, c, time.Hour); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]time.Duration{0, 5 * ms}, r.times()); diff != "" {
			t.Errorf("reconcile times (-want +got):\n%s", diff)
		}
		checkMetrics(t, c, reconcile.Metrics{
			ReconcileTotal:          reconcile.ReconcileTotals{Error: 2},
			ReconcileErrors:         2,
			TerminalReconcileErrors: 1,
			MaxConcurrentReconciles: 1,
		})
		if n := c.Queue().NumRequeues(soup); n != 0 {
			t.Errorf("NumRequeues after a terminal error = %d, want 0 (forgotten)", n)
		}
	})
}

func TestPanicIsRecoveredAndRetried(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var logs bytes.Buffer
		r := newRecorder(func() (reconcile.Result, error) { panic("pot boiled over") })
		c := newController(t, r, reconcile.Options{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
		c.Queue().Add(soup)
		if err := runFor(t, c, time.Hour); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]time.Duration{0, 5 * ms}, r.times()); diff != "" {
			t.Errorf("reconcile times (-want +got):\n%s", diff)
		}
		checkMetrics(t, c, reconcile.Metrics{
			ReconcileTotal:          reconcile.ReconcileTotals{Success: 1, Error: 1},
			ReconcileErrors:         1,
			ReconcilePanics:         1,
			MaxConcurrentReconciles: 1,
		})
		rec := findLog(t, &logs, "Observed a panic in reconciler")
		if rec["panic"] != "pot boiled over" || !strings.Contains(rec["stack"].(string), "TestPanicIsRecoveredAndRetried") ||
			rec["controller"] != "test" || rec["namespace"] != "kitchen" || rec["name"] != "soup" {
			t.Errorf("panic log = %v, want the panic value, a stack through the reconciler, controller and key", rec)
		}
		rec = findLog(t, &logs, "Reconciler error")
		if rec["level"] != "ERROR" || rec["error"] != "panic: pot boiled over [recovered]" {
			t.Errorf("error log = %v", rec)
		}
	})
}

// findLog returns the first JSON log record with message msg.
func findLog(t *testing.T, logs *bytes.Buffer, msg string) map[string]any {
	t.Helper()
	for line := range strings.Lines(logs.String()) {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("bad log line %q: %v", line, err)
		}
		if rec["msg"] == msg {
			return rec
		}
	}
	t.Fatalf("no log record %q in:\n%s", msg, logs.String())
	return nil
}
