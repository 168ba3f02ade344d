package bakery

import (
	"context"
	"math"
	"time"

	"github.com/kitchensync/kitchensync/reconcile"
)

// HistogramQuantile estimates the q-quantile (0 ≤ q ≤ 1) of the
// observations in h the way PromQL's histogram_quantile does: find the
// bucket holding the rank q×count, and interpolate linearly inside it (the
// first bucket starts at 0). If the rank falls in the implicit +Inf bucket,
// the highest finite bound is returned. It returns NaN for an empty
// histogram.
func HistogramQuantile(q float64, h reconcile.Histogram) float64 {
	if h.Count == 0 || len(h.Buckets) == 0 || math.IsNaN(q) {
		return math.NaN()
	}
	q = min(max(q, 0), 1)
	rank := q * float64(h.Count)
	lower, below := 0.0, uint64(0)
	for _, b := range h.Buckets {
		if float64(b.Count) >= rank {
			in := b.Count - below
			if in == 0 {
				return b.UpperBound
			}
			return lower + (b.UpperBound-lower)*(rank-float64(below))/float64(in)
		}
		lower, below = b.UpperBound, b.Count
	}
	return h.Buckets[len(h.Buckets)-1].UpperBound
}

// sub returns the observations made between an earlier snapshot old and
// h: what rate(...[window]) looks at.
func sub(h, old reconcile.Histogram) reconcile.Histogram {
	out := reconcile.Histogram{Count: h.Count - old.Count, Sum: h.Sum - old.Sum}
	for i, b := range h.Buckets {
		if i < len(old.Buckets) {
			b.Count -= old.Buckets[i].Count
		}
		out.Buckets = append(out.Buckets, b)
	}
	return out
}

// AlertRule is a Prometheus alerting rule on the reconcile latency
// histogram, evaluated in process:
//
//	alert: HighReconcileLatency
//	expr: histogram_quantile(0.9,
//	        sum(rate(controller_runtime_reconcile_time_seconds_bucket[Window])) by (le)) > Threshold
//
// (The story writes controller_runtime_reconcile_duration_seconds;
// controller-runtime's histogram is controller_runtime_reconcile_time_seconds.)
// Window and Threshold are in shop time.
type AlertRule struct {
	Name      string
	Quantile  float64
	Window    time.Duration
	Threshold time.Duration
}

// Monitor evaluates an [AlertRule] against a controller's metrics every
// Interval of shop time and narrates when the alert starts firing and when
// it resolves, as Prometheus and Alertmanager would.
type Monitor struct {
	Rule       AlertRule
	Interval   time.Duration
	Controller *reconcile.Controller
	Clock      *Clock
	Journal    *Journal
}

type snapshot struct {
	at time.Duration // shop time
	h  reconcile.Histogram
}

// Run evaluates the rule until ctx is done.
func (m *Monitor) Run(ctx context.Context) {
	var history []snapshot
	firing := false
	tick := time.NewTicker(m.Clock.Real(m.Interval))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		now := snapshot{at: m.Clock.Now(), h: m.Controller.Metrics().ReconcileTime}
		history = append(history, now)
		// Keep the newest snapshot at least Window old as the base.
		for len(history) > 1 && history[1].at <= now.at-m.Rule.Window {
			history = history[1:]
		}
		p := HistogramQuantile(m.Rule.Quantile, sub(now.h, history[0].h))
		m.evaluate(p, &firing)
	}
}

// evaluate compares the quantile p (in real seconds, NaN without data)
// with the threshold and narrates a change of state.
func (m *Monitor) evaluate(p float64, firing *bool) {
	shop := m.Clock.Kitchen(time.Duration(p * float64(time.Second))).Round(time.Minute)
	over := !math.IsNaN(p) && shop > m.Rule.Threshold
	switch {
	case over && !*firing:
		m.Journal.Say("monitor", "", "alert-firing", "ALERT %s FIRING: p%.0f reconcile time over the last %s is %s > %s",
			m.Rule.Name, m.Rule.Quantile*100, FormatShop(m.Rule.Window), FormatShop(shop), FormatShop(m.Rule.Threshold))
	case !over && *firing:
		m.Journal.Say("monitor", "", "alert-resolved", "alert %s resolved: p%.0f back under %s",
			m.Rule.Name, m.Rule.Quantile*100, FormatShop(m.Rule.Threshold))
	}
	*firing = over
}
