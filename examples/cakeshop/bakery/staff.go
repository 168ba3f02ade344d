package bakery

import (
	"slices"
	"sync"
)

// Staff is a set of named places a cake needs while it is worked on — the
// bakers on duty (糕点师), or the ovens — hired and dismissed as the
// autoscaler creates and deletes Baker objects. A cake takes a free place
// with [Staff.Take] and keeps it, across as many reconciles as its steps
// need, until [Staff.Release]. Take never blocks: a cake that finds no free
// place is put on the waiting list and its reconcile returns at once; when
// a place frees, every waiting cake is handed to the wake-up function set
// with [Staff.Notify] (the shop puts them back on the rack, highest
// priority first). So the number of places limits the cakes in the
// kitchen, never the workers: no worker waits for a baker, as none waits
// for an oven.
//
// A dismissed place that is busy finishes the cake at hand first, as a
// terminating pod finishes its requests. The zero value has no places; a
// Staff is safe for concurrent use.
type Staff struct {
	mu      sync.Mutex        // guards the fields below
	onDuty  []string          // sorted
	holder  map[string]string // place → the cake (key) holding it
	held    map[string]string // cake → its place
	leaving map[string]bool
	waiting []string // cakes waiting for a place, first come first
	wake    func(cake string)
}

func (s *Staff) init() {
	if s.holder == nil {
		s.holder, s.held, s.leaving = map[string]string{}, map[string]string{}, map[string]bool{}
	}
}

// Notify sets the function called, without locks held, with each waiting
// cake when a place frees or is hired.
func (s *Staff) Notify(wake func(cake string)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.wake = wake
}

// wakeAll hands every waiting cake to the wake-up function. It must be
// called without mu held.
func (s *Staff) wakeAll() {
	s.mu.Lock()
	waiting, wake := slices.Clone(s.waiting), s.wake
	s.mu.Unlock()
	if wake == nil {
		return
	}
	for _, c := range waiting {
		wake(c)
	}
}

// Hire puts a place (a baker, an oven) on duty.
func (s *Staff) Hire(name string) {
	s.mu.Lock()
	s.init()
	delete(s.leaving, name)
	if i, found := slices.BinarySearch(s.onDuty, name); !found {
		s.onDuty = slices.Insert(s.onDuty, i, name)
	}
	s.mu.Unlock()
	s.wakeAll()
}

// Dismiss takes a place off duty, after the cake at hand if busy.
func (s *Staff) Dismiss(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.init()
	if _, busy := s.holder[name]; busy {
		s.leaving[name] = true
		return
	}
	s.remove(name)
}

// remove takes name off duty; it must be called with mu held.
func (s *Staff) remove(name string) {
	if i, found := slices.BinarySearch(s.onDuty, name); found {
		s.onDuty = slices.Delete(s.onDuty, i, i+1)
	}
	delete(s.leaving, name)
}

// Take returns the place cake holds, or gives it a free one. If none is
// free, cake joins the waiting list and ok is false.
func (s *Staff) Take(cake string) (name string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.init()
	if name, ok := s.held[cake]; ok {
		return name, true
	}
	for _, name := range s.onDuty {
		if _, busy := s.holder[name]; !busy && !s.leaving[name] {
			s.holder[name], s.held[cake] = cake, name
			s.waiting = slices.DeleteFunc(s.waiting, func(c string) bool { return c == cake })
			return name, true
		}
	}
	if !slices.Contains(s.waiting, cake) {
		s.waiting = append(s.waiting, cake)
	}
	return "", false
}

// Release frees the place cake holds, if any, and takes cake off the
// waiting list.
func (s *Staff) Release(cake string) {
	s.mu.Lock()
	s.init()
	s.waiting = slices.DeleteFunc(s.waiting, func(c string) bool { return c == cake })
	name, ok := s.held[cake]
	if ok {
		delete(s.held, cake)
		delete(s.holder, name)
		if s.leaving[name] {
			s.remove(name)
		}
	}
	s.mu.Unlock()
	if ok {
		s.wakeAll()
	}
}

// Load returns how many places are busy, how many cakes wait for one, and
// how many places are on duty.
func (s *Staff) Load() (busy, waiting, onDuty int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.holder), len(s.waiting), len(s.onDuty)
}
