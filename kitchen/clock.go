package kitchen

import (
	"context"
	"fmt"
	"math/bits"
	"sync"
	"time"
)

// DefaultMinute is how long one kitchen minute lasts in real time unless
// configured otherwise: a 40-minute Beef Wellington cooks in 200 ms.
const DefaultMinute = 5 * time.Millisecond

// Clock maps kitchen time onto real time with a speed-up factor: one
// kitchen minute lasts [Clock.Minute] of real time. It reads the real
// [time] package, so it runs at full speed in a program and in virtual
// time inside a [testing/synctest] bubble.
//
// Kitchen durations are ordinary [time.Duration] values (40*time.Minute is
// forty kitchen minutes); [Clock.Real] converts one to the real duration a
// timer should wait. A Clock is safe for concurrent use; its speed
// changes only through [Clock.SetMinute]. The zero Clock runs at
// [DefaultMinute] from the zero time; use NewClock.
type Clock struct {
	// Timers, when set before the clock is used, start the timers of
	// [Clock.AfterFunc]; nil means the time package's.
	Timers Timers

	mu     sync.Mutex    // guards the fields below
	minute time.Duration // real length of a kitchen minute
	opened time.Time     // real instant at which kitchen time was base
	base   time.Duration // kitchen time at opened
}

// NewClock returns a clock whose kitchen opens now and whose kitchen
// minute lasts minute of real time (zero or less means [DefaultMinute]).
func NewClock(minute time.Duration) *Clock {
	if minute <= 0 {
		minute = DefaultMinute
	}
	return &Clock{minute: minute, opened: time.Now()}
}

// Minute returns the real duration of one kitchen minute.
func (c *Clock) Minute() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.minuteLocked()
}

func (c *Clock) minuteLocked() time.Duration {
	if c.minute <= 0 { // the zero Clock: use the default
		return DefaultMinute
	}
	return c.minute
}

// SetMinute changes the speed of the kitchen from now on: one kitchen
// minute lasts minute of real time (zero or less means [DefaultMinute]).
// Kitchen time keeps running without a jump. Waits already started keep
// the real length they were given, and so do durations converted with
// [Clock.Real] before the change (such as a rate limiter's backoff).
func (c *Clock) SetMinute(minute time.Duration) {
	if minute <= 0 {
		minute = DefaultMinute
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	c.base += scale(now.Sub(c.opened), time.Minute, c.minuteLocked())
	c.opened = now
	c.minute = minute
}

// Real converts a kitchen duration into real time. Negative durations
// become zero.
func (c *Clock) Real(kitchen time.Duration) time.Duration {
	return scale(kitchen, c.Minute(), time.Minute)
}

// Kitchen converts a real duration into kitchen time.
func (c *Clock) Kitchen(real time.Duration) time.Duration {
	return scale(real, time.Minute, c.Minute())
}

// Now returns the kitchen time since opening.
func (c *Clock) Now() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.base + scale(time.Since(c.opened), time.Minute, c.minuteLocked())
}

// Until returns the real duration until kitchen time t (zero if past).
func (c *Clock) Until(t time.Duration) time.Duration {
	return c.Real(t - c.Now())
}

// Sleep waits for a kitchen duration, or until ctx is done.
func (c *Clock) Sleep(ctx context.Context, kitchen time.Duration) error {
	t := time.NewTimer(c.Real(kitchen))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// AfterFunc calls f in its own goroutine once a kitchen duration has
// passed, and returns a timer that can stop it: the stations time each
// cook with it, key naming the cook ("namespace/name").
func (c *Clock) AfterFunc(kitchen time.Duration, key string, f func()) *time.Timer {
	d := c.Real(kitchen)
	if c.Timers == nil {
		return time.AfterFunc(d, f)
	}
	return c.Timers.AfterFunc(d, key, f)
}

// Timers start a [Clock]'s timers. They are how a test takes hold of what
// the kitchen does when time passes, as k8s.io/utils/clock's Clock is for
// client-go's queues: kitchentest.Conductor's make cooks that finish at
// the same instant go one at a time, in the order of their keys.
type Timers interface {
	// AfterFunc calls f in its own goroutine once d of real time has
	// passed, as [time.AfterFunc] does; key names what is timed.
	AfterFunc(d time.Duration, key string, f func()) *time.Timer
}

// SleepUntil waits until kitchen time t, or until ctx is done.
func (c *Clock) SleepUntil(ctx context.Context, t time.Duration) error {
	return c.Sleep(ctx, c.Kitchen(c.Until(t)))
}

// FormatMinutes writes a kitchen time as minutes with one decimal, the
// form the narration uses ("  12.5").
func FormatMinutes(t time.Duration) string {
	return fmt.Sprintf("%6.1f", t.Minutes())
}

// scale returns d*mul/div without overflowing for any d a dinner needs.
func scale(d, mul, div time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(d), uint64(mul))
	if hi >= uint64(div) {
		return time.Duration(1<<63 - 1)
	}
	q, _ := bits.Div64(hi, lo, uint64(div))
	if q > 1<<63-1 {
		return time.Duration(1<<63 - 1)
	}
	return time.Duration(q)
}
