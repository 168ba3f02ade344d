package apiserver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Watch streams the changes to the objects selected by opts, in
// resourceVersion order, until the watch is stopped, ctx is done,
// TimeoutSeconds pass, or the server ends it. Where it starts:
//
//   - ResourceVersion "" or "0": synthetic ADDED events for the current
//     state (sorted by namespace and name), then every later change.
//   - ResourceVersion N: every change after N, replayed from the history,
//     then live. If N is older than the history window, the watch
//     delivers a single ERROR event carrying 410 Expired ("too old
//     resource version: N (M)") and closes: list again. An N the server
//     has not reached yet waits for it: only changes after N are sent.
//   - SendInitialEvents with ResourceVersionMatchNotOlderThan (watch-list
//     mode): ADDED events for the current state, then a BOOKMARK at the
//     snapshot's resourceVersion annotated [meta.InitialEventsEndAnnotation],
//     then every later change. As from Kubernetes, that bookmark comes
//     only when AllowWatchBookmarks is set (every watch-list client sets
//     it); without, nothing marks the end of the initial events.
//     SendInitialEvents=false starts at N (or now).
//
// Selectors apply to changes, as in the Kubernetes watch cache: an object
// that starts matching arrives as ADDED, one that stops matching as
// DELETED (its previous content, with the new resourceVersion).
//
// With AllowWatchBookmarks, a BOOKMARK carries the latest
// resourceVersion (an empty object of the kind with only
// metadata.resourceVersion set) every [Options.BookmarkInterval], and
// once more 2 seconds before the watch's deadline (the earlier of
// TimeoutSeconds and ctx's deadline), as the Kubernetes watch cache
// schedules them, so that a client re-watching after the timeout starts
// from a recent resourceVersion. As there, a bookmark is sent only once
// the server has moved past the point where the watch started (and its
// backlog ended), but then every time, even with nothing new since the
// last event.
//
// A watcher that falls [Options.WatchBufferSize] resourceVersions behind,
// or whose next event has left the history, is cut off with a plain close
// (after the events already in its channel), as is every watch by
// [Server.CloseWatches]: re-watch from the last resourceVersion received.
// Each event's object is shared by every watcher and read-only (see
// "Shared objects" in the package doc).
//
// Watch-list mode from an N the server has not reached waits for N, as a
// list does: if the server gets there within 3 seconds, the watch starts
// as usual; otherwise it delivers a single ERROR event carrying 504
// "Too large resource version" and closes, as the real server answers.
//
// Errors (returned by Watch itself): 400 for malformed selectors or
// resourceVersion, 422 for contradictory options (as Kubernetes
// validates them).
func (c *ResourceClient) Watch(ctx context.Context, opts meta.ListOptions) (meta.WatchInterface, error) {
	info, err := c.begin(ctx, VerbWatch)
	if err != nil {
		return nil, err
	}
	if err := validateWatchOptions(opts); err != nil {
		return nil, err
	}
	sel, err := parseSelectors(info, opts)
	if err != nil {
		return nil, err
	}
	var from int64 // 0 means "from now"
	if rv := opts.ResourceVersion; rv != "" && rv != "0" {
		n, ok := parseRV(rv)
		if !ok {
			return nil, errBadRV(rv)
		}
		from = n
	}
	if opts.SendInitialEvents != nil && *opts.SendInitialEvents {
		var tooLarge *meta.StatusError
		if err := c.srv.waitForRV(ctx, from); errors.As(err, &tooLarge) {
			return newErrorWatch(tooLarge), nil
		} else if err != nil {
			return nil, err
		}
	}
	w := &watcher{
		cache: &c.srv.watchCache, gr: info.GroupResource(), info: info, ns: c.ns, sel: sel, all: sel.empty(),
		out:       make(chan meta.Event, min(c.srv.opts.WatchBufferSize, watchOutBuffer)),
		bookmarks: opts.AllowWatchBookmarks,
	}
	return c.srv.startWatch(ctx, w, opts, from)
}

// watchTimeout turns ListOptions.TimeoutSeconds into a duration: 0 (or
// nil) for never; a negative one (-1) ends the watch at once, as the real
// server's negative timer does; a value past what a time.Duration holds
// is capped instead of wrapping around.
func watchTimeout(secs *int64) time.Duration {
	const maxSecs = int64(math.MaxInt64 / time.Second)
	switch {
	case secs == nil || *secs == 0:
		return 0
	case *secs < 0:
		return -1
	}
	return time.Duration(min(*secs, maxSecs)) * time.Second
}

// startWatch registers w and starts its goroutine with the initial events
// or the backlog that its options ask for, decided under the same lock
// that writers hold, so that nothing falls between them and the live
// events.
func (s *Server) startWatch(ctx context.Context, w *watcher, opts meta.ListOptions, from int64) (meta.WatchInterface, error) {
	initialEvents := opts.SendInitialEvents != nil && *opts.SendInitialEvents
	legacyInitial := opts.SendInitialEvents == nil && from == 0
	s.mu.Lock()
	defer s.mu.Unlock()
	last := s.hist.last
	var initial []*entry
	switch {
	case initialEvents || legacyInitial:
		initial = s.currentLocked(w.gr, w.ns)
		w.sentRV = last
	case from == 0:
		w.sentRV, w.live = last, true
	case from < s.hist.compacted:
		return newErrorWatch(errTooOld(from, s.hist.compacted)), nil
	case from >= s.hist.fannedOut:
		w.sentRV, w.live = from, true // the fan-out has the rest
	default:
		w.sentRV = from // the history has the backlog
	}
	timeout := watchTimeout(opts.TimeoutSeconds)
	if timeout < 0 {
		w.ended = true // timed out before it began
		close(w.out)
		return w, nil
	}
	ws := s.watchers[w.gr]
	if ws == nil {
		ws = make(map[*watcher]struct{})
		s.watchers[w.gr] = ws
	}
	ws[w] = struct{}{}
	s.addWatcherLocked(w)
	w.startRV = max(w.sentRV, last)
	if !w.live {
		s.startCatchUp(w, initial, initialEvents && w.bookmarks)
	}
	w.watchContextLocked(ctx, timeout)
	return w, nil
}

// startCatchUp starts the goroutine of w, which is not live (see
// [watcher.catchUp]). Its initial events or end bookmark, if any, tell of
// the watch's start: they wait until that is on the disk. s.mu must be
// held.
func (s *Server) startCatchUp(w *watcher, initial []*entry, endBookmark bool) {
	startRV, done := w.sentRV, make(chan struct{})
	w.done = done
	go func() {
		if (initial != nil || endBookmark) && s.awaitDurable(startRV) != nil {
			w.Stop() // the initial events tell of startRV: never before it is on the disk
			initial, endBookmark = nil, false
		}
		w.catchUp(initial, endBookmark, startRV, done)
	}()
}

// validateWatchOptions rejects the combinations Kubernetes rejects for a
// watch, with its messages.
func validateWatchOptions(opts meta.ListOptions) error {
	var errs meta.FieldErrors
	match := opts.ResourceVersionMatch
	if opts.SendInitialEvents != nil && match != meta.ResourceVersionMatchNotOlderThan {
		errs.Forbidden("resourceVersionMatch", fmt.Sprintf(
			"sendInitialEvents requires setting resourceVersionMatch to %s", meta.ResourceVersionMatchNotOlderThan))
	}
	if match != "" {
		if opts.SendInitialEvents == nil {
			errs.Forbidden("resourceVersionMatch", "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided")
		}
		if match != meta.ResourceVersionMatchNotOlderThan {
			errs.NotSupported("resourceVersionMatch", string(match), []string{string(meta.ResourceVersionMatchNotOlderThan)})
		}
	}
	if opts.Continue != "" {
		errs.Forbidden("continue", "continue is forbidden for watch")
	}
	return errInvalidOptions(errs)
}
