package narration

import (
	"fmt"
	"io"
	"sync"

	"github.com/kitchensync/kitchensync/kitchen"
)

// Verbosity says how much a [Narrator] tells.
type Verbosity int

// The levels of narration: the summary only, each hand-off, every event.
const (
	Quiet Verbosity = iota
	HandOffs
	Everything
)

// Narrator writes the story of a service, one line per hand-off, prefixed
// by the kitchen minute and by who acts:
//
//	12.0 [waiter]    table 7 orders 1× beef-wellington
//	12.0 [apiserver] created dinner/table-07 (rv 14)
//
// It is the [kitchen.Logger] the restaurant's people tell. A nil
// *Narrator is silent. A Narrator is safe for concurrent use; lines
// from different goroutines never interleave, though their order across
// goroutines follows the scheduler (each order's own lines are causally
// ordered).
type Narrator struct {
	mu    sync.Mutex // guards w
	w     io.Writer
	clock *kitchen.Clock
	level Verbosity
}

// New returns a narrator writing to w at the given level, with times
// read from clock.
func New(w io.Writer, clock *kitchen.Clock, level Verbosity) *Narrator {
	if w == nil {
		w = io.Discard
	}
	if clock == nil {
		clock = kitchen.NewClock(0)
	}
	return &Narrator{w: w, clock: clock, level: level}
}

// Say narrates a hand-off (shown at [HandOffs] and above).
func (n *Narrator) Say(who, format string, args ...any) { n.at(HandOffs, who, format, args...) }

// Detail narrates an event of interest only to the curious (shown at
// [Everything]).
func (n *Narrator) Detail(who, format string, args ...any) { n.at(Everything, who, format, args...) }

func (n *Narrator) at(level Verbosity, who, format string, args ...any) {
	if n == nil || n.level < level {
		return
	}
	msg := fmt.Sprintf(format, args...)
	n.mu.Lock()
	defer n.mu.Unlock()
	// The time is read under the lock, so that the lines' times never go
	// backwards.
	_, _ = fmt.Fprintf(n.w, "%s %-11s %s\n", kitchen.FormatMinutes(n.clock.Now()), "["+who+"]", msg)
}
