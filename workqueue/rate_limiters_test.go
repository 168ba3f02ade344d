package workqueue

import (
	"math"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/time/rate"
)

func TestExponentialDelay(t *testing.T) {
	const ms = time.Millisecond
	tests := []struct {
		name      string
		reason    string
		base, max time.Duration
		failures  int
		want      time.Duration
	}{
		{"first", "the first failure waits base", 5 * ms, 1000 * time.Second, 0, 5 * ms},
		{"second", "then base·2", 5 * ms, 1000 * time.Second, 1, 10 * ms},
		{"tenth", "base·2⁹", 5 * ms, 1000 * time.Second, 9, 2560 * ms},
		{"just below cap", "5ms·2¹⁷ = 655.36s", 5 * ms, 1000 * time.Second, 17, 655360 * ms},
		{"capped", "5ms·2¹⁸ = 1310.72s > 1000s", 5 * ms, 1000 * time.Second, 18, 1000 * time.Second},
		{"exactly max", "base·2ⁿ == max is not capped", time.Second, 8 * time.Second, 3, 8 * time.Second},
		{"62", "2⁶² ns does not overflow but is capped", 1, 1000 * time.Second, 62, 1000 * time.Second},
		{"63", "a shift by 63 would overflow int64", 1, 1000 * time.Second, 63, 1000 * time.Second},
		{"64", "a shift by 64 is zero in Go", 1, 1000 * time.Second, 64, 1000 * time.Second},
		{"huge", "a failure count past any shift", 5 * ms, 1000 * time.Second, math.MaxInt, 1000 * time.Second},
		{"huge base", "base near MaxInt64 doubled overflows", math.MaxInt64 / 2, math.MaxInt64, 2, math.MaxInt64},
		{"uncapped", "max = MaxInt64 with a small base", time.Second, math.MaxInt64, 30, time.Second << 30},
		{"zero base", "no backoff at all", 0, time.Second, 10, 0},
		{"max below base", "max wins even at once", time.Second, ms, 0, ms},
		{"negative failures", "count as zero", 5 * ms, time.Second, -3, 5 * ms},
		{"negative base", "counts as zero", -5 * ms, time.Second, 3, 0},
		{"negative max", "counts as zero", 5 * ms, -time.Second, 3, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := exponentialDelay(tt.base, tt.max, tt.failures); got != tt.want {
				t.Errorf("exponentialDelay(%v, %v, %d) = %v, want %v (%s)", tt.base, tt.max, tt.failures, got, tt.want, tt.reason)
			}
		})
	}
}

func TestFastSlowDelay(t *testing.T) {
	tests := []struct {
		name              string
		maxFast, failures int
		want              time.Duration
	}{
		{"first", 3, 1, time.Millisecond},
		{"last fast", 3, 3, time.Millisecond},
		{"first slow", 3, 4, time.Second},
		{"no fast attempts", 0, 1, time.Second},
		{"huge", 3, math.MaxInt, time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fastSlowDelay(time.Millisecond, time.Second, tt.maxFast, tt.failures); got != tt.want {
				t.Errorf("fastSlowDelay(1ms, 1s, %d, %d) = %v, want %v", tt.maxFast, tt.failures, got, tt.want)
			}
		})
	}
}

// whens calls l.When(item) n times.
func whens[T comparable](l RateLimiter[T], item T, n int) []time.Duration {
	var ds []time.Duration
	for range n {
		ds = append(ds, l.When(item))
	}
	return ds
}

func TestItemExponentialFailureRateLimiter(t *testing.T) {
	const ms = time.Millisecond
	l := NewItemExponentialFailureRateLimiter[string](ms, 5*ms)
	if diff := cmp.Diff([]time.Duration{ms, 2 * ms, 4 * ms, 5 * ms, 5 * ms}, whens[string](l, "a", 5)); diff != "" {
		t.Errorf("When(a) sequence (-want +got):\n%s", diff)
	}
	if got := l.When("b"); got != ms {
		t.Errorf("When(b) = %v, want %v: items back off independently", got, ms)
	}
	if got := l.NumRequeues("a"); got != 5 {
		t.Errorf("NumRequeues(a) = %d, want 5", got)
	}
	l.Forget("a")
	if got, n := l.When("a"), l.NumRequeues("a"); got != ms || n != 1 {
		t.Errorf("after Forget: When(a) = %v, NumRequeues = %d; want %v, 1", got, n, ms)
	}
}

func TestItemFastSlowRateLimiter(t *testing.T) {
	l := NewItemFastSlowRateLimiter[string](time.Millisecond, time.Second, 2)
	want := []time.Duration{time.Millisecond, time.Millisecond, time.Second, time.Second}
	if diff := cmp.Diff(want, whens[string](l, "a", 4)); diff != "" {
		t.Errorf("When(a) sequence (-want +got):\n%s", diff)
	}
	if got := l.NumRequeues("a"); got != 4 {
		t.Errorf("NumRequeues(a) = %d, want 4", got)
	}
	l.Forget("a")
	if got := l.When("a"); got != time.Millisecond {
		t.Errorf("When(a) after Forget = %v, want 1ms", got)
	}
}

func TestBucketRateLimiterDelayAt(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		reason string
		limit  rate.Limit
		burst  int
		at     []time.Duration // offsets from t0 of successive reservations
		want   []time.Duration
	}{{
		name:   "rush hour",
		reason: "one token per 6s: ten tickets a minute, the rest wait their turn",
		limit:  rate.Every(6 * time.Second), burst: 1,
		at:   []time.Duration{0, 0, 0, 0},
		want: []time.Duration{0, 6 * time.Second, 12 * time.Second, 18 * time.Second},
	}, {
		name:   "burst",
		reason: "a full bucket admits burst tokens at once",
		limit:  rate.Limit(10), burst: 2,
		at:   []time.Duration{0, 0, 0},
		want: []time.Duration{0, 0, 100 * time.Millisecond},
	}, {
		name:   "refill",
		reason: "tokens come back with time",
		limit:  rate.Every(time.Second), burst: 1,
		at:   []time.Duration{0, 0, 5 * time.Second},
		want: []time.Duration{0, time.Second, 0},
	}, {
		name:   "never",
		reason: "an empty bucket that never fills",
		limit:  rate.Limit(1), burst: 0,
		at:   []time.Duration{0},
		want: []time.Duration{rate.InfDuration},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := NewBucketRateLimiter[string](rate.NewLimiter(tt.limit, tt.burst))
			var got []time.Duration
			for _, at := range tt.at {
				got = append(got, l.DelayAt(t0.Add(at)))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("DelayAt (-want +got): %s\n%s", tt.reason, diff)
			}
		})
	}
}

func TestBucketRateLimiterNil(t *testing.T) {
	l := NewBucketRateLimiter[string](nil)
	if d, n := l.When("a"), l.NumRequeues("a"); d != 0 || n != 0 {
		t.Errorf("nil bucket: When = %v, NumRequeues = %d; want 0, 0", d, n)
	}
	l.Forget("a")
}

func TestMaxOfRateLimiter(t *testing.T) {
	fastSlow := NewItemFastSlowRateLimiter[string](3*time.Millisecond, time.Second, 1)
	exp := NewItemExponentialFailureRateLimiter[string](time.Millisecond, time.Minute)
	l := NewMaxOfRateLimiter(fastSlow, nil, exp)
	want := []time.Duration{3 * time.Millisecond, time.Second, time.Second}
	if diff := cmp.Diff(want, whens[string](l, "a", 3)); diff != "" {
		t.Errorf("When(a) sequence (-want +got):\n%s", diff)
	}
	if got := l.NumRequeues("a"); got != 3 {
		t.Errorf("NumRequeues(a) = %d, want 3", got)
	}
	l.Forget("a")
	if fastSlow.NumRequeues("a") != 0 || exp.NumRequeues("a") != 0 {
		t.Error("Forget did not reach every limiter")
	}
}

// TestDefaultControllerRateLimiter checks client-go's numbers at one frozen
// instant: 100 distinct failing items drain the bucket's burst and wait 5ms
// (the backoff); the 101st waits for a token, 1/10 s.
func TestDefaultControllerRateLimiter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := DefaultControllerRateLimiter[int]()
		for i := range 100 {
			if got := l.When(i); got != 5*time.Millisecond {
				t.Fatalf("When(%d) = %v, want 5ms", i, got)
			}
		}
		if got := l.When(100); got != 100*time.Millisecond {
			t.Errorf("When(100) = %v, want 100ms", got)
		}
		if got := l.When(0); got != 200*time.Millisecond {
			t.Errorf("When(0) again = %v, want 200ms (the bucket, not the 10ms backoff)", got)
		}
	})
}
