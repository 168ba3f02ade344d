package prommetrics_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/reconcile/prommetrics"
	"github.com/kitchensync/kitchensync/store"
)

func TestCollector(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var calls atomic.Int32 // three workers share it
		r := reconcile.ReconcilerFunc(func(context.Context, reconcile.Request) (reconcile.Result, error) {
			switch calls.Add(1) {
			case 1:
				return reconcile.Result{}, errors.New("boom")
			case 2:
				return reconcile.Result{}, reconcile.TerminalError(errors.New("bad order"))
			}
			return reconcile.Result{}, nil
		})
		c, err := reconcile.NewController("orders", r, reconcile.Options{MaxConcurrentReconciles: 3})
		if err != nil {
			t.Fatal(err)
		}
		idle, err := reconcile.NewController("cooks", r, reconcile.Options{})
		if err != nil {
			t.Fatal(err)
		}
		reg := prometheus.NewPedanticRegistry()
		reg.MustRegister(prommetrics.NewCollector(c, idle))

		c.Queue().Add(reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "k", Name: "a"}})
		c.Queue().Add(reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "k", Name: "b"}})
		ctx, cancel := context.WithTimeout(t.Context(), time.Hour)
		defer cancel()
		if err := c.Start(ctx); err != nil {
			t.Fatal(err)
		}

		want := `
# HELP controller_runtime_active_workers Number of currently used workers per controller
# TYPE controller_runtime_active_workers gauge
controller_runtime_active_workers{controller="cooks"} 0
controller_runtime_active_workers{controller="orders"} 0
# HELP controller_runtime_max_concurrent_reconciles Maximum number of concurrent reconciles per controller
# TYPE controller_runtime_max_concurrent_reconciles gauge
controller_runtime_max_concurrent_reconciles{controller="cooks"} 0
controller_runtime_max_concurrent_reconciles{controller="orders"} 3
# HELP controller_runtime_reconcile_errors_total Total number of reconciliation errors per controller
# TYPE controller_runtime_reconcile_errors_total counter
controller_runtime_reconcile_errors_total{controller="cooks"} 0
controller_runtime_reconcile_errors_total{controller="orders"} 2
# HELP controller_runtime_reconcile_panics_total Total number of reconciliation panics per controller
# TYPE controller_runtime_reconcile_panics_total counter
controller_runtime_reconcile_panics_total{controller="cooks"} 0
controller_runtime_reconcile_panics_total{controller="orders"} 0
# HELP controller_runtime_reconcile_total Total number of reconciliations per controller
# TYPE controller_runtime_reconcile_total counter
controller_runtime_reconcile_total{controller="cooks",result="error"} 0
controller_runtime_reconcile_total{controller="cooks",result="requeue_after"} 0
controller_runtime_reconcile_total{controller="cooks",result="success"} 0
controller_runtime_reconcile_total{controller="orders",result="error"} 2
controller_runtime_reconcile_total{controller="orders",result="requeue_after"} 0
controller_runtime_reconcile_total{controller="orders",result="success"} 1
# HELP controller_runtime_terminal_reconcile_errors_total Total number of terminal reconciliation errors per controller
# TYPE controller_runtime_terminal_reconcile_errors_total counter
controller_runtime_terminal_reconcile_errors_total{controller="cooks"} 0
controller_runtime_terminal_reconcile_errors_total{controller="orders"} 1
`
		names := []string{"controller_runtime_active_workers", "controller_runtime_max_concurrent_reconciles",
			"controller_runtime_reconcile_errors_total", "controller_runtime_reconcile_panics_total",
			"controller_runtime_reconcile_total", "controller_runtime_terminal_reconcile_errors_total"}
		if err := testutil.GatherAndCompare(reg, strings.NewReader(want), names...); err != nil {
			t.Error(err)
		}

		// Virtual time does not pass inside a reconcile here, so all three
		// reconciles land in the first bucket.
		mfs, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		for _, mf := range mfs {
			if mf.GetName() != "controller_runtime_reconcile_time_seconds" {
				continue
			}
			for _, m := range mf.GetMetric() {
				h := m.GetHistogram()
				if m.GetLabel()[0].GetValue() == "orders" {
					if h.GetSampleCount() != 3 || h.GetBucket()[0].GetCumulativeCount() != 3 ||
						len(h.GetBucket()) != len(reconcile.ReconcileTimeBuckets()) {
						t.Errorf("orders reconcile_time_seconds = %v", h)
					}
				}
			}
		}
	})
}

// A controller with Freshness exports kube-controller-manager's two
// staleness metrics; one without exports neither.
func TestCollectorFreshness(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cache := store.NewIndexer[*apiservertest.Widget](nil, nil)
		cache.Bookmark("7")
		fresh := reconcile.NewFreshness()
		fresh.Track(meta.GroupResource{Group: "example.com", Resource: "widgets"}, cache)
		owner := reconcile.NamespacedName{Namespace: "k", Name: "a"}
		if err := fresh.WroteAt(owner, meta.GroupResource{Group: "example.com", Resource: "widgets"}, "9"); err != nil {
			t.Fatal(err)
		}
		r := reconcile.ReconcilerFunc(func(context.Context, reconcile.Request) (reconcile.Result, error) {
			return reconcile.Result{}, nil
		})
		c, err := reconcile.NewController("replicasets", r, reconcile.Options{Freshness: fresh})
		if err != nil {
			t.Fatal(err)
		}
		reg := prometheus.NewPedanticRegistry()
		reg.MustRegister(prommetrics.NewCollector(c))
		c.Queue().Add(reconcile.Request{NamespacedName: owner})
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- c.Start(ctx) }()
		time.Sleep(8 * time.Millisecond) // tries at 0, 5ms: both skipped (cache at 7, write at 9)
		synctest.Wait()
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		want := `
# HELP stale_sync_skips_total Total number of reconciles skipped because the cache was older than the controller's own writes
# TYPE stale_sync_skips_total counter
stale_sync_skips_total{controller="replicasets"} 2
# HELP store_resource_version The resourceVersion an informer's cache has reached
# TYPE store_resource_version gauge
store_resource_version{controller="replicasets",resource="widgets.example.com"} 7
`
		if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "stale_sync_skips_total", "store_resource_version"); err != nil {
			t.Error(err)
		}
	})
}
