package informer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/trace"
)

// ReflectorStore is where a [Reflector] writes what it learns: the
// methods of a [DeltaFIFO] or [RealFIFO], the store an informer gives it.
// It is owned here, by its consumer; a test can pass a recorder.
type ReflectorStore interface {
	// Add records an ADDED watch event.
	Add(obj meta.Object) error
	// Update records a MODIFIED watch event.
	Update(obj meta.Object) error
	// Delete records a DELETED watch event (obj is the last state).
	Delete(obj meta.Object) error
	// Replace records a complete list read at resourceVersion: whatever
	// the store knew and the list lacks was deleted meanwhile.
	Replace(objs []meta.Object, resourceVersion string) error
	// Resync asks for every known object to be delivered again.
	Resync() error
}

// ReflectorBookmarkStore is a [ReflectorStore] that wants to hear of
// watch bookmarks: the [Reflector] calls Bookmark with each bookmark's
// resourceVersion, after the events before it. An atomic [RealFIFO] is
// one; a [DeltaFIFO] is not. Like client-go's interface of the same name.
type ReflectorBookmarkStore interface {
	Bookmark(resourceVersion string) error
}

// ReflectorOptions tune a [Reflector]. The zero value lists and watches
// with the default backoff, never resyncs and logs errors with
// [log/slog].
type ReflectorOptions struct {
	// Name appears in log messages, e.g. the resource being reflected.
	Name string
	// ResyncPeriod, when positive, calls the store's Resync this often
	// while watching (if ShouldResync, when set, agrees).
	ResyncPeriod time.Duration
	// ShouldResync is asked at each resync period; nil means always.
	ShouldResync func() bool
	// WatchErrorHandler receives every list and watch error (410 Expired
	// included), and errors the store returns. Nil logs them.
	WatchErrorHandler func(err error)
	// UseWatchList streams the initial state on a watch (SendInitialEvents
	// with ResourceVersionMatchNotOlderThan) instead of listing it, until
	// the bookmark annotated [meta.InitialEventsEndAnnotation]; if the
	// server refuses, the reflector falls back to a list.
	UseWatchList bool
	// PageSize, when positive, lists in pages of this many objects.
	PageSize int64
	// Backoff is the retry schedule; nil means [DefaultBackoffManager].
	Backoff *BackoffManager
	// Tracer, when set, receives a record of every list (trace.Listed),
	// watch (trace.WatchStarted, trace.WatchEnded) and 410
	// (trace.Expired), named Name. Nil means none, at no cost.
	Tracer *trace.Tracer
}

// Reflector keeps a [ReflectorStore] in step with the server, like
// client-go's cache.Reflector: List, Replace the store with the result,
// then Watch from the list's resourceVersion and apply every event.
//
//   - Every event, bookmarks included, advances the last-seen
//     resourceVersion ([Reflector.LastSyncResourceVersion]).
//   - Except on a watch from "" or "0" (after a list that reported "0"):
//     its leading ADDED events are a snapshot in no resourceVersion order,
//     so, as in client-go, the resourceVersion advances only from the
//     first event of another type or a bookmark. A re-watch before then
//     starts from "0" again and gets the snapshot again.
//   - A watch that ends cleanly (the server closed it, or its timeout
//     passed) is re-opened from that resourceVersion, without a list.
//   - A watch that ends cleanly within a second of being requested
//     without a single event is treated as broken, as client-go does: a
//     [VeryShortWatchError] goes to the WatchErrorHandler, and the
//     reflector waits for the backoff and lists again.
//   - A 410 Expired (the server no longer has the history after that
//     resourceVersion), in the stream or as the Watch call's error, ends the
//     watch; the reflector lists again and Replace reconciles the store.
//   - A 429 on the watch waits for the backoff and re-watches; any other
//     error waits for the backoff and lists again.
//
// Like client-go, it also waits for the backoff after every list-and-watch
// cycle that ends, 410 included. Unlike client-go, it reports the errors
// that end a watch stream (410s, very short watches) to the
// WatchErrorHandler too, where client-go only logs them.
//
// Use [NewReflector]; the zero value is not usable.
type Reflector struct {
	lw      ListerWatcher
	store   ReflectorStore
	opts    ReflectorOptions
	backoff BackoffManager // used by Run's goroutine only

	mu          sync.Mutex // guards lastRV and unavailable
	lastRV      string
	unavailable bool // the last list or watch at lastRV got 410: list from "" next
}

// NewReflector returns a Reflector that reads from lw and writes to store.
func NewReflector(lw ListerWatcher, s ReflectorStore, opts ReflectorOptions) *Reflector {
	r := &Reflector{lw: lw, store: s, opts: opts, backoff: DefaultBackoffManager()}
	if opts.Backoff != nil {
		r.backoff = *opts.Backoff
	}
	return r
}

// LastSyncResourceVersion is the resourceVersion of the last list or
// event the reflector has written to its store; "" before the first list.
// Safe for concurrent use.
func (r *Reflector) LastSyncResourceVersion() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lastRV
}

func (r *Reflector) setLastSyncResourceVersion(rv string) {
	r.mu.Lock()
	r.lastRV = rv
	r.mu.Unlock()
}

// setUnavailable records whether the last resourceVersion turned out too
// old, so that the next list or watch-list asks for the latest state.
func (r *Reflector) setUnavailable(v bool) {
	r.mu.Lock()
	r.unavailable = v
	r.mu.Unlock()
}

// relistResourceVersion is where a list starts: as client-go, "0" the
// first time, the last-seen resourceVersion after that (data at least that
// fresh), and "" (the latest) once that resourceVersion was refused.
func (r *Reflector) relistResourceVersion() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.unavailable:
		return ""
	case r.lastRV == "":
		return "0"
	default:
		return r.lastRV
	}
}

// Run lists and watches until ctx is done, retrying with backoff. It
// returns once every goroutine it started has ended.
func (r *Reflector) Run(ctx context.Context) {
	r.backoff.Reset(time.Now())
	for {
		if err := r.listAndWatch(ctx); err != nil && ctx.Err() == nil {
			r.reportError(err)
		}
		if !r.wait(ctx) {
			return
		}
	}
}

// wait sleeps for the next backoff step; false if ctx ended first.
func (r *Reflector) wait(ctx context.Context) bool {
	t := time.NewTimer(r.backoff.Step(time.Now(), rand.Float64()))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return ctx.Err() == nil
	}
}

func (r *Reflector) reportError(err error) {
	if r.opts.WatchErrorHandler != nil {
		r.opts.WatchErrorHandler(err)
		return
	}
	level := slog.LevelWarn
	if meta.IsExpired(err) {
		level = slog.LevelDebug // expected after compaction; a relist follows
	}
	slog.Log(context.Background(), level, "informer: list/watch failed", "reflector", r.opts.Name, "err", err)
}

// listAndWatch fills the store (by list or watch-list) and then watches
// until an error that needs a relist, or ctx ends.
func (r *Reflector) listAndWatch(ctx context.Context) error {
	var w meta.WatchInterface
	if r.opts.UseWatchList {
		var err error
		w, err = r.watchList(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			r.reportError(fmt.Errorf("watch-list failed, falling back to list: %w", err))
			w = nil
		}
	}
	if w == nil {
		if err := r.list(ctx); err != nil {
			return err
		}
	}
	return r.watchWithResync(ctx, w)
}

// list reads every object (in pages if asked) and replaces the store.
func (r *Reflector) list(ctx context.Context) error {
	from, start := r.relistResourceVersion(), time.Now()
	items, rv, err := r.listAll(ctx, from)
	if meta.IsExpired(err) || isTooLargeResourceVersion(err) {
		// Our resourceVersion is too old for the server, or newer than a
		// server that lost its state has: ask for the latest.
		r.traceListed(from, "", 0, time.Since(start), err, "")
		r.setUnavailable(true)
		from, start = "", time.Now()
		items, rv, err = r.listAll(ctx, from)
	}
	r.traceListed(from, rv, len(items), time.Since(start), err, "")
	if err != nil {
		return fmt.Errorf("list: %w", err)
	}
	r.setUnavailable(false)
	if err := r.store.Replace(items, rv); err != nil {
		return fmt.Errorf("replace the store with the list: %w", err)
	}
	r.setLastSyncResourceVersion(rv)
	return nil
}

// listAll follows continue tokens; if a later page has expired, it reads
// everything in one call instead, as client-go's pager does.
func (r *Reflector) listAll(ctx context.Context, rv string) ([]meta.Object, string, error) {
	opts := meta.ListOptions{ResourceVersion: rv, Limit: r.opts.PageSize}
	list, err := r.lw.List(ctx, opts)
	if err != nil {
		return nil, "", err
	}
	items, listRV := list.Items, list.ResourceVersion
	for list.Continue != "" {
		list, err = r.lw.List(ctx, meta.ListOptions{Limit: r.opts.PageSize, Continue: list.Continue})
		if meta.IsExpired(err) {
			full, err := r.lw.List(ctx, meta.ListOptions{ResourceVersion: rv})
			if err != nil {
				return nil, "", err
			}
			return full.Items, full.ResourceVersion, nil
		}
		if err != nil {
			return nil, "", err
		}
		items = append(items, list.Items...)
	}
	return items, listRV, nil
}

// watchWithResync watches (starting with w if not nil) while a second
// goroutine asks the store to resync every ResyncPeriod.
func (r *Reflector) watchWithResync(ctx context.Context, w meta.WatchInterface) error {
	resyncErr := make(chan error, 1)
	resyncCtx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
	}()
	wg.Go(func() { r.resyncLoop(resyncCtx, resyncErr) })
	return r.watch(ctx, w, resyncErr)
}

func (r *Reflector) resyncLoop(ctx context.Context, errc chan<- error) {
	if r.opts.ResyncPeriod <= 0 {
		return
	}
	t := time.NewTimer(r.opts.ResyncPeriod)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if r.opts.ShouldResync == nil || r.opts.ShouldResync() {
			if err := r.store.Resync(); err != nil {
				errc <- fmt.Errorf("resync: %w", err)
				return
			}
		}
		t.Reset(r.opts.ResyncPeriod)
	}
}

// watch re-watches after clean closes and 429s; it returns on anything
// that needs a relist (nil when ctx ended).
func (r *Reflector) watch(ctx context.Context, w meta.WatchInterface, resyncErr <-chan error) error {
	for ctx.Err() == nil {
		// The clock starts before the request, as in client-go, for the
		// very-short-watch check. A watch-list's stream handed over in w
		// is past its initial ADDED events; a watch from "" or "0" starts
		// with synthetic ones, in no resourceVersion order.
		start := time.Now()
		pastAdded := true
		if w == nil {
			opts := r.watchOptions()
			pastAdded = opts.ResourceVersion != "" && opts.ResourceVersion != "0"
			var err error
			w, err = r.lw.Watch(ctx, opts)
			r.traceWatch(trace.WatchStarted, opts.ResourceVersion, err, "")
			if err != nil {
				if meta.IsTooManyRequests(err) && ctx.Err() == nil {
					r.reportError(fmt.Errorf("watch: %w", err))
					if !r.wait(ctx) {
						return nil
					}
					continue
				}
				return fmt.Errorf("watch: %w", err)
			}
		}
		err := r.handleWatch(ctx, w, watchStart{at: start, pastAdded: pastAdded}, resyncErr)
		w = nil
		if ctx.Err() != nil {
			return nil
		}
		r.traceWatch(trace.WatchEnded, r.LastSyncResourceVersion(), err, "")
		switch {
		case err == nil:
			// A clean close: re-watch from the last resourceVersion seen.
			// (A very short one is an error: it relists, below.)
		case meta.IsTooManyRequests(err):
			r.reportError(fmt.Errorf("watch: %w", err))
			if !r.wait(ctx) {
				return nil
			}
		default:
			return fmt.Errorf("watch: %w", err)
		}
	}
	return nil
}

func (r *Reflector) watchOptions() meta.ListOptions {
	timeout := int64(watchTimeout(rand.Float64()) / time.Second)
	return meta.ListOptions{
		ResourceVersion:     r.LastSyncResourceVersion(),
		AllowWatchBookmarks: true,
		TimeoutSeconds:      &timeout,
	}
}

// errWatchStopped is returned by handleWatch when ctx ended.
var errWatchStopped = errors.New("informer: watch stopped")

// veryShortWatch is how long a watch must last, if it delivers no event,
// for its clean close to be trusted (client-go uses the same second).
const veryShortWatch = time.Second

// VeryShortWatchError is what a [Reflector] reports when a watch closed
// cleanly within a second of being requested without delivering a single
// event: client-go's error of the same name ("very short watch" in its
// logs). Such a close more likely means a broken connection or server
// than a quiet one, so the Reflector lists again rather than re-watching.
type VeryShortWatchError struct {
	// Name is the reflector's [ReflectorOptions].Name.
	Name string
}

// Error says which watch closed too soon, as client-go words it.
func (e *VeryShortWatchError) Error() string {
	return fmt.Sprintf("very short watch: %s: the watch closed within %v of its start without an event", e.Name, veryShortWatch)
}

// watchStart says when a watch was requested and whether its events may
// advance the last-seen resourceVersion from the first one.
type watchStart struct {
	at time.Time
	// pastAdded is false for a watch from "" or "0": its leading ADDED
	// events are the current state, sent in no resourceVersion order, so
	// resuming from one of them could skip changes. As client-go's
	// propagateRVFromStart, the resourceVersion then advances only from
	// the first event that is not ADDED (a bookmark counts).
	pastAdded bool
}

// handleWatch applies w's events to the store until the watch ends (nil
// for a clean close, a [VeryShortWatchError] for a suspiciously quick
// one), and stops it.
func (r *Reflector) handleWatch(ctx context.Context, w meta.WatchInterface, from watchStart, resyncErr <-chan error) error {
	defer w.Stop()
	events := 0
	for {
		select {
		case <-ctx.Done():
			return errWatchStopped
		case err := <-resyncErr:
			return err
		case ev, ok := <-w.ResultChan():
			if !ok {
				if events == 0 && time.Since(from.at) < veryShortWatch {
					return &VeryShortWatchError{Name: r.opts.Name}
				}
				return nil
			}
			if _, err := r.apply(ev, r.store); err != nil {
				return err
			}
			events++
			from.pastAdded = from.pastAdded || ev.Type != meta.EventAdded
			if from.pastAdded {
				r.setLastSyncResourceVersion(ev.Object.GetObjectMeta().ResourceVersion)
			}
		}
	}
}

// apply writes one event to s. It reports whether the event was the
// initial-events-end bookmark. An ERROR event becomes the returned error;
// a store error is reported and the watch goes on, as in client-go. An
// event without an object is an error too: the stream cannot be trusted.
func (r *Reflector) apply(ev meta.Event, s ReflectorStore) (bool, error) {
	if ev.Type == meta.EventError {
		return false, meta.FromObject(ev.Object)
	}
	if ev.Object == nil || ev.Object.GetObjectMeta() == nil {
		return false, fmt.Errorf("watch event %s without an object", ev.Type)
	}
	om := ev.Object.GetObjectMeta()
	var err error
	switch ev.Type {
	case meta.EventAdded:
		err = s.Add(ev.Object)
	case meta.EventModified:
		err = s.Update(ev.Object)
	case meta.EventDeleted:
		err = s.Delete(ev.Object)
	case meta.EventBookmark:
		if b, ok := s.(ReflectorBookmarkStore); ok {
			err = b.Bookmark(om.ResourceVersion)
		}
	default:
		err = fmt.Errorf("unknown watch event type %q", ev.Type)
	}
	if err != nil {
		r.reportError(fmt.Errorf("%s %s/%s: %w", ev.Type, om.Namespace, om.Name, err))
	}
	end := ev.Type == meta.EventBookmark && om.Annotations[meta.InitialEventsEndAnnotation] == "true"
	return end, nil
}

// isTooLargeResourceVersion reports the 504 a server answers for a
// resourceVersion it has not reached (after a restore, or from another
// server); client-go then lists from "" as it does after a 410.
func isTooLargeResourceVersion(err error) bool {
	return meta.IsTimeout(err) && strings.Contains(err.Error(), "Too large resource version")
}
