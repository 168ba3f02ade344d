package bakery

import (
	"context"
	"slices"
	"sync"
)

// Staff is the bakers on duty (糕点师), hired and dismissed as the
// autoscaler creates and deletes Baker objects. A cake reconcile takes a
// free baker for as long as it works ([Shift]); a dismissed baker finishes
// the cake at hand first, as a terminating pod finishes its requests.
// The zero value has nobody on duty; it is safe for concurrent use.
type Staff struct {
	mu      sync.Mutex // guards the fields below
	onDuty  []string   // sorted
	busy    map[string]bool
	leaving map[string]bool
	waiting int
	changed chan struct{} // closed and replaced on every change
}

func (s *Staff) init() {
	if s.busy == nil {
		s.busy, s.leaving, s.changed = map[string]bool{}, map[string]bool{}, make(chan struct{})
	}
}

// broadcast wakes every waiting Acquire; it must be called with mu held.
func (s *Staff) broadcast() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// Hire puts a baker on duty.
func (s *Staff) Hire(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.init()
	delete(s.leaving, name)
	if i, found := slices.BinarySearch(s.onDuty, name); !found {
		s.onDuty = slices.Insert(s.onDuty, i, name)
	}
	s.broadcast()
}

// Dismiss takes a baker off duty, after the cake at hand if busy.
func (s *Staff) Dismiss(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.init()
	if s.busy[name] {
		s.leaving[name] = true
		return
	}
	s.remove(name)
}

func (s *Staff) remove(name string) {
	if i, found := slices.BinarySearch(s.onDuty, name); found {
		s.onDuty = slices.Delete(s.onDuty, i, i+1)
	}
	delete(s.leaving, name)
	s.broadcast()
}

// Acquire waits for a free baker and returns their name.
func (s *Staff) Acquire(ctx context.Context) (string, error) {
	s.mu.Lock()
	s.init()
	for {
		for _, name := range s.onDuty {
			if !s.busy[name] && !s.leaving[name] {
				s.busy[name] = true
				s.mu.Unlock()
				return name, nil
			}
		}
		ch := s.changed
		s.waiting++
		s.mu.Unlock()
		select {
		case <-ctx.Done():
			s.mu.Lock()
			s.waiting--
			s.mu.Unlock()
			return "", ctx.Err()
		case <-ch:
		}
		s.mu.Lock()
		s.waiting--
	}
}

// Release frees a baker taken with Acquire.
func (s *Staff) Release(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.busy, name)
	if s.leaving[name] {
		s.remove(name)
		return
	}
	s.broadcast()
}

// Load returns how many bakers are busy, how many cakes wait for one, and
// how many bakers are on duty.
func (s *Staff) Load() (busy, waiting, onDuty int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.busy), s.waiting, len(s.onDuty)
}
