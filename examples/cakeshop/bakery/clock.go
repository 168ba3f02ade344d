package bakery

import (
	"fmt"
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/kitchen"
)

// DefaultMinute is how long one shop minute lasts in real time unless
// configured otherwise: a 40-minute bake takes 40 ms.
const DefaultMinute = time.Millisecond

// OpeningTime is the shop time of day at which a [Clock] starts.
const OpeningTime = 8 * time.Hour

// Clock maps shop time onto real time: it is a [kitchen.Clock] (one shop
// minute lasts Minute of real time, virtual inside a testing/synctest
// bubble) whose [Clock.Now] reads as a time of day, the shop opening at
// [OpeningTime]. Shop durations are ordinary time.Durations (40*time.Minute
// is forty shop minutes); Real converts one for a timer and Kitchen
// converts back. The embedded Until and SleepUntil count from opening, not
// from midnight. A Clock never changes after [NewClock] and is safe for
// concurrent use.
type Clock struct {
	*kitchen.Clock
}

// NewClock returns a clock whose shop opens now, at [OpeningTime], and
// whose minute lasts minute of real time (≤ 0 means [DefaultMinute]).
func NewClock(minute time.Duration) *Clock {
	if minute <= 0 {
		minute = DefaultMinute
	}
	return &Clock{kitchen.NewClock(minute)}
}

// Now returns the shop time of day.
func (c *Clock) Now() time.Duration { return OpeningTime + c.Clock.Now() }

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
