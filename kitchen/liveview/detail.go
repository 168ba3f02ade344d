package liveview

import (
	"encoding/json"
	"net/http"
	"slices"
	"time"
)

// detail is what the page shows of the order it follows.
type detail struct {
	Order   orderView `json:"order"`
	YAML    string    `json:"yaml"`
	History []event   `json:"history"`
	// Left is how many events were left out of the middle of a very long
	// history (the first and the newest are kept).
	Left int `json:"left"`
}

// serveOrder answers one order's state, YAML (as the runner's cache last
// had it) and history: GET /orders/{name}?namespace=ns, the restaurant's
// namespace by default.
func (v *View) serveOrder(w http.ResponseWriter, r *http.Request) {
	ns := r.FormValue("namespace")
	if ns == "" {
		ns = v.r.Namespace
	}
	d, ok := v.m.detail(joinKey(ns, r.PathValue("name")))
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": "no order " + joinKey(ns, r.PathValue("name"))})
		return
	}
	_ = json.NewEncoder(w).Encode(d)
}

func (m *model) detail(key string) (detail, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	o := m.orders[key]
	if o == nil {
		return detail{}, false
	}
	d := detail{Order: *o, History: slices.Clone(o.history), Left: o.left}
	d.Order.Stages = slices.Clone(o.Stages)
	if o.obj != nil {
		d.YAML = toYAML(o.obj)
	}
	return d, true
}

// placing files an order the waiter is about to place from the page.
func (m *model) placing(key, what string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.placed++
	o := m.order(key)
	o.seen = time.Now()
	m.emit(event{Stage: stageWaiter, Order: key, Key: key, Text: what})
}

// refused files an order the API server did not take; with an empty
// reason it is forgotten (its name was taken).
func (m *model) refused(key, reason string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.placed--
	if reason == "" {
		delete(m.orders, key)
		return
	}
	o := m.order(key)
	o.Phase, o.Gone = "Refused", true
	m.emit(event{Stage: stageAPIServer, Order: key, Key: key, Class: "error", Text: "refused: " + reason})
}

// newestOpen returns the name of the newest order in ns still being
// worked on, or "".
func (m *model) newestOpen(ns string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var best *orderView
	for _, o := range m.orders {
		if n, _ := splitKey(o.Key); n != ns || o.finished() || o.Deleting {
			continue
		}
		if best == nil || o.seen.After(best.seen) {
			best = o
		}
	}
	if best == nil {
		return ""
	}
	return best.Name
}

// note files a lasting note that no trace tells: what a button or a
// scene did.
func (m *model) note(stage, text, class string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.noteLocked(event{Stage: stage, Text: text, Class: class})
}
