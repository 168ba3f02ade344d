package reconcile

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Metrics is a snapshot of one controller's metrics, by value, so tests can
// compare it and exporters can read it. Each field names the
// controller-runtime metric it stands for; every metric carries the label
// controller="<name>". All start at 0 when the controller is created.
//
// The package keeps no global registry; the subpackage
// reconcile/prommetrics exposes these values to a Prometheus registry for
// those who want one.
type Metrics struct {
	// ReconcileTotal is controller_runtime_reconcile_total, by its result
	// label.
	ReconcileTotal ReconcileTotals
	// ReconcileErrors is controller_runtime_reconcile_errors_total: every
	// reconcile that returned an error (terminal ones and recovered panics
	// included).
	ReconcileErrors int64
	// TerminalReconcileErrors is
	// controller_runtime_terminal_reconcile_errors_total.
	TerminalReconcileErrors int64
	// ReconcilePanics is controller_runtime_reconcile_panics_total.
	ReconcilePanics int64
	// ReconcileTime is controller_runtime_reconcile_time_seconds.
	ReconcileTime Histogram
	// ActiveWorkers is controller_runtime_active_workers: workers inside a
	// reconcile right now.
	ActiveWorkers int64
	// MaxConcurrentReconciles is controller_runtime_max_concurrent_reconciles:
	// the number of workers, set when [Controller.Start] launches them.
	MaxConcurrentReconciles int64
	// StaleSyncSkips is stale_sync_skips_total, kube-controller-manager's
	// name: reconciles skipped (and requeued) because [Options].Freshness
	// found the caches behind the controller's own writes.
	StaleSyncSkips int64
	// StoreResourceVersions is store_resource_version, by resource: the
	// resourceVersion each cache tracked by [Options].Freshness has
	// reached. Nil without Freshness (and then stale_sync_skips_total is
	// not exported either).
	StoreResourceVersions []StoreResourceVersion
}

// ReconcileTotals counts reconciles by outcome, the values of the result
// label of controller_runtime_reconcile_total. (controller-runtime also has
// "requeue", for its deprecated Result.Requeue, which this package does not
// have.)
type ReconcileTotals struct {
	// Success counts reconciles that returned no error and no RequeueAfter.
	Success int64 // result="success"
	// Error counts reconciles that returned an error or panicked.
	Error int64 // result="error"
	// RequeueAfter counts reconciles that returned a positive RequeueAfter.
	RequeueAfter int64 // result="requeue_after"
}

// Histogram is a snapshot of a Prometheus-style histogram: cumulative
// counts per upper bound, plus the count and sum of all observations.
type Histogram struct {
	Count   uint64
	Sum     float64 // seconds
	Buckets []Bucket
}

// Bucket is one bucket of a [Histogram]: how many observations were at
// most UpperBound.
type Bucket struct {
	UpperBound float64 // seconds
	Count      uint64  // cumulative
}

// ReconcileTimeBuckets returns the bucket bounds of
// controller_runtime_reconcile_time_seconds, in seconds, the same as
// controller-runtime's.
func ReconcileTimeBuckets() []float64 {
	return slices.Clone(reconcileTimeBuckets)
}

var reconcileTimeBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35,
	0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5,
	6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60}

// metrics holds one controller's live metrics. Counters are atomics; the
// histogram has its own lock.
type metrics struct {
	success, errored, requeueAfter atomic.Int64
	errors, terminal, panics       atomic.Int64
	active, workers                atomic.Int64
	staleSkips                     atomic.Int64

	mu     sync.Mutex // guards count, sum and counts
	count  uint64
	sum    float64
	counts []uint64 // per bucket, not cumulative; len(reconcileTimeBuckets)
}

func newMetrics() *metrics {
	return &metrics{counts: make([]uint64, len(reconcileTimeBuckets))}
}

// observe records one reconcile's duration.
func (m *metrics) observe(d time.Duration) {
	s := d.Seconds()
	i, _ := slices.BinarySearch(reconcileTimeBuckets, s)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.count++
	m.sum += s
	if i < len(m.counts) {
		m.counts[i]++
	}
}

func (m *metrics) snapshot() Metrics {
	out := Metrics{
		ReconcileTotal: ReconcileTotals{
			Success:      m.success.Load(),
			Error:        m.errored.Load(),
			RequeueAfter: m.requeueAfter.Load(),
		},
		ReconcileErrors:         m.errors.Load(),
		TerminalReconcileErrors: m.terminal.Load(),
		ReconcilePanics:         m.panics.Load(),
		ActiveWorkers:           m.active.Load(),
		MaxConcurrentReconciles: m.workers.Load(),
		StaleSyncSkips:          m.staleSkips.Load(),
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	out.ReconcileTime = Histogram{Count: m.count, Sum: m.sum, Buckets: make([]Bucket, len(m.counts))}
	var cum uint64
	for i, n := range m.counts {
		cum += n
		out.ReconcileTime.Buckets[i] = Bucket{UpperBound: reconcileTimeBuckets[i], Count: cum}
	}
	return out
}
