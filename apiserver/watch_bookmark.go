package apiserver

import (
	"context"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// preTimeoutBookmark is how long before a watch's deadline it gets its
// last bookmark, as the Kubernetes watch cache schedules it, so that a
// client re-watching after the timeout resumes from a recent
// resourceVersion rather than an old one that may have expired.
const preTimeoutBookmark = 2 * time.Second

// watchContextLocked ends the watch when ctx is done or the timeout
// passes, and schedules its bookmarks if it asked for them. The watch's
// deadline is the earlier of ctx's deadline and the timeout, as the real
// server takes it from the request's context. s.mu must be held.
func (w *watcher) watchContextLocked(ctx context.Context, timeout time.Duration) {
	w.stopCtx = context.AfterFunc(ctx, w.Stop)
	now := time.Now()
	w.deadline, _ = ctx.Deadline()
	if timeout > 0 {
		w.timeout = time.AfterFunc(timeout, w.Stop)
		if d := now.Add(timeout); w.deadline.IsZero() || d.Before(w.deadline) {
			w.deadline = d
		}
	}
	if w.bookmarks {
		w.scheduleBookmarkLocked(now)
	}
}

// nextBookmarkTime says when a watch with the given deadline (zero: none)
// gets its next bookmark, as the Kubernetes watch cache decides it: an
// interval from now, or [preTimeoutBookmark] before the deadline if that
// comes first; none (ok false) once that moment has passed.
func nextBookmarkTime(now, deadline time.Time, interval time.Duration) (at time.Time, ok bool) {
	at = now.Add(interval)
	if deadline.IsZero() {
		return at, true
	}
	if pre := deadline.Add(-preTimeoutBookmark); pre.Before(at) {
		at = pre
	}
	return at, !at.Before(now)
}

// scheduleBookmarkLocked sets the bookmark timer for the next bookmark
// after now, if there is one. s.mu must be held.
func (w *watcher) scheduleBookmarkLocked(now time.Time) {
	at, ok := nextBookmarkTime(now, w.deadline, w.cache.bookmarkInterval)
	if !ok {
		return
	}
	if w.bookmark == nil {
		w.bookmark = time.AfterFunc(at.Sub(now), w.sendBookmark)
		return
	}
	w.bookmark.Reset(at.Sub(now))
}

// sendBookmark sends a live watcher a BOOKMARK with the current
// resourceVersion, if there is room, and schedules the next one. Like the
// Kubernetes watch cache, it sends one only if the server has moved past
// the resourceVersion the watch started at (after its backlog), but then
// whether or not the watcher has already had an event at that
// resourceVersion. (The watch cache of a resource learns of other
// resources' writes only from etcd's occasional progress notifications;
// here every write counts at once.) A watcher that is catching up or
// full skips this one: it will hear newer events soon anyway. After the
// pre-timeout bookmark there is no other.
func (w *watcher) sendBookmark() {
	s := w.cache
	s.fanMu.Lock()
	defer s.fanMu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if w.ended {
		return
	}
	w.feedFromHistoryLocked() // every event before the bookmark first
	if w.ended {
		return
	}
	if last := s.hist.shown; w.live && last > w.startRV {
		select {
		case w.out <- meta.Event{Type: meta.EventBookmark, Object: w.bookmarkObject(last, false)}:
			w.toldRV = last
		default:
		}
	}
	now := time.Now()
	if !w.deadline.IsZero() && !now.Before(w.deadline.Add(-preTimeoutBookmark)) {
		return // that was the last one
	}
	w.scheduleBookmarkLocked(now)
}
