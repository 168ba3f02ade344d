package prommetrics

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kitchensync/kitchensync/reconcile"
)

// Source is a named set of controller metrics; *reconcile.Controller is
// one.
type Source interface {
	Name() string
	Metrics() reconcile.Metrics
}

// Collector is a prometheus.Collector that reads its sources' metrics at
// each scrape. Two sources with the same name make the registry's Gather
// fail (controller-runtime refuses the second name when the controller is
// made instead).
// A Collector is safe for concurrent use.
type Collector struct {
	mu      sync.Mutex // guards sources
	sources []Source
}

// NewCollector returns a collector for sources; more can be added later
// with [Collector.Add].
func NewCollector(sources ...Source) *Collector {
	return &Collector{sources: sources}
}

// Add adds sources to c; the next scrape reports them.
func (c *Collector) Add(sources ...Source) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sources = append(c.sources, sources...)
}

var (
	label          = []string{"controller"}
	reconcileTotal = prometheus.NewDesc("controller_runtime_reconcile_total",
		"Total number of reconciliations per controller", []string{"controller", "result"}, nil)
	reconcileErrors = prometheus.NewDesc("controller_runtime_reconcile_errors_total",
		"Total number of reconciliation errors per controller", label, nil)
	terminalErrors = prometheus.NewDesc("controller_runtime_terminal_reconcile_errors_total",
		"Total number of terminal reconciliation errors per controller", label, nil)
	reconcilePanics = prometheus.NewDesc("controller_runtime_reconcile_panics_total",
		"Total number of reconciliation panics per controller", label, nil)
	reconcileTime = prometheus.NewDesc("controller_runtime_reconcile_time_seconds",
		"Length of time per reconciliation per controller", label, nil)
	activeWorkers = prometheus.NewDesc("controller_runtime_active_workers",
		"Number of currently used workers per controller", label, nil)
	maxConcurrent = prometheus.NewDesc("controller_runtime_max_concurrent_reconciles",
		"Maximum number of concurrent reconciles per controller", label, nil)
	// kube-controller-manager's names (Kubernetes 1.36), for a controller
	// with reconcile.Options.Freshness.
	staleSyncSkips = prometheus.NewDesc("stale_sync_skips_total",
		"Total number of reconciles skipped because the cache was older than the controller's own writes", label, nil)
	storeResourceVersion = prometheus.NewDesc("store_resource_version",
		"The resourceVersion an informer's cache has reached", []string{"controller", "resource"}, nil)
)

// Describe sends the descriptions of every metric the collector reports.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{reconcileTotal, reconcileErrors, terminalErrors, reconcilePanics,
		reconcileTime, activeWorkers, maxConcurrent, staleSyncSkips, storeResourceVersion} {
		ch <- d
	}
}

// Collect sends the current value of every metric of every source.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	sources := append([]Source(nil), c.sources...)
	c.mu.Unlock()
	for _, s := range sources {
		collect(ch, s.Name(), s.Metrics())
	}
}

func collect(ch chan<- prometheus.Metric, name string, m reconcile.Metrics) {
	counter := func(d *prometheus.Desc, v int64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v), append([]string{name}, labels...)...)
	}
	gauge := func(d *prometheus.Desc, v int64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, float64(v), name)
	}
	counter(reconcileTotal, m.ReconcileTotal.Success, "success")
	counter(reconcileTotal, m.ReconcileTotal.Error, "error")
	counter(reconcileTotal, m.ReconcileTotal.RequeueAfter, "requeue_after")
	counter(reconcileErrors, m.ReconcileErrors)
	counter(terminalErrors, m.TerminalReconcileErrors)
	counter(reconcilePanics, m.ReconcilePanics)
	gauge(activeWorkers, m.ActiveWorkers)
	gauge(maxConcurrent, m.MaxConcurrentReconciles)
	if m.StoreResourceVersions != nil { // the controller checks freshness
		counter(staleSyncSkips, m.StaleSyncSkips)
	}
	for _, v := range m.StoreResourceVersions {
		ch <- prometheus.MustNewConstMetric(storeResourceVersion, prometheus.GaugeValue, float64(v.Version), name, v.Resource.String())
	}
	buckets := make(map[float64]uint64, len(m.ReconcileTime.Buckets))
	for _, b := range m.ReconcileTime.Buckets {
		buckets[b.UpperBound] = b.Count
	}
	ch <- prometheus.MustNewConstHistogram(reconcileTime, m.ReconcileTime.Count, m.ReconcileTime.Sum, buckets, name)
}
