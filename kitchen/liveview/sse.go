package liveview

import (
	"fmt"
	"net/http"
	"slices"
	"sync"
)

// hub hands each frame to every page listening. A page that cannot keep
// up is not waited for, and it loses nothing silently: its mailbox keeps
// the newest state and the events not sent to it yet, so the next frame
// it gets is complete. Only a page that lags by more than
// maxEventsPerFrame events misses the oldest of them, and the frame
// counts them as coalesced.
type hub struct {
	mu      sync.Mutex // guards clients and closed
	clients map[*mailbox]struct{}
	closed  bool
}

// mailbox is what one page has not been sent yet.
type mailbox struct {
	// ready holds a token when there is a frame to send; it is closed
	// when the hub closes or the page leaves.
	ready chan struct{}

	mu        sync.Mutex // guards the fields below
	state     *frame     // the newest state, nil once sent
	events    []event    // the events since the last frame sent
	coalesced int        // events this page missed because it lagged
}

func newHub() *hub { return &hub{clients: map[*mailbox]struct{}{}} }

// join returns a page's mailbox, or nil once the hub is closed.
func (h *hub) join() *mailbox {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil
	}
	mb := &mailbox{ready: make(chan struct{}, 1)}
	h.clients[mb] = struct{}{}
	return mb
}

func (h *hub) leave(mb *mailbox) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.clients[mb]; ok {
		delete(h.clients, mb)
		close(mb.ready)
	}
}

func (h *hub) listening() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.clients) > 0
}

// broadcast puts f in every page's mailbox, never waiting for a page.
func (h *hub) broadcast(f frame) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for mb := range h.clients {
		mb.put(f)
		select {
		case mb.ready <- struct{}{}:
		default: // the page has not taken the last token: it will find f
		}
	}
}

// close ends every stream.
func (h *hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for mb := range h.clients {
		delete(h.clients, mb)
		close(mb.ready)
	}
}

// put replaces the state waiting in the mailbox by f's, and adds f's
// events to those waiting, keeping the newest maxEventsPerFrame.
func (mb *mailbox) put(f frame) {
	mb.mu.Lock()
	defer mb.mu.Unlock()
	mb.events = append(mb.events, f.Events...)
	if n := len(mb.events) - maxEventsPerFrame; n > 0 {
		mb.coalesced += n
		mb.events = slices.Delete(mb.events, 0, n)
	}
	f.Events = nil
	mb.state = &f
}

// take returns the frame to send: the newest state with every event
// waiting; ok is false when nothing is new.
func (mb *mailbox) take() (f frame, ok bool) {
	mb.mu.Lock()
	defer mb.mu.Unlock()
	if mb.state == nil {
		return frame{}, false
	}
	f = *mb.state
	f.Events, f.Coalesced = mb.events, f.Coalesced+mb.coalesced
	mb.state, mb.events = nil, nil
	return f, true
}

// serveEvents streams frames as Server-Sent Events ("event: frame"),
// starting with the current state, until the page goes away or the view
// stops.
func (v *View) serveEvents(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	mb := v.hub.join()
	if mb == nil {
		http.Error(w, "the live view has stopped", http.StatusServiceUnavailable)
		return
	}
	defer v.hub.leave(mb)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	send := func(f frame) bool {
		_, err := fmt.Fprintf(w, "event: frame\ndata: %s\n\n", encode(f))
		flusher.Flush()
		return err == nil
	}
	if !send(v.frame(false)) {
		return
	}
	for {
		select {
		case <-r.Context().Done():
			return
		case _, ok := <-mb.ready:
			if !ok {
				return
			}
			if f, ok := mb.take(); ok && !send(f) {
				return
			}
		}
	}
}

// serveState answers the current state once, as JSON, for scripts and
// tests that do not want a stream.
func (v *View) serveState(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(encode(v.frame(false)))
}
