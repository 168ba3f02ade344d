package liveview

import (
	"slices"
	"strings"
)

// What the guided scenes ask of the model: each takes the lock.

// watching reports whether the reflector of res has a watch open.
func (m *model) watching(res string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	w := m.watches[res]
	return w != nil && w.Watching
}

// countOf returns how many events of class the view has filed.
func (m *model) countOf(class string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.classes[class]
}

// countClasses counts ev's classes. It must be called with mu held.
func (m *model) countClasses(ev event) {
	if ev.Class == "" {
		return
	}
	if m.classes == nil {
		m.classes = map[string]int{}
	}
	for _, c := range strings.Fields(ev.Class) {
		m.classes[c]++
	}
}

// ticketsIn counts the tickets on the rail in state.
func (m *model) ticketsIn(state string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, t := range m.tickets {
		if t.State == state {
			n++
		}
	}
	return n
}

// ticketOf returns the ticket of key, if it is on the rail.
func (m *model) ticketOf(key string) (ticket, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.tickets[key]
	if t == nil {
		return ticket{}, false
	}
	return *t, true
}

// priorityOf returns the priority of the order key.
func (m *model) priorityOf(key string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	if o := m.orders[key]; o != nil {
		return o.Priority
	}
	return 0
}

// conflicts returns how many writes the front desk refused with 409.
func (m *model) conflicts() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.counts.Conflicts
}

// onTheRail reports whether every order of keys has had a ticket on the
// rail (or is gone: it never needs one).
func (m *model) onTheRail(keys []string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, k := range keys {
		if o := m.orders[k]; o != nil && !o.Gone && !slices.Contains(o.Stages, stageRail) {
			return false
		}
	}
	return true
}

// staleSkips returns how many tickets the chef skipped because the
// runner's caches lagged his own writes.
func (m *model) staleSkips() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.counts.StaleSkips
}

// reconciling reports whether a chef worker is reconciling the order key.
func (m *model) reconciling(key string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, w := range m.workers {
		if w.Key == key {
			return true
		}
	}
	return false
}
