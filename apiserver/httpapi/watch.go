package httpapi

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
)

// watchEvent is one line of a watch stream, the wire form of Kubernetes'
// metav1.WatchEvent.
type watchEvent struct {
	Type   apiserver.EventType `json:"type"`
	Object any                 `json:"object"`
}

// watch streams the events of a watch as newline-delimited JSON, one
// {"type":...,"object":...} per line, flushed as each is written. It
// ends when the server ends the watch (after an ERROR event, on a
// timeout, on a clean close) or when the client goes away: the request's
// context ends the server's watch, and nothing outlives the request.
//
// Errors from starting the watch (bad options, or 504 "Too large
// resource version" in watch-list mode) are sent as a Status with their
// code, before any event; later errors, such as 410 for a compacted
// resourceVersion, travel as ERROR events.
func (h *Handler) watch(w http.ResponseWriter, r *http.Request, t target, opts apiserver.ListOptions, as representation) error {
	ctx := r.Context()
	if (opts.TimeoutSeconds == nil || *opts.TimeoutSeconds == 0) && h.watchTimeout > 0 {
		secs := max(int64((h.watchTimeout+rand.N(h.watchTimeout))/time.Second), 1)
		opts.TimeoutSeconds = &secs
	}
	wi, err := h.client(t).Watch(ctx, opts)
	if err != nil {
		return err
	}
	defer wi.Stop()
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	if err := rc.Flush(); err != nil {
		return nil // the client is gone, or cannot stream: nothing more to say
	}
	enc := json.NewEncoder(w)
	for {
		select {
		case ev, ok := <-wi.ResultChan():
			if !ok {
				return nil
			}
			if enc.Encode(h.eventBody(t, ev, as)) != nil || rc.Flush() != nil {
				return nil
			}
		case <-ctx.Done():
			return nil
		}
	}
}

// eventBody is what one event looks like on the wire: the object itself,
// or, when the client asked for tables, a one-row Table (no rows for a
// bookmark, which carries only a resourceVersion). ERROR events carry
// their Status either way.
func (h *Handler) eventBody(t target, ev apiserver.Event, as representation) watchEvent {
	if as != asTable || ev.Type == apiserver.EventError {
		return watchEvent{Type: ev.Type, Object: ev.Object}
	}
	meta := apiserver.ListMeta{ResourceVersion: ev.Object.GetObjectMeta().ResourceVersion}
	if ev.Type == apiserver.EventBookmark {
		return watchEvent{Type: ev.Type, Object: h.table(t.info, meta)}
	}
	return watchEvent{Type: ev.Type, Object: h.table(t.info, meta, ev.Object)}
}
