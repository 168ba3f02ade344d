package reconcile_test

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/workqueue"
)

// addsProvider counts workqueue_adds_total per queue name; the other
// metrics are ignored.
type addsProvider struct {
	mu   sync.Mutex
	adds map[string]int
}

type addsCounter struct {
	p    *addsProvider
	name string
}

func (c addsCounter) Inc() { c.p.mu.Lock(); c.p.adds[c.name]++; c.p.mu.Unlock() }

type nop struct{}

func (nop) Inc()            {}
func (nop) Dec()            {}
func (nop) Set(float64)     {}
func (nop) Observe(float64) {}

func (p *addsProvider) NewDepthMetric(string) workqueue.GaugeMetric { return nop{} }
func (p *addsProvider) NewAddsMetric(name string) workqueue.CounterMetric {
	return addsCounter{p, name}
}
func (p *addsProvider) NewLatencyMetric(string) workqueue.HistogramMetric      { return nop{} }
func (p *addsProvider) NewWorkDurationMetric(string) workqueue.HistogramMetric { return nop{} }
func (p *addsProvider) NewUnfinishedWorkSecondsMetric(string) workqueue.SettableGaugeMetric {
	return nop{}
}
func (p *addsProvider) NewLongestRunningProcessorSecondsMetric(string) workqueue.SettableGaugeMetric {
	return nop{}
}
func (p *addsProvider) NewRetriesMetric(string) workqueue.CounterMetric { return nop{} }

// Options.MetricsProvider reaches the default queue, named after the
// controller, as controller-runtime names its workqueue metrics.
func TestControllerQueueMetrics(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := &addsProvider{adds: map[string]int{}}
		ok := reconcile.ReconcilerFunc(func(context.Context, reconcile.Request) (reconcile.Result, error) {
			return reconcile.Result{}, nil
		})
		c, err := reconcile.NewController("chef", ok, reconcile.Options{MetricsProvider: p})
		if err != nil {
			t.Fatal(err)
		}
		c.Queue().Add(req("table-1"))
		c.Queue().Add(req("table-2"))
		c.Queue().Add(req("table-1")) // collapses: not an add
		p.mu.Lock()
		got := p.adds["chef"]
		p.mu.Unlock()
		if got != 2 {
			t.Errorf("workqueue_adds_total{name=chef} = %d, want 2", got)
		}
		c.Queue().ShutDown()
	})
}
