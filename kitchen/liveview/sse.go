package liveview

import (
	"fmt"
	"net/http"
	"sync"
)

// hub hands each frame to every page listening. A page that cannot keep
// up misses frames rather than slowing the others: each frame carries the
// whole state, so the next one it gets is complete.
type hub struct {
	mu      sync.Mutex // guards clients and closed
	clients map[chan []byte]struct{}
	closed  bool
}

func newHub() *hub { return &hub{clients: map[chan []byte]struct{}{}} }

// join returns a channel of frames, or nil once the hub is closed; the
// channel is closed when the hub closes or the caller leaves.
func (h *hub) join() chan []byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil
	}
	c := make(chan []byte, 4)
	h.clients[c] = struct{}{}
	return c
}

func (h *hub) leave(c chan []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.clients[c]; ok {
		delete(h.clients, c)
		close(c)
	}
}

func (h *hub) listening() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.clients) > 0
}

func (h *hub) broadcast(b []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.clients {
		select {
		case c <- b:
		default: // a slow page: it gets the next frame
		}
	}
}

// close ends every stream.
func (h *hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for c := range h.clients {
		delete(h.clients, c)
		close(c)
	}
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
	frames := v.hub.join()
	if frames == nil {
		http.Error(w, "the live view has stopped", http.StatusServiceUnavailable)
		return
	}
	defer v.hub.leave(frames)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	send := func(b []byte) bool {
		_, err := fmt.Fprintf(w, "event: frame\ndata: %s\n\n", b)
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
		case b, ok := <-frames:
			if !ok || !send(b) {
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
	_, _ = w.Write(v.frame(false))
}
