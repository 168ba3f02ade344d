package kitchen

import (
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"
)

// Stations are the stoves, ovens and counters: the kitchen's actual
// cooking capacity, the node a [Cook] runs on. Each station has a number
// of places; a cook that finds its station full waits, first come first
// served. A cook that gets a place cooks for its cooking time on the
// [Clock], then its ingredients are used ([Pantry.Use]) and the next
// waiting cook moves up.
//
// Jobs are keyed by the cook's "namespace/name"; the same key is the
// cook's holder name in the [Pantry]. Start and Stop are idempotent, and
// a stopped key stays stopped: a late Start for it (from a cache that has
// not yet seen the delete) does nothing. A Stations is safe for concurrent
// use.
type Stations struct {
	clock  *Clock
	pantry *Pantry

	mu      sync.Mutex // guards the fields below
	places  map[string]int
	busy    map[string]int
	jobs    map[string]*job
	waiting map[string][]string // station → keys, in arrival order
	stopped map[string]bool
	notify  func(key string)
	closed  bool
}

// job is one cook's work at a station.
type job struct {
	station string
	length  time.Duration // kitchen time
	phase   CookPhase
	timer   *time.Timer
	done    time.Duration // kitchen time it finished, once CookDone
}

// NewStations returns stations with the given places each, drawing on
// pantry and timed by clock.
func NewStations(clock *Clock, pantry *Pantry, places map[string]int) *Stations {
	if clock == nil {
		clock = NewClock(0)
	}
	if pantry == nil {
		pantry, _ = NewPantry(nil)
	}
	return &Stations{
		clock: clock, pantry: pantry, places: maps.Clone(places), busy: map[string]int{},
		jobs: map[string]*job{}, waiting: map[string][]string{}, stopped: map[string]bool{},
	}
}

// Notify sets the function called (without locks held, possibly from a
// timer's goroutine) with a key whose phase changed on its own: a waiting
// cook that got a place, a cook that finished. The [Brigade] uses it to
// write the cook's status.
func (s *Stations) Notify(f func(key string)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.notify = f
}

// Start puts a cook to work: at once if its station has a free place,
// else in the station's line. Starting a known or stopped key returns its
// phase and changes nothing.
func (s *Stations) Start(key, station string, length time.Duration) (CookPhase, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped[key] {
		return CookStopped, nil
	}
	if j, ok := s.jobs[key]; ok {
		return j.phase, nil
	}
	if _, ok := s.places[station]; !ok {
		return "", fmt.Errorf("no station %q in this kitchen (have %v)", station, slices.Sorted(maps.Keys(s.places)))
	}
	if s.closed {
		return "", fmt.Errorf("the kitchen is closed")
	}
	j := &job{station: station, length: length, phase: CookWaiting}
	s.jobs[key] = j
	s.waiting[station] = append(s.waiting[station], key)
	s.fillLocked(station)
	return j.phase, nil
}

// fillLocked moves waiting cooks to free places. Must be called with mu
// held.
func (s *Stations) fillLocked(station string) []string {
	var started []string
	for len(s.waiting[station]) > 0 && s.busy[station] < s.places[station] && !s.closed {
		key := s.waiting[station][0]
		s.waiting[station] = s.waiting[station][1:]
		j := s.jobs[key]
		j.phase = CookCooking
		s.busy[station]++
		j.timer = s.clock.AfterFunc(j.length, key, func() { s.finish(key, j) })
		started = append(started, key)
	}
	return started
}

// finish is the timer's end of cooking.
func (s *Stations) finish(key string, j *job) {
	s.mu.Lock()
	if s.jobs[key] != j || j.phase != CookCooking {
		s.mu.Unlock()
		return // stopped meanwhile
	}
	j.phase = CookDone
	j.done = s.clock.Now()
	s.busy[j.station]--
	s.pantry.Use(key)
	changed := append([]string{key}, s.fillLocked(j.station)...)
	notify := s.notify
	s.mu.Unlock()
	if notify != nil {
		for _, k := range changed {
			notify(k)
		}
	}
}

// Has reports whether the kitchen has the station.
func (s *Stations) Has(station string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.places[station]
	return ok
}

// Phase returns the phase of a key's job, if Stations knows it.
func (s *Stations) Phase(key string) (CookPhase, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped[key] {
		return CookStopped, true
	}
	j, ok := s.jobs[key]
	if !ok {
		return "", false
	}
	return j.phase, true
}

// FinishedAt returns the kitchen time a key's job finished, if it has.
func (s *Stations) FinishedAt(key string) (time.Duration, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j, ok := s.jobs[key]
	if !ok || j.phase != CookDone {
		return 0, false
	}
	return j.done, true
}

// Stop calls a cook off and settles its ingredients: a cook that had not
// started gives them back ([Pantry.Release]), one that was cooking throws
// them away ([Pantry.Waste]), one that was done has used them already.
// It returns the phase the job had ("" if unknown, in which case any
// reservation under key is released) and is idempotent.
func (s *Stations) Stop(key string) CookPhase {
	s.mu.Lock()
	j, ok := s.jobs[key]
	s.stopped[key] = true
	delete(s.jobs, key)
	var phase CookPhase
	var started []string
	if ok {
		phase = j.phase
		switch j.phase {
		case CookWaiting:
			s.waiting[j.station] = slices.DeleteFunc(s.waiting[j.station], func(k string) bool { return k == key })
		case CookCooking:
			j.timer.Stop()
			s.busy[j.station]--
			s.pantry.Waste(key)
			started = s.fillLocked(j.station)
		}
	}
	s.pantry.Release(key) // whatever is still held was never in a pan
	notify := s.notify
	s.mu.Unlock()
	if notify != nil {
		for _, k := range started {
			notify(k)
		}
	}
	return phase
}

// Busy returns how many places of each station are taken.
func (s *Stations) Busy() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.busy)
}

// Close stops every timer; jobs in progress stay unfinished. Call it when
// the service ends, so that no timer outlives it.
func (s *Stations) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for _, j := range s.jobs {
		if j.timer != nil {
			j.timer.Stop()
		}
	}
}
