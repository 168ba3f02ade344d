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

	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/reconcile/prommetrics"
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
