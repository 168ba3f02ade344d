package httpapi

import (
	"context"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// watchEvent is one line of a watch stream, the wire form of Kubernetes'
// metav1.WatchEvent.
type watchEvent struct {
	Type   meta.EventType `json:"type"`
	Object any            `json:"object"`
}

// watch starts a watch and its response, and returns the stream that
// sends its events (see [watchStream.run]), or nil if there is nothing
// more to send. Events go out as newline-delimited JSON, one
// {"type":...,"object":...} per line, flushed whenever no further event is
// waiting (or, for protobuf, as length-prefixed frames). Each event is
// encoded once for all the watchers that receive it in one form (see
// [encodedEvents]), and initial events once for all the watches
// that start together (see [initialSnapshots]). It
// ends when the server ends the watch (after an ERROR event, on a
// timeout, on a clean close) or when the client goes away: the request's
// context ends the server's watch, and nothing outlives the request.
//
// Errors from starting the watch (bad options) are sent as a Status with
// their code, before any event; the others, such as 410 for a compacted
// resourceVersion or 504 "Too large resource version" in watch-list
// mode, travel as ERROR events, as from the real server.
func (h *Handler) watch(w http.ResponseWriter, r *http.Request, t target, opts meta.ListOptions, as representation) (*watchStream, error) {
	ctx := r.Context()
	if opts.TimeoutSeconds == nil || *opts.TimeoutSeconds == 0 {
		secs := max(int64((DefaultWatchTimeout+rand.N(DefaultWatchTimeout))/time.Second), 1)
		opts.TimeoutSeconds = &secs
	}
	ws, err := h.startWatch(ctx, t, opts, as)
	if err != nil {
		return nil, err
	}
	s := &watchStream{h: h, w: w, wi: ws.wi, t: t, as: as}
	w.Header().Set("Content-Type", watchMediaType(as))
	w.WriteHeader(http.StatusOK)
	batch := ws.initial
	if ws.first != nil {
		line, err := h.eventLine(t, *ws.first, as)
		if err != nil {
			ws.wi.Stop()
			return nil, nil
		}
		batch = append(batch[:len(batch):len(batch)], line...) // a copy: the snapshot is shared
	}
	if !s.write(batch) {
		ws.wi.Stop()
		return nil, nil // the client is gone, or cannot stream: nothing more to say
	}
	return s, nil
}

// watchStream is a watch whose response has begun. The handler starts it
// deep in its routing, where the request is read, and runs it from
// ServeHTTP once those frames have returned, so that an idle watch
// blocks with only net/http's frames and run's below it: the collector
// then shrinks its goroutine's stack to net/http's own floor (8 KiB),
// where the routing frames (about 10 KiB of them) would keep it at
// 16 KiB. Nothing is held for the events until one arrives: the batch
// buffer is made by the first.
type watchStream struct {
	h  *Handler
	w  http.ResponseWriter
	wi meta.WatchInterface // started with the request's context
	t  target
	as representation
}

// run sends the watch's events until it ends, then stops it. It waits on
// the watch's channel alone: the server's watch ends, and closes it,
// when the request's context does (the client went away), so a second
// case for the context would only cost an idle watch more memory.
func (s *watchStream) run() {
	defer s.wi.Stop()
	var batch []byte
	for ev := range s.wi.ResultChan() {
		var ok bool
		if batch, ok = s.send(batch, ev); !ok {
			return
		}
	}
}

// send adds ev to batch and writes the batch unless more events wait
// (up to watchBatchBytes of them: one write, and a few system calls, for
// all), and returns it and whether the watch goes on. It is never
// inlined into run: its frame, with the encoders' inlined into it, is
// 1.5 KB, and run's is the one an idle watch holds (over HTTP/2 the
// collector can then shrink the goroutine's stack to 2 KiB, not 8).
//
//go:noinline
func (s *watchStream) send(batch []byte, ev meta.Event) ([]byte, bool) {
	line, err := s.h.eventLine(s.t, ev, s.as)
	if err != nil {
		return batch, false
	}
	batch = append(batch, line...)
	if len(s.wi.ResultChan()) > 0 && len(batch) < watchBatchBytes {
		return batch, true
	}
	return batch[:0], s.write(batch)
}

// write writes b and flushes it, and reports whether both worked.
func (s *watchStream) write(b []byte) bool {
	if _, err := s.w.Write(b); err != nil {
		return false
	}
	return http.NewResponseController(s.w).Flush() == nil
}

// watchBatchBytes is about how many bytes of events a watch writes at
// most at a time.
const watchBatchBytes = 64 << 10

// eventLine is the bytes of one event on the wire (not to be changed: it
// may be shared); an error (the event cannot be encoded) ends the watch.
func (h *Handler) eventLine(t target, ev meta.Event, as representation) ([]byte, error) {
	if t.served != nil {
		return h.servedEventLine(t, ev, as)
	}
	switch {
	case as == asObject, as == asProtobuf, isPartialForm(as):
		return h.encoded.line(h.srv, t.info, ev, as)
	default:
		return encodeLine(h.eventBody(t, t.info, ev, as))
	}
}

// eventBody is what one event looks like on the wire: the object itself,
// or, when the client asked for tables, a one-row Table of the kind info
// (no rows for a
// bookmark, which carries only a resourceVersion). ERROR events carry
// their Status either way.
func (h *Handler) eventBody(t target, info meta.KindInfo, ev meta.Event, as representation) watchEvent {
	if as != asTable || ev.Type == meta.EventError {
		return watchEvent{Type: ev.Type, Object: ev.Object}
	}
	om := meta.ListMeta{ResourceVersion: ev.Object.GetObjectMeta().ResourceVersion}
	if ev.Type == meta.EventBookmark {
		return watchEvent{Type: ev.Type, Object: h.table(info, om, t.rowObject)}
	}
	return watchEvent{Type: ev.Type, Object: h.table(info, om, t.rowObject, ev.Object)}
}

// watchStart is a watch that the server started: the initial events to
// send first (shared, not to be changed), then the event first, if any,
// then the events of wi.
type watchStart struct {
	wi      meta.WatchInterface
	initial []byte
	first   *meta.Event
}

// startWatch starts the server's watch for a request, with its initial
// events from a shared snapshot when it can (see [initialSnapshots]): the
// watch then starts at the snapshot's resourceVersion. Should that be
// gone from the history already (the watch's first event an ERROR), it
// starts as asked instead.
func (h *Handler) startWatch(ctx context.Context, t target, opts meta.ListOptions, as representation) (watchStart, error) {
	c := h.client(t)
	if !sharedInitialEvents(opts, as) || t.served != nil {
		wi, err := c.Watch(ctx, opts)
		return watchStart{wi: wi}, err
	}
	snap := h.initial.get(ctx, t, c, h.srv.ResourceVersion(), opts)
	if snap == nil || snap.err != nil {
		wi, err := c.Watch(ctx, opts) // gives the error, if it was not ctx's
		return watchStart{wi: wi}, err
	}
	from := opts
	from.ResourceVersion = snap.rv
	wi, err := c.Watch(ctx, from)
	if err != nil {
		return watchStart{}, err
	}
	select {
	case ev, ok := <-wi.ResultChan():
		if !ok || ev.Type == meta.EventError {
			wi.Stop()
			wi, err := c.Watch(ctx, opts)
			return watchStart{wi: wi}, err
		}
		return watchStart{wi: wi, initial: snap.lines, first: &ev}, nil
	default:
		return watchStart{wi: wi, initial: snap.lines}, nil
	}
}
