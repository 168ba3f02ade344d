package bakery

import (
	"context"
	"math"
	"slices"
	"sync"
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

// AlertRule is a Prometheus alerting rule on a latency histogram,
// evaluated in process:
//
//	alert: HighReconcileLatency
//	expr: histogram_quantile(0.9,
//	        sum(rate(controller_runtime_reconcile_time_seconds_bucket[Window])) by (le)) > Threshold
//
// (The story writes controller_runtime_reconcile_duration_seconds;
// controller-runtime's histogram is controller_runtime_reconcile_time_seconds.)
// Window is in shop time. Threshold and the histogram are in real time
// when RealTime is set — a reconcile's duration is work the controller
// does, which the shop clock does not scale — and in shop time otherwise.
type AlertRule struct {
	Name      string
	Metric    string
	Quantile  float64
	Window    time.Duration
	Threshold time.Duration
	RealTime  bool
}

// Monitor evaluates an [AlertRule] against a histogram (Source) every
// Interval of shop time and narrates when the alert starts firing and when
// it resolves, as Prometheus and Alertmanager would.
type Monitor struct {
	Rule     AlertRule
	Interval time.Duration
	Source   func() reconcile.Histogram
	Clock    *Clock
	Journal  *Journal
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
		now := snapshot{at: m.Clock.Now(), h: m.Source()}
		history = append(history, now)
		// Keep the newest snapshot at least Window old as the base.
		for len(history) > 1 && history[1].at <= now.at-m.Rule.Window {
			history = history[1:]
		}
		p := HistogramQuantile(m.Rule.Quantile, sub(now.h, history[0].h))
		m.evaluate(p, &firing)
	}
}

// evaluate compares the quantile p (in seconds of the rule's time, NaN
// without data) with the threshold and narrates a change of state.
func (m *Monitor) evaluate(p float64, firing *bool) {
	d := time.Duration(p * float64(time.Second))
	over := !math.IsNaN(p) && d > m.Rule.Threshold
	switch {
	case over && !*firing:
		m.Journal.Say("monitor", "", "alert-firing", "ALERT %s FIRING: p%.0f %s over the last %s is %s > %s",
			m.Rule.Name, m.Rule.Quantile*100, m.Rule.Metric, FormatShop(m.Rule.Window), m.Rule.format(d), m.Rule.format(m.Rule.Threshold))
	case !over && *firing:
		m.Journal.Say("monitor", "", "alert-resolved", "alert %s resolved: p%.0f back under %s",
			m.Rule.Name, m.Rule.Quantile*100, m.Rule.format(m.Rule.Threshold))
	}
	*firing = over
}

// format writes a duration in the rule's time: real, or shop minutes.
func (r AlertRule) format(d time.Duration) string {
	if r.RealTime {
		return d.String()
	}
	return FormatShop(d.Round(time.Minute))
}

// LeadTimes is a histogram of what the customer waits: the shop time from
// the baker's first look at an order to its box, with buckets from half an
// hour to eight hours. Unlike the reconcile time, it grows with the oven.
// The zero value is ready to use; it is safe for concurrent use.
type LeadTimes struct {
	mu    sync.Mutex // guards the fields below
	first map[string]time.Duration
	h     reconcile.Histogram
}

// leadTimeBuckets are the bucket bounds, in shop time.
var leadTimeBuckets = []time.Duration{30 * time.Minute, time.Hour, 90 * time.Minute, 2 * time.Hour,
	3 * time.Hour, 4 * time.Hour, 6 * time.Hour, 8 * time.Hour}

// Seen records the first look at order uid, at shop time now.
func (l *LeadTimes) Seen(uid string, now time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.first == nil {
		l.first = map[string]time.Duration{}
	}
	if _, ok := l.first[uid]; !ok {
		l.first[uid] = now
	}
}

// Boxed observes order uid's lead time, once, at shop time now.
func (l *LeadTimes) Boxed(uid string, now time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	at, ok := l.first[uid]
	if !ok {
		return
	}
	delete(l.first, uid)
	if l.h.Buckets == nil {
		for _, b := range leadTimeBuckets {
			l.h.Buckets = append(l.h.Buckets, reconcile.Bucket{UpperBound: b.Seconds()})
		}
	}
	d := now - at
	l.h.Count++
	l.h.Sum += d.Seconds()
	for i := range l.h.Buckets {
		if d.Seconds() <= l.h.Buckets[i].UpperBound {
			l.h.Buckets[i].Count++
		}
	}
}

// Histogram returns the observations so far, in shop seconds.
func (l *LeadTimes) Histogram() reconcile.Histogram {
	l.mu.Lock()
	defer l.mu.Unlock()
	h := l.h
	h.Buckets = slices.Clone(l.h.Buckets)
	return h
}
