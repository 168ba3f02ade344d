package liveview

import (
	"context"
	"slices"
	"sync"
	"time"
)

// A Gate holds a running kitchen at its hand-offs, so that the page can
// pause it, step it one hand-off at a time and let it run on. It is the
// expediter at the pass who can call "hold!" and then "next!" — on the
// real machinery: a held hand-off is a goroutine of the kitchen that
// really waits (a reflector about to list or watch, a watch event about
// to reach the reflector, a worker about to hand a ticket to the
// reconciler, a cook's timer about to ring), not a replay of a recording.
//
// A Gate reaches into a restaurant only through the seams of its
// [restaurant.Config]: [Gate.Pace] sets them before [restaurant.Open], as
// kitchentest.Conductor.Pace does for tests. Give the same Gate to the
// page with [WithGate].
//
// # What stepping makes deterministic, and what it cannot
//
// While the gate is paused, every hand-off that reaches one of its seams
// waits, and [Gate.Step] lets exactly one of them go (the one that has
// waited longest, or the one the page names). So the order in which the
// held hand-offs proceed is the page's, not the scheduler's, and each
// step's consequences can be read before the next.
//
// It cannot make the rest deterministic:
//
//   - A step runs everything its hand-off causes up to the next seam: a
//     watch event goes through the queue, the cache, every handler (each on
//     its own goroutine) and onto the ticket rail in one step; a reconcile
//     makes all its writes in one step.
//   - The API server is not held: the waiter, kubectl and the server's
//     garbage collector write while the kitchen is paused (their watch
//     events then wait at the gate).
//   - Time is not held: a delayed or rate-limited ticket comes due in real
//     time, a token bucket refills, a Lease expires. Stepping decides when
//     a worker takes the ticket, not when it became ready.
//   - Which of two steps waiting at once arrived first is the
//     scheduler's; unlike the Conductor, a Gate does not wait for the
//     kitchen to be quiet before it grants a step (only testing/synctest
//     can tell that).
//
// A Gate is safe for concurrent use; a nil *Gate never holds anything.
type Gate struct {
	mu      sync.Mutex // guards the fields below
	paused  bool
	only    func(Hold) bool // while running: the hand-offs to hold all the same (a scene's)
	waiting []*held
	nextID  uint64
	passed  uint64 // hand-offs that went through since the gate opened
	stepped uint64 // of which released one at a time by Step
	last    *Hold  // the last hand-off Step released
	closed  bool
	stop    chan struct{} // closed by Close: nothing is held any more
	changed func()        // told when something is held or released (the page's frame)
	held    chan struct{} // closed, and replaced, when a hand-off is held (WaitHeld)
}

// Hold is one hand-off the gate holds, or held.
type Hold struct {
	ID uint64 `json:"id"`
	// Stage is where the order waits: "reflector" (a list or a watch about
	// to start), "watch" (an event about to reach the reflector), "workers"
	// (a worker about to hand a ticket to the reconciler), "stations" (a
	// cook's timer) or "apiserver" (a Lease write).
	Stage string `json:"stage"`
	// What is the kind of hand-off: "list", "watch", "event", "take",
	// "timer" or "lease".
	What string `json:"what"`
	// Name is the informer's resource, the queue's name or the Lease
	// candidate.
	Name string `json:"name,omitempty"`
	Key  string `json:"key,omitempty"`
	RV   string `json:"rv,omitempty"`
	Text string `json:"text"`
	// Wait is how long it has waited, in ms, when the frame was made.
	Wait  int64 `json:"wait"`
	since time.Time
}

type held struct {
	Hold
	go_ chan struct{}
}

// GateState is what the page shows of the gate.
type GateState struct {
	On      bool   `json:"on"` // a gate is wired into the kitchen
	Paused  bool   `json:"paused"`
	Waiting []Hold `json:"waiting"`
	Passed  uint64 `json:"passed"`
	Stepped uint64 `json:"stepped"`
	Last    *Hold  `json:"last,omitempty"`
}

// NewGate returns a gate that lets everything through until paused.
func NewGate() *Gate { return &Gate{stop: make(chan struct{})} }

// pass waits until hand-off h may go, and reports whether it may (false
// when done was closed first). A nil gate lets everything through.
func (g *Gate) pass(done <-chan struct{}, h Hold) bool {
	if g == nil {
		return true
	}
	g.mu.Lock()
	g.nextID++
	h.ID, h.since = g.nextID, time.Now()
	hold := !g.closed && (g.paused || g.only != nil && g.only(h))
	if !hold {
		g.passed++
		g.mu.Unlock()
		return true
	}
	w := &held{Hold: h, go_: make(chan struct{})}
	g.waiting = append(g.waiting, w)
	if g.held != nil {
		close(g.held)
		g.held = nil
	}
	notify := g.changed
	g.mu.Unlock()
	if notify != nil {
		notify()
	}
	select {
	case <-w.go_:
		return true
	case <-g.stop:
		return true
	case <-done:
		g.mu.Lock()
		if i := slices.Index(g.waiting, w); i >= 0 {
			g.waiting = slices.Delete(g.waiting, i, i+1)
		}
		g.mu.Unlock()
		return false
	}
}

// Pause holds every hand-off from now on.
func (g *Gate) Pause() {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.paused = !g.closed
}

// Resume lets every held hand-off go, and the kitchen run on.
func (g *Gate) Resume() {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.paused, g.only = false, nil
	g.releaseLocked(func(Hold) bool { return true })
}

// HoldOnly lets the kitchen run, but holds the hand-offs that match
// accepts (a guided scene's, on its way to its key hand-off): those held
// now stay held, the others go.
func (g *Gate) HoldOnly(match func(Hold) bool) {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return
	}
	g.paused, g.only = false, match
	g.releaseLocked(func(h Hold) bool { return !match(h) })
}

// Step lets exactly one held hand-off go: the one numbered id, or with id
// 0 the one that has waited longest. It returns the hand-off, and false
// when none was held (or none numbered id). The gate stays paused.
func (g *Gate) Step(id uint64) (Hold, bool) {
	if g == nil {
		return Hold{}, false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	i := slices.IndexFunc(g.waiting, func(w *held) bool { return id == 0 || w.ID == id })
	if i < 0 {
		return Hold{}, false
	}
	w := g.waiting[i]
	g.waiting = slices.Delete(g.waiting, i, i+1)
	g.passed++
	g.stepped++
	h := w.Hold
	g.last = &h
	close(w.go_)
	return h, true
}

// releaseLocked lets go the held hand-offs that which accepts.
func (g *Gate) releaseLocked(which func(Hold) bool) {
	g.waiting = slices.DeleteFunc(g.waiting, func(w *held) bool {
		if !which(w.Hold) {
			return false
		}
		g.passed++
		close(w.go_)
		return true
	})
}

// Close lets everything go, for good: a kitchen that stops must not wait
// at the gate. Closing twice does nothing.
func (g *Gate) Close() {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return
	}
	g.closed, g.paused, g.only = true, false, nil
	g.releaseLocked(func(Hold) bool { return true })
	close(g.stop)
}

// State returns what the page shows of the gate.
func (g *Gate) State() GateState {
	if g == nil {
		return GateState{}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	s := GateState{On: true, Paused: g.paused, Passed: g.passed, Stepped: g.stepped, Waiting: []Hold{}}
	now := time.Now()
	for _, w := range g.waiting {
		h := w.Hold
		h.Wait = now.Sub(h.since).Milliseconds()
		s.Waiting = append(s.Waiting, h)
	}
	if g.last != nil {
		last := *g.last
		s.Last = &last
	}
	return s
}

// WaitHeld waits until the gate holds a hand-off, and returns the oldest
// it holds; false if ctx ends first, or the gate is nil or closed. It
// is how a program that drives the gate (a script, a test) waits for the
// kitchen to reach its next hand-off, without polling.
func (g *Gate) WaitHeld(ctx context.Context) (Hold, bool) {
	if g == nil {
		return Hold{}, false
	}
	for {
		g.mu.Lock()
		if len(g.waiting) > 0 {
			h := g.waiting[0].Hold
			g.mu.Unlock()
			return h, true
		}
		if g.held == nil {
			g.held = make(chan struct{})
		}
		held := g.held
		g.mu.Unlock()
		select {
		case <-held:
		case <-g.stop:
			return Hold{}, false
		case <-ctx.Done():
			return Hold{}, false
		}
	}
}

// holding returns the oldest held hand-off that match accepts.
func (g *Gate) holding(match func(Hold) bool) (Hold, bool) {
	if g == nil {
		return Hold{}, false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, w := range g.waiting {
		if match(w.Hold) {
			return w.Hold, true
		}
	}
	return Hold{}, false
}

// notify sets the function told when a hand-off is held.
func (g *Gate) notify(f func()) {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.changed = f
}
