package prommetrics_test

import (
	"context"
	"os"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/expfmt"

	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/reconcile/prommetrics"
)

// A controller's metrics in a Prometheus registry: every one is there, at
// 0, as soon as the controller exists.
func ExampleNewCollector() {
	chef := reconcile.ReconcilerFunc(func(context.Context, reconcile.Request) (reconcile.Result, error) {
		return reconcile.Result{}, nil
	})
	ctrl, err := reconcile.NewController("chef", chef, reconcile.Options{})
	if err != nil {
		panic(err)
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(prommetrics.NewCollector(ctrl))

	families, err := reg.Gather()
	if err != nil {
		panic(err)
	}
	for _, mf := range families {
		if strings.HasSuffix(mf.GetName(), "_seconds") {
			continue // the histogram's 40 buckets are too long to show here
		}
		mf.Help = nil
		if _, err := expfmt.MetricFamilyToText(os.Stdout, mf); err != nil {
			panic(err)
		}
	}
	// Output:
	// # TYPE controller_runtime_active_workers gauge
	// controller_runtime_active_workers{controller="chef"} 0
	// # TYPE controller_runtime_max_concurrent_reconciles gauge
	// controller_runtime_max_concurrent_reconciles{controller="chef"} 0
	// # TYPE controller_runtime_reconcile_errors_total counter
	// controller_runtime_reconcile_errors_total{controller="chef"} 0
	// # TYPE controller_runtime_reconcile_panics_total counter
	// controller_runtime_reconcile_panics_total{controller="chef"} 0
	// # TYPE controller_runtime_reconcile_total counter
	// controller_runtime_reconcile_total{controller="chef",result="error"} 0
	// controller_runtime_reconcile_total{controller="chef",result="requeue_after"} 0
	// controller_runtime_reconcile_total{controller="chef",result="success"} 0
	// # TYPE controller_runtime_terminal_reconcile_errors_total counter
	// controller_runtime_terminal_reconcile_errors_total{controller="chef"} 0
}
