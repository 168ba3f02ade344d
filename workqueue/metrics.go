package workqueue

import (
	"sync"
	"time"
)

// The metric names a [MetricsProvider] should publish, the same names
// controller-runtime registers with Prometheus. Each metric carries the
// queue's name (the name passed to the provider's New...Metric methods) as
// the label "name".
const (
	// DepthMetricName is the gauge of items waiting in the queue.
	DepthMetricName = "workqueue_depth"
	// AddsMetricName is the counter of adds the queue accepted (adds that
	// collapsed into an item already queued are not counted).
	AddsMetricName = "workqueue_adds_total"
	// QueueLatencyMetricName is the histogram of seconds an item waits in the
	// queue before a worker gets it.
	QueueLatencyMetricName = "workqueue_queue_duration_seconds"
	// WorkDurationMetricName is the histogram of seconds between Get and Done.
	WorkDurationMetricName = "workqueue_work_duration_seconds"
	// UnfinishedWorkMetricName is the gauge of seconds of work in progress
	// that has not been marked Done, summed over all workers. A value that
	// keeps growing points at stuck workers.
	UnfinishedWorkMetricName = "workqueue_unfinished_work_seconds"
	// LongestRunningProcessorMetricName is the gauge of seconds the oldest
	// item in progress has been running.
	LongestRunningProcessorMetricName = "workqueue_longest_running_processor_seconds"
	// RetriesMetricName is the counter of delayed and rate-limited re-adds.
	RetriesMetricName = "workqueue_retries_total"
)

// unfinishedWorkUpdatePeriod is how often the unfinished-work gauges are
// refreshed while metrics are on, the period client-go uses.
const unfinishedWorkUpdatePeriod = 500 * time.Millisecond

// GaugeMetric is a value that goes up and down, such as the queue depth.
type GaugeMetric interface {
	Inc()
	Dec()
}

// SettableGaugeMetric is a gauge set to an absolute value, such as the
// seconds of unfinished work.
type SettableGaugeMetric interface {
	Set(float64)
}

// CounterMetric is a value that only goes up, such as the number of adds.
type CounterMetric interface {
	Inc()
}

// HistogramMetric records observations, such as how long items wait.
type HistogramMetric interface {
	Observe(float64)
}

// MetricsProvider creates the metrics of one queue; name is the queue's
// name (see [QueueConfig]). It has the shape of client-go's
// workqueue.MetricsProvider, so an adapter written for one fits the other.
// kitchensync's core never imports Prometheus: a provider that publishes the
// metrics under the names listed above lives in the user's code.
type MetricsProvider interface {
	NewDepthMetric(name string) GaugeMetric
	NewAddsMetric(name string) CounterMetric
	NewLatencyMetric(name string) HistogramMetric
	NewWorkDurationMetric(name string) HistogramMetric
	NewUnfinishedWorkSecondsMetric(name string) SettableGaugeMetric
	NewLongestRunningProcessorSecondsMetric(name string) SettableGaugeMetric
	NewRetriesMetric(name string) CounterMetric
}

// queueMetrics records what happens to the items of one queue. A nil
// *queueMetrics means metrics are off; every method is then a no-op that
// costs one comparison. It is not safe for concurrent use: the owning queue
// calls it with its own mutex held.
type queueMetrics[T comparable] struct {
	depth        GaugeMetric
	adds         CounterMetric
	latency      HistogramMetric
	workDuration HistogramMetric
	unfinished   SettableGaugeMetric
	longest      SettableGaugeMetric
	retries      CounterMetric

	addTimes   map[T]time.Time // when each queued item was first added
	startTimes map[T]time.Time // when each item in progress was handed out
}

// newQueueMetrics returns nil (metrics off) unless the queue has both a
// provider and a name: like client-go, an unnamed queue records nothing.
func newQueueMetrics[T comparable](p MetricsProvider, name string) *queueMetrics[T] {
	if p == nil || name == "" {
		return nil
	}
	return &queueMetrics[T]{
		depth:        p.NewDepthMetric(name),
		adds:         p.NewAddsMetric(name),
		latency:      p.NewLatencyMetric(name),
		workDuration: p.NewWorkDurationMetric(name),
		unfinished:   p.NewUnfinishedWorkSecondsMetric(name),
		longest:      p.NewLongestRunningProcessorSecondsMetric(name),
		retries:      p.NewRetriesMetric(name),
		addTimes:     map[T]time.Time{},
		startTimes:   map[T]time.Time{},
	}
}

// add records that item entered the queue.
func (m *queueMetrics[T]) add(item T) {
	if m == nil {
		return
	}
	m.adds.Inc()
	m.depth.Inc()
	if _, ok := m.addTimes[item]; !ok {
		m.addTimes[item] = time.Now()
	}
}

// get records that a worker took item.
func (m *queueMetrics[T]) get(item T) {
	if m == nil {
		return
	}
	now := time.Now()
	m.depth.Dec()
	m.startTimes[item] = now
	if t, ok := m.addTimes[item]; ok {
		m.latency.Observe(now.Sub(t).Seconds())
		delete(m.addTimes, item)
	}
}

// done records that the worker finished item.
func (m *queueMetrics[T]) done(item T) {
	if m == nil {
		return
	}
	if t, ok := m.startTimes[item]; ok {
		m.workDuration.Observe(time.Since(t).Seconds())
		delete(m.startTimes, item)
	}
}

// retry records a delayed or rate-limited add.
func (m *queueMetrics[T]) retry() {
	if m == nil {
		return
	}
	m.retries.Inc()
}

// updateUnfinishedWork refreshes the two gauges about work in progress.
func (m *queueMetrics[T]) updateUnfinishedWork() {
	if m == nil {
		return
	}
	var total, oldest float64
	for _, t := range m.startTimes {
		age := time.Since(t).Seconds()
		total += age
		oldest = max(oldest, age)
	}
	m.unfinished.Set(total)
	m.longest.Set(oldest)
}

// startUnfinishedWorkLoop starts the goroutine that calls update every
// [unfinishedWorkUpdatePeriod] until stop is closed; wg tracks it so that
// shutting down can wait for it. Queues start it only when metrics are on.
func startUnfinishedWorkLoop(wg *sync.WaitGroup, stop <-chan struct{}, update func()) {
	wg.Go(func() {
		t := time.NewTicker(unfinishedWorkUpdatePeriod)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				update()
			}
		}
	})
}
