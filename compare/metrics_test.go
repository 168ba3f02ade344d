package compare

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	ksq "github.com/kitchensync/kitchensync/workqueue"
	cgq "k8s.io/client-go/util/workqueue"

	"github.com/kitchensync/kitchensync/compare/internal/ops"
)

// metricsLog records what a queue reports through its MetricsProvider.
// One type serves both libraries: their metric interfaces have the same
// methods.
type metricsLog struct {
	mu                  sync.Mutex
	depth, maxDepth     int
	adds, retries       int
	latency, work       []string // observations in microseconds, in order
	unfinished, longest []string // the values set, in order
}

type metric struct {
	log  *metricsLog
	kind string
}

func (m metric) Inc() { m.add(1) }
func (m metric) Dec() { m.add(-1) }

func (m metric) add(d int) {
	m.log.mu.Lock()
	defer m.log.mu.Unlock()
	switch m.kind {
	case "depth":
		m.log.depth += d
		m.log.maxDepth = max(m.log.maxDepth, m.log.depth)
	case "adds":
		m.log.adds += d
	case "retries":
		m.log.retries += d
	}
}

func (m metric) Observe(v float64) {
	m.log.mu.Lock()
	defer m.log.mu.Unlock()
	s := fmt.Sprintf("%.0fus", v*1e6)
	if m.kind == "latency" {
		m.log.latency = append(m.log.latency, s)
	} else {
		m.log.work = append(m.log.work, s)
	}
}

func (m metric) Set(v float64) {
	m.log.mu.Lock()
	defer m.log.mu.Unlock()
	s := fmt.Sprintf("%.3f", v)
	if m.kind == "unfinished" {
		m.log.unfinished = append(m.log.unfinished, s)
	} else {
		m.log.longest = append(m.log.longest, s)
	}
}

// ksMetrics and cgMetrics are the two providers over one log.
type ksMetrics struct{ log *metricsLog }

func (p ksMetrics) NewDepthMetric(string) ksq.GaugeMetric       { return metric{p.log, "depth"} }
func (p ksMetrics) NewAddsMetric(string) ksq.CounterMetric      { return metric{p.log, "adds"} }
func (p ksMetrics) NewLatencyMetric(string) ksq.HistogramMetric { return metric{p.log, "latency"} }
func (p ksMetrics) NewWorkDurationMetric(string) ksq.HistogramMetric {
	return metric{p.log, "work"}
}
func (p ksMetrics) NewUnfinishedWorkSecondsMetric(string) ksq.SettableGaugeMetric {
	return metric{p.log, "unfinished"}
}
func (p ksMetrics) NewLongestRunningProcessorSecondsMetric(string) ksq.SettableGaugeMetric {
	return metric{p.log, "longest"}
}
func (p ksMetrics) NewRetriesMetric(string) ksq.CounterMetric { return metric{p.log, "retries"} }

type cgMetrics struct{ log *metricsLog }

func (p cgMetrics) NewDepthMetric(string) cgq.GaugeMetric       { return metric{p.log, "depth"} }
func (p cgMetrics) NewAddsMetric(string) cgq.CounterMetric      { return metric{p.log, "adds"} }
func (p cgMetrics) NewLatencyMetric(string) cgq.HistogramMetric { return metric{p.log, "latency"} }
func (p cgMetrics) NewWorkDurationMetric(string) cgq.HistogramMetric {
	return metric{p.log, "work"}
}
func (p cgMetrics) NewUnfinishedWorkSecondsMetric(string) cgq.SettableGaugeMetric {
	return metric{p.log, "unfinished"}
}
func (p cgMetrics) NewLongestRunningProcessorSecondsMetric(string) cgq.SettableGaugeMetric {
	return metric{p.log, "longest"}
}
func (p cgMetrics) NewRetriesMetric(string) cgq.CounterMetric { return metric{p.log, "retries"} }

// metricsSummary is what is compared: final depth, the highest depth, the
// counters, every latency and work-duration observation, and the values
// the unfinished-work gauges were set to.
type metricsSummary struct {
	Depth, MaxDepth, Adds, Retries int
	Latency, Work                  []string
	Unfinished, Longest            []string // set every 500ms while running
}

func (l *metricsLog) summary() metricsSummary {
	l.mu.Lock()
	defer l.mu.Unlock()
	return metricsSummary{l.depth, l.maxDepth, l.adds, l.retries, slices.Clone(l.latency), slices.Clone(l.work),
		slices.Clone(l.unfinished), slices.Clone(l.longest)}
}

// TestWorkqueueMetricsMatchClientGo plays rate-limiting-queue sequences
// (adds, delays, rate-limited adds, held items, shutdown) on queues with
// metrics and compares what each reports: depth, adds, retries, every
// queue-latency and work-duration observation (in virtual microseconds),
// and the unfinished-work and longest-running-processor gauges.
func TestWorkqueueMetricsMatchClientGo(t *testing.T) {
	cfg := ops.QueueConfig{Ops: 80, Keys: 6, Hold: true, Delaying: true, RateLimited: true, ShutDown: true}
	for seed := range seeds(t, 1000) {
		seq := ops.QueueOps(rand.New(rand.NewPCG(seed, 29)), cfg)
		ksLog, cgLog := &metricsLog{}, &metricsLog{}
		synctest.Test(t, func(t *testing.T) {
			limit := 5 * time.Millisecond
			cg := cgq.NewTypedRateLimitingQueueWithConfig(cgq.NewTypedItemExponentialFailureRateLimiter[string](limit, time.Second),
				cgq.TypedRateLimitingQueueConfig[string]{Name: "q", MetricsProvider: cgMetrics{cgLog}})
			impl := cgQueue(cg)
			impl.addAfter, impl.addRL, impl.forget, impl.numRequeues = cg.AddAfter, cg.AddRateLimited, cg.Forget, cg.NumRequeues
			runQueue(impl, seq, false)

			ks := ksq.NewRateLimiting(ksq.NewItemExponentialFailureRateLimiter[string](limit, time.Second),
				ksq.QueueConfig{Name: "q", MetricsProvider: ksMetrics{ksLog}})
			impl = ksQueue(ks.Queue)
			impl.addAfter, impl.shutDown = ks.AddAfter, ks.ShutDown
			impl.addRL, impl.forget, impl.numRequeues = ks.AddRateLimited, ks.Forget, ks.NumRequeues
			runQueue(impl, seq, false)
		})
		if diff := cmp.Diff(cgLog.summary(), ksLog.summary()); diff != "" {
			t.Fatalf("seed %d: metrics differ (-client-go +kitchensync):\n%s\nsequence:\n%s", seed, diff, formatOps(seq))
		}
	}
}
