package bakery

import (
	"context"
	"fmt"
	"io"
	"sync"
)

// Entry is one hand-off in the shop's journal: who acted, on which order,
// a short machine-readable event, and the sentence the narration prints.
type Entry struct {
	Who   string // "customer", "front-desk", "queue", "baker", "oven", "manager", ...
	Key   string // "branch/name" of the cake, or "" for the shop as a whole
	Event string // e.g. "ordered", "completed", "refunded", "retry"
	Text  string
}

// Journal is the single narrator of a scene: every hand-off goes through
// it, so lines never interleave, and it keeps them so that scenes and
// tests can wait for a hand-off ([Journal.Await]) and check invariants.
// A Journal is safe for concurrent use. Lines from different goroutines
// appear in the order they reached the journal; each order's own lines are
// causally ordered.
type Journal struct {
	mu      sync.Mutex // guards the fields below
	w       io.Writer  // nil: keep but do not print
	entries []Entry
	changed chan struct{} // closed and replaced at every Say
}

// NewJournal returns a journal printing to w (nil: silent).
func NewJournal(w io.Writer) *Journal {
	return &Journal{w: w, changed: make(chan struct{})}
}

// Say records and prints one hand-off.
func (j *Journal) Say(who, key, event, format string, args ...any) {
	e := Entry{Who: who, Key: key, Event: event, Text: fmt.Sprintf(format, args...)}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.entries = append(j.entries, e)
	if j.w != nil {
		_, _ = fmt.Fprintf(j.w, "%-13s %s\n", "["+who+"]", e.Text)
	}
	close(j.changed)
	j.changed = make(chan struct{})
}

// Entries returns a copy of every entry so far.
func (j *Journal) Entries() []Entry {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]Entry(nil), j.entries...)
}

// Count returns how many entries match.
func (j *Journal) Count(match func(Entry) bool) int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.countLocked(match)
}

func (j *Journal) countLocked(match func(Entry) bool) int {
	n := 0
	for _, e := range j.entries {
		if match(e) {
			n++
		}
	}
	return n
}

// Await blocks until at least n entries match, or ctx is done. It blocks
// on a channel, so inside a synctest bubble it is durably blocked.
func (j *Journal) Await(ctx context.Context, n int, match func(Entry) bool) error {
	for {
		j.mu.Lock()
		got, ch := j.countLocked(match), j.changed
		j.mu.Unlock()
		if got >= n {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %d journal entries (have %d): %w", n, got, ctx.Err())
		case <-ch:
		}
	}
}

// Is returns a matcher for entries with this key and event.
func Is(key, event string) func(Entry) bool {
	return func(e Entry) bool { return e.Key == key && e.Event == event }
}

// IsEvent returns a matcher for entries with this event, for any key.
func IsEvent(event string) func(Entry) bool {
	return func(e Entry) bool { return e.Event == event }
}
