package workqueue

import (
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fakeProvider records every metric of every queue in one map, keyed by
// "metric_name{queue}". It is safe for concurrent use.
type fakeProvider struct {
	mu     sync.Mutex
	values map[string]float64   // gauges and counters
	obs    map[string][]float64 // histogram observations
}

func newFakeProvider() *fakeProvider {
	return &fakeProvider{values: map[string]float64{}, obs: map[string][]float64{}}
}

type fakeMetric struct {
	p   *fakeProvider
	key string
}

func (m fakeMetric) Inc()              { m.p.update(m.key, func(v float64) float64 { return v + 1 }) }
func (m fakeMetric) Dec()              { m.p.update(m.key, func(v float64) float64 { return v - 1 }) }
func (m fakeMetric) Set(x float64)     { m.p.update(m.key, func(float64) float64 { return x }) }
func (m fakeMetric) Observe(x float64) { m.p.observe(m.key, x) }

func (p *fakeProvider) update(key string, f func(float64) float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.values[key] = f(p.values[key])
}

func (p *fakeProvider) observe(key string, x float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.obs[key] = append(p.obs[key], x)
}

func (p *fakeProvider) metric(name, queue string) fakeMetric {
	return fakeMetric{p, fmt.Sprintf("%s{%s}", name, queue)}
}

func (p *fakeProvider) NewDepthMetric(n string) GaugeMetric  { return p.metric(DepthMetricName, n) }
func (p *fakeProvider) NewAddsMetric(n string) CounterMetric { return p.metric(AddsMetricName, n) }
func (p *fakeProvider) NewRetriesMetric(n string) CounterMetric {
	return p.metric(RetriesMetricName, n)
}
func (p *fakeProvider) NewLatencyMetric(n string) HistogramMetric {
	return p.metric(QueueLatencyMetricName, n)
}
func (p *fakeProvider) NewWorkDurationMetric(n string) HistogramMetric {
	return p.metric(WorkDurationMetricName, n)
}
func (p *fakeProvider) NewUnfinishedWorkSecondsMetric(n string) SettableGaugeMetric {
	return p.metric(UnfinishedWorkMetricName, n)
}
func (p *fakeProvider) NewLongestRunningProcessorSecondsMetric(n string) SettableGaugeMetric {
	return p.metric(LongestRunningProcessorMetricName, n)
}

// snapshot returns copies of the recorded values and observations.
func (p *fakeProvider) snapshot() (map[string]float64, map[string][]float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	values, obs := map[string]float64{}, map[string][]float64{}
	for k, v := range p.values {
		values[k] = v
	}
	for k, v := range p.obs {
		obs[k] = append([]float64(nil), v...)
	}
	return values, obs
}

// metricsScenario adds a and b, b twice while queued; after 2s a worker gets
// a, works 3s (the gauges tick meanwhile), is done; b is retried after 1s.
// Both queues must report the same numbers.
func metricsScenario(q queueInterface[string]) {
	q.Add("a")
	q.Add("b")
	q.Add("b") // collapses: not counted
	advance(2 * time.Second)
	a, _ := q.Get()
	advance(3 * time.Second)
	q.Done(a)
	b, _ := q.Get()
	q.Done(b)
	q.AddAfter("b", time.Second)
	advance(time.Second)
}

func TestMetrics(t *testing.T) {
	queues := map[string]func(MetricsProvider) queueInterface[string]{
		"RateLimitingQueue": func(p MetricsProvider) queueInterface[string] {
			return NewRateLimiting[string](nil, QueueConfig{Name: "rail", MetricsProvider: p})
		},
		"PriorityQueue": func(p MetricsProvider) queueInterface[string] {
			return NewPriorityQueue[string](nil, QueueConfig{Name: "rail", MetricsProvider: p})
		},
	}
	for name, newQueue := range queues {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				p := newFakeProvider()
				q := newQueue(p)
				metricsScenario(q)
				q.ShutDown()
				values, obs := p.snapshot()
				wantValues := map[string]float64{
					"workqueue_adds_total{rail}": 3, "workqueue_depth{rail}": 1, "workqueue_retries_total{rail}": 1,
					// The gauges ticked after the last Done: nothing is in progress.
					"workqueue_unfinished_work_seconds{rail}": 0, "workqueue_longest_running_processor_seconds{rail}": 0,
				}
				if diff := cmp.Diff(wantValues, values); diff != "" {
					t.Errorf("values (-want +got):\n%s", diff)
				}
				wantObs := map[string][]float64{
					"workqueue_queue_duration_seconds{rail}": {2, 5},
					"workqueue_work_duration_seconds{rail}":  {3, 0},
				}
				if diff := cmp.Diff(wantObs, obs); diff != "" {
					t.Errorf("observations (-want +got):\n%s", diff)
				}
			})
		})
	}
}

// TestUnfinishedWorkGauges watches the gauges tick every 500ms while two
// items are in progress.
func TestUnfinishedWorkGauges(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := newFakeProvider()
		q := NewWithConfig[string](QueueConfig{Name: "rail", MetricsProvider: p})
		defer q.ShutDown()
		q.Add("a")
		q.Get()
		advance(time.Second)
		q.Add("b")
		q.Get()
		advance(time.Second) // ticks at 1.5s and 2s
		values, _ := p.snapshot()
		if got, want := values["workqueue_unfinished_work_seconds{rail}"], 3.0; got != want {
			t.Errorf("unfinished work = %v s, want %v (a for 2s + b for 1s)", got, want)
		}
		if got, want := values["workqueue_longest_running_processor_seconds{rail}"], 2.0; got != want {
			t.Errorf("longest running = %v s, want %v", got, want)
		}
	})
}

func TestUnnamedQueueHasNoMetrics(t *testing.T) {
	p := newFakeProvider()
	q := NewWithConfig[string](QueueConfig{MetricsProvider: p})
	defer q.ShutDown()
	if q.metrics != nil {
		t.Fatal("a queue without a name records metrics")
	}
	q.Add("a")
	if values, _ := p.snapshot(); len(values) != 0 {
		t.Errorf("metrics recorded for an unnamed queue: %v", values)
	}
}

// TestNoMetricsNoGoroutine pins the zero cost of metrics that are off: a
// Queue without a provider starts no goroutine, so a bubble that never
// shuts it down still ends cleanly (synctest would report a goroutine left
// blocked).
func TestNoMetricsNoGoroutine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := NewWithConfig[string](QueueConfig{Name: "rail"})
		q.Add("a")
	})
}
