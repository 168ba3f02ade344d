// Package prommetrics exposes the metrics of [reconcile.Controller]s to a
// Prometheus registry, under controller-runtime's names, so that dashboards
// and alerts written for controller-runtime work unchanged.
//
// Package reconcile keeps its metrics in plain counters and never imports
// Prometheus; this adapter reads them when the registry is scraped. In the
// kitchen, it is the board by the pass that shows how many tickets each
// chef finished, failed or dropped.
//
// # Usage
//
//	reg := prometheus.NewRegistry()
//	reg.MustRegister(prommetrics.NewCollector(orders, cooks))
//	http.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
//
// # Metrics
//
// Each carries the label controller="<name>":
//
//	controller_runtime_reconcile_total{result="success"|"error"|"requeue_after"}  counter
//	controller_runtime_reconcile_errors_total                                     counter
//	controller_runtime_terminal_reconcile_errors_total                            counter
//	controller_runtime_reconcile_panics_total                                     counter
//	controller_runtime_reconcile_time_seconds                                     histogram
//	controller_runtime_active_workers                                             gauge
//	controller_runtime_max_concurrent_reconciles                                  gauge
//
// A controller with reconcile.Options.Freshness also exports
// kube-controller-manager's staleness metrics (Kubernetes 1.36):
//
//	stale_sync_skips_total                                                        counter
//	store_resource_version{resource="<resource.group>"}                           gauge
//
// controller-runtime's result="requeue" (for its deprecated Result.Requeue)
// is not exported, since [reconcile.Result] has no such field.
package prommetrics
