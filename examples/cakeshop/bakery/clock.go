package bakery

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// DefaultMinute is how long one shop minute lasts in real time unless
// configured otherwise: a 40-minute bake takes 40 ms.
const DefaultMinute = time.Millisecond

// OpeningTime is the shop time of day at which a [Clock] starts.
const OpeningTime = 8 * time.Hour

// Clock maps shop time onto real time: one shop minute lasts Minute of
// real time. It reads the real time package, so it runs at full speed in
// the program and in virtual time inside a testing/synctest bubble. Shop
// durations are ordinary time.Durations (40*time.Minute is forty shop
// minutes); [Clock.Real] converts one for a timer. A Clock never changes
// after [NewClock] and is safe for concurrent use.
type Clock struct {
	minute time.Duration
	opened time.Time
}

// NewClock returns a clock whose shop opens now, at [OpeningTime], and
// whose minute lasts minute of real time (≤ 0 means [DefaultMinute]).
func NewClock(minute time.Duration) *Clock {
	if minute <= 0 {
		minute = DefaultMinute
	}
	return &Clock{minute: minute, opened: time.Now()}
}

// Real converts a shop duration into real time.
func (c *Clock) Real(shop time.Duration) time.Duration {
	if shop <= 0 {
		return 0
	}
	return time.Duration(float64(shop) / float64(time.Minute) * float64(c.minute))
}

// Shop converts a real duration into shop time.
func (c *Clock) Shop(real time.Duration) time.Duration {
	return time.Duration(float64(real) / float64(c.minute) * float64(time.Minute))
}

// Now returns the shop time of day.
func (c *Clock) Now() time.Duration { return OpeningTime + c.Shop(time.Since(c.opened)) }

// Sleep waits for a shop duration, or until ctx is done.
func (c *Clock) Sleep(ctx context.Context, shop time.Duration) error {
	t := time.NewTimer(c.Real(shop))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// FormatClock writes a time of day as "HH:MM".
func FormatClock(t time.Duration) string {
	t = t.Truncate(time.Minute)
	return fmt.Sprintf("%02d:%02d", int(t.Hours()), int(t.Minutes())%60)
}

// FormatShop writes a shop duration the way the narration does: "40 min"
// or "6h".
func FormatShop(d time.Duration) string {
	if d >= time.Hour && d%time.Hour == 0 {
		return fmt.Sprintf("%dh", d/time.Hour)
	}
	return fmt.Sprintf("%d min", d/time.Minute)
}

// formatDelays writes shop durations as "5 min, 10 min".
func formatDelays(ds []time.Duration) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = FormatShop(d)
	}
	return strings.Join(parts, ", ")
}
