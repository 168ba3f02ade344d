package rest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Watch starts a watch and returns it once the server has answered; see
// [apiserver.ResourceClient.Watch] for what the events mean. An error the
// server sends before the stream starts (a bad option, a 429 past the
// retries) is returned here; one it sends later (410 Expired) arrives as an
// ERROR event.
//
// The stream is newline-delimited JSON ({"type":...,"object":...}, one per
// line), read by one goroutine, which ends when the watch does: on Stop,
// when ctx is done, or when the server ends the response. A response that
// breaks off (the connection cut) closes the channel as a clean end does,
// as client-go's StreamWatcher does; the caller watches again from the
// last resourceVersion it saw. The client's Timeout does not apply: a
// watch is meant to run long.
func (r *ResourceClient) Watch(ctx context.Context, opts meta.ListOptions) (meta.WatchInterface, error) {
	info, err := r.kind()
	if err != nil {
		return nil, err
	}
	q := listQuery(opts)
	q.Set("watch", "true")
	req := request{method: http.MethodGet, path: path(info, r.ns, "", ""), query: q}
	ctx, cancel := context.WithCancel(ctx)
	resp, err := r.c.send(ctx, req)
	if err != nil {
		cancel()
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		defer cancel()
		defer resp.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return nil, decodeError(resp, b)
	}
	w := &watcher{ch: make(chan meta.Event), cancel: cancel, info: info}
	go w.run(ctx, resp.Body)
	return w, nil
}

// watcher is a running watch over HTTP.
type watcher struct {
	ch     chan meta.Event
	cancel context.CancelFunc
	info   meta.KindInfo
	once   sync.Once
}

// ResultChan delivers the events in the order the server sent them; it
// closes when the watch ends.
func (w *watcher) ResultChan() <-chan meta.Event { return w.ch }

// Stop ends the watch: the request is cancelled, and the reading
// goroutine closes the channel and exits. Safe to call more than once.
func (w *watcher) Stop() { w.once.Do(w.cancel) }

// wireEvent is one line of the stream, its object still to decode.
type wireEvent struct {
	Type   meta.EventType  `json:"type"`
	Object json.RawMessage `json:"object"`
}

// run reads events until the stream ends or ctx is done.
func (w *watcher) run(ctx context.Context, body io.ReadCloser) {
	defer close(w.ch)
	defer body.Close()
	defer w.cancel()
	dec := json.NewDecoder(body)
	for {
		var we wireEvent
		if err := dec.Decode(&we); err != nil {
			if ctx.Err() == nil && isDecodeError(err) {
				w.send(ctx, errorEvent(fmt.Errorf("unable to decode an event from the watch stream: %w", err)))
			}
			return // io.EOF: the server ended the watch; anything else: the connection broke
		}
		ev, err := w.decode(we)
		if err != nil {
			w.send(ctx, errorEvent(err))
			return
		}
		if !w.send(ctx, ev) || ev.Type == meta.EventError {
			return
		}
	}
}

// send delivers ev unless ctx ends first.
func (w *watcher) send(ctx context.Context, ev meta.Event) bool {
	select {
	case w.ch <- ev:
		return true
	case <-ctx.Done():
		return false
	}
}

// decode turns a wire event into an [meta.Event]: a *Status for
// ERROR, an object of the watched kind for everything else.
func (w *watcher) decode(we wireEvent) (meta.Event, error) {
	var obj meta.Object
	switch we.Type {
	case meta.EventAdded, meta.EventModified, meta.EventDeleted, meta.EventBookmark:
		obj = w.info.New()
	case meta.EventError:
		obj = &meta.Status{}
	default:
		return meta.Event{}, fmt.Errorf("the watch stream sent an event of unknown type %q", we.Type)
	}
	if err := json.Unmarshal(we.Object, obj); err != nil {
		return meta.Event{}, fmt.Errorf("unable to decode the object of a %s event: %w", we.Type, err)
	}
	return meta.Event{Type: we.Type, Object: obj}, nil
}

// isDecodeError tells a stream that is not JSON from one that ended.
func isDecodeError(err error) bool {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	return errors.As(err, &syn) || errors.As(err, &typ)
}

// errorEvent is the ERROR event the client makes up for a stream it
// cannot read, carrying a 500 InternalError Status as client-go's
// StreamWatcher does.
func errorEvent(err error) meta.Event {
	return meta.Event{Type: meta.EventError, Object: meta.NewInternalError(err).Status()}
}
