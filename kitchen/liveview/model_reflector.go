package liveview

import (
	"time"

	"github.com/kitchensync/kitchensync/trace"
)

// What a reflector is doing, as the page says it: [reflector].State.
const (
	reflWatching  = "watching"    // a watch is open
	reflCut       = "cut"         // the server ended every watch; the reflector has not answered yet
	reflRewatch   = "re-watching" // a clean close: it watches again from its rv at once
	reflBackoff   = "backoff"     // an error, a 410 or a very short watch: it waits, then lists again
	reflListed    = "listed"      // a list returned; its watch follows
	veryShortWait = time.Second   // informer's "very short watch" (see informer.VeryShortWatchError)
)

// heard files one of the reflector's own records (a list, a watch started
// or ended, a 410): its counts, its state and its last action.
func (w *reflector) heard(rec trace.Record) {
	w.Now = describe(rec)
	switch {
	case rec.Err != nil && rec.Action != trace.WatchEnded || rec.Action == trace.Expired:
		w.State = reflBackoff
	case rec.Action == trace.Listed:
		w.Lists++
		w.State = reflListed
	case rec.Action == trace.WatchStarted:
		w.Watches++
		w.State, w.From, w.since = reflWatching, rec.ResourceVersion, rec.Time
	case rec.Action == trace.WatchEnded && rec.Err == nil:
		w.State = reflRewatch
	case rec.Action == trace.WatchEnded:
		w.State = reflBackoff // a very short watch, or one that failed
	}
	w.Watching = w.State == reflWatching
}

// cut files that the server ended every watch: a reflector whose watch
// was open has not heard yet.
func (w *reflector) cut() {
	if w.State == reflWatching {
		w.State, w.Watching = reflCut, false
	}
}

// watchesSettled reports whether every reflector the view knows of has
// had its watch open for longer than a very short watch: cut now, each
// watches again from its resourceVersion, as the lessons say, rather than
// taking the close for a broken connection and listing again.
func (m *model) watchesSettled(now time.Time) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.watches) == 0 {
		return false
	}
	long := veryShortWait + veryShortWait/10
	for _, w := range m.watches {
		since := w.since
		if w.State == "" { // its watch opened before the view did
			since = m.start
		} else if !w.Watching {
			return false
		}
		if now.Sub(since) <= long {
			return false
		}
	}
	return true
}
