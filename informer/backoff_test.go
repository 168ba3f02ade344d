package informer

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var t0 = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)

func TestBackoffStep(t *testing.T) {
	type step struct {
		at   time.Duration // since t0
		rnd  float64
		want time.Duration
	}
	tests := []struct {
		name   string
		reason string
		b      BackoffManager
		steps  []step
	}{{
		name:   "doubles up to the cap",
		reason: "0.8s, 1.6s, ... 25.6s, then the cap 30s for ever, as client-go's reflector",
		b:      DefaultBackoffManager(),
		steps: []step{
			{0, 0, 800 * time.Millisecond},
			{time.Second, 0, 1600 * time.Millisecond},
			{3 * time.Second, 0, 3200 * time.Millisecond},
			{7 * time.Second, 0, 6400 * time.Millisecond},
			{14 * time.Second, 0, 12800 * time.Millisecond},
			{27 * time.Second, 0, 25600 * time.Millisecond},
			{53 * time.Second, 0, 30 * time.Second},
			{84 * time.Second, 0, 30 * time.Second},
		},
	}, {
		name:   "jitter stretches by up to Jitter times the base",
		reason: "jitter 1.0 gives a delay in [base, 2*base)",
		b:      DefaultBackoffManager(),
		steps: []step{
			{0, 0.5, 1200 * time.Millisecond},
			{time.Second, 0.25, 2000 * time.Millisecond},
			{2 * time.Second, 0.999, 6396800 * time.Microsecond},
		},
	}, {
		name:   "jitter applies on top of the cap",
		reason: "client-go: once capped, delays are in [30s, 60s)",
		b:      BackoffManager{Initial: 20 * time.Second, Cap: 30 * time.Second, Factor: 2, Jitter: 1, ResetAfter: time.Hour},
		steps: []step{
			{0, 0, 20 * time.Second},
			{time.Minute, 0.5, 45 * time.Second},
		},
	}, {
		name:   "resets after the reset period",
		reason: "more than 2 minutes after the last reset, start again from 0.8s",
		b:      DefaultBackoffManager(),
		steps: []step{
			{0, 0, 800 * time.Millisecond},
			{time.Minute, 0, 1600 * time.Millisecond},
			{2 * time.Minute, 0, 3200 * time.Millisecond}, // exactly 2min: not more than
			{2*time.Minute + 1, 0, 800 * time.Millisecond},
			{3 * time.Minute, 0, 1600 * time.Millisecond},
			{4*time.Minute + 2, 0, 800 * time.Millisecond},
		},
	}, {
		name:   "no factor keeps the base",
		reason: "Factor 0 is a constant delay",
		b:      BackoffManager{Initial: time.Second, ResetAfter: time.Hour},
		steps:  []step{{0, 0, time.Second}, {time.Second, 0.9, time.Second}},
	}, {
		name:   "zero reset period never grows",
		reason: "client-go: a zero reset interval resets at every step",
		b:      BackoffManager{Initial: time.Second, Factor: 2},
		steps:  []step{{0, 0, time.Second}, {time.Second, 0, time.Second}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.b
			var got, want []time.Duration
			for _, s := range tt.steps {
				got = append(got, b.Step(t0.Add(s.at), s.rnd))
				want = append(want, s.want)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: delays (-want +got):\n%s", tt.reason, diff)
			}
		})
	}
}

func TestBackoffResetCountsFromReset(t *testing.T) {
	b := DefaultBackoffManager()
	b.Reset(t0)
	if got := b.Step(t0.Add(time.Minute), 0); got != 800*time.Millisecond {
		t.Fatalf("first step = %v, want 800ms", got)
	}
	if got := b.Step(t0.Add(2*time.Minute+time.Second), 0); got != 800*time.Millisecond {
		t.Fatalf("step 2m1s after Reset = %v, want 800ms (reset)", got)
	}
}

func TestResyncDue(t *testing.T) {
	tests := []struct {
		name   string
		now    time.Time
		next   time.Time
		period time.Duration
		want   bool
	}{
		{"zero period never", t0.Add(time.Hour), t0, 0, false},
		{"before next", t0.Add(-time.Nanosecond), t0, time.Minute, false},
		{"exactly at next", t0, t0, time.Minute, true},
		{"after next", t0.Add(time.Second), t0, time.Minute, true},
	}
	for _, tt := range tests {
		if got := resyncDue(tt.now, tt.next, tt.period); got != tt.want {
			t.Errorf("%s: resyncDue = %v, want %v", tt.name, got, tt.want)
		}
	}
	if got, want := nextResync(t0, time.Minute), t0.Add(time.Minute); !got.Equal(want) {
		t.Errorf("nextResync = %v, want %v", got, want)
	}
}

func TestEffectiveResyncPeriod(t *testing.T) {
	tests := []struct {
		desired, check, want time.Duration
		reason               string
	}{
		{0, time.Minute, 0, "a handler that asks for none gets none"},
		{time.Minute, 0, 0, "an informer that never checks never resyncs"},
		{time.Second, time.Minute, time.Minute, "not more often than the informer checks"},
		{time.Hour, time.Minute, time.Hour, "longer periods are kept"},
	}
	for _, tt := range tests {
		if got := effectiveResyncPeriod(tt.desired, tt.check); got != tt.want {
			t.Errorf("effectiveResyncPeriod(%v, %v) = %v, want %v: %s", tt.desired, tt.check, got, tt.want, tt.reason)
		}
	}
}

func TestWatchTimeout(t *testing.T) {
	if got := watchTimeout(0); got != 5*time.Minute {
		t.Errorf("watchTimeout(0) = %v, want 5m", got)
	}
	if got := watchTimeout(0.5); got != 7*time.Minute+30*time.Second {
		t.Errorf("watchTimeout(0.5) = %v, want 7m30s", got)
	}
}
