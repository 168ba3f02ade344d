package informer

import (
	"math"
	"time"
)

// The reflector's retry schedule, the same numbers client-go's reflector
// uses: wait about 0.8s after the first failure, double each time, never
// more than 30s (plus jitter), and start again from 0.8s once two minutes
// have passed since the schedule last started.
const (
	defaultBackoffInitial    = 800 * time.Millisecond
	defaultBackoffCap        = 30 * time.Second
	defaultBackoffFactor     = 2.0
	defaultBackoffJitter     = 1.0
	defaultBackoffResetAfter = 2 * time.Minute
)

// BackoffManager computes how long a [Reflector] waits before it lists and
// watches again: exponential with jitter, capped, and reset after a period
// of time. It is the reflector's backoff manager in client-go
// (wait.NewExponentialBackoffManager): a wait.Backoff that remembers where
// it is and starts over after a while. It is written as plain arithmetic
// on the instant passed in, so that a table test can check it at fixed
// instants. (A retry schedule without state is client.Backoff.)
//
// With the defaults, the delays' base runs 0.8s, 1.6s, 3.2s, 6.4s, 12.8s,
// 25.6s, then 30s for ever; jitter 1.0 stretches each to somewhere in
// [base, 2·base). Every ResetAfter since the last reset the schedule starts
// again from Initial: a server that has been healthy for a while gets a
// quick first retry.
//
// The zero value is not useful; start from [DefaultBackoffManager]. A
// BackoffManager is not safe for concurrent use; a Reflector keeps its own.
type BackoffManager struct {
	// Initial is the base of the first delay.
	Initial time.Duration
	// Cap bounds the base of every delay (jitter comes on top, as in
	// client-go); 0 means no cap.
	Cap time.Duration
	// Factor multiplies the base after each delay; 0 or 1 keeps it.
	Factor float64
	// Jitter adds up to Jitter·base of random extra wait; 0 adds none.
	Jitter float64
	// ResetAfter is how long after its last reset the schedule starts
	// again from Initial; 0 resets at every step (no growth).
	ResetAfter time.Duration

	base      time.Duration // base of the next delay; 0 before the first step
	lastReset time.Time     // when the schedule last started from Initial
}

// DefaultBackoffManager returns the reflector's schedule: 800ms, factor 2,
// jitter 1.0, cap 30s, reset after 2 minutes, as in client-go.
func DefaultBackoffManager() BackoffManager {
	return BackoffManager{
		Initial:    defaultBackoffInitial,
		Cap:        defaultBackoffCap,
		Factor:     defaultBackoffFactor,
		Jitter:     defaultBackoffJitter,
		ResetAfter: defaultBackoffResetAfter,
	}
}

// Reset starts the schedule again from Initial, counting the reset period
// from now. A Reflector calls it when it starts running, as client-go's
// backoffManager records its creation time.
func (b *BackoffManager) Reset(now time.Time) {
	b.base = b.Initial
	b.lastReset = now
}

// Step returns the delay to wait at now and advances the schedule. rnd is
// the jitter draw, a number in [0, 1) (the reflector passes
// [math/rand/v2.Float64]); a test passes fixed values.
func (b *BackoffManager) Step(now time.Time, rnd float64) time.Duration {
	if b.lastReset.IsZero() || b.ResetAfter <= 0 || now.Sub(b.lastReset) > b.ResetAfter {
		b.Reset(now)
	}
	d := b.base
	next := d
	if b.Factor > 0 {
		next = time.Duration(math.Min(float64(d)*b.Factor, math.MaxInt64))
	}
	if b.Cap > 0 && next > b.Cap {
		next = b.Cap
	}
	b.base = next
	if b.Jitter > 0 {
		d += time.Duration(rnd * b.Jitter * float64(d))
	}
	return d
}

// minimumResyncPeriod is the shortest resync a handler may ask for, as in
// client-go; shorter periods are raised to it.
const minimumResyncPeriod = 1 * time.Second

// resyncDue reports whether a handler whose resync period is period and
// whose next resync was scheduled at next is due at now. A zero period
// never resyncs. This is client-go's processorListener.shouldResync.
func resyncDue(now, next time.Time, period time.Duration) bool {
	return period != 0 && !now.Before(next)
}

// nextResync is when a handler that resyncs at now is due again.
func nextResync(now time.Time, period time.Duration) time.Time {
	return now.Add(period)
}

// effectiveResyncPeriod is the resync period a handler actually gets when
// it asks for desired and the informer checks for due resyncs every check,
// as client-go's determineResyncPeriod: a handler cannot resync more often
// than the informer checks, and an informer that never checks (check 0)
// never resyncs anyone.
func effectiveResyncPeriod(desired, check time.Duration) time.Duration {
	switch {
	case desired <= 0 || check <= 0:
		return 0
	case desired < check:
		return check
	default:
		return desired
	}
}

// watchTimeout picks how long a watch may stay open before the reflector
// ends it itself and re-watches: somewhere in [5min, 10min), as client-go
// does, so that many reflectors do not all re-watch at the same instant.
// rnd is in [0, 1).
func watchTimeout(rnd float64) time.Duration {
	const minWatchTimeout = 5 * time.Minute
	return minWatchTimeout + time.Duration(rnd*float64(minWatchTimeout))
}
