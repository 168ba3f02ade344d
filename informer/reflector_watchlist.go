package informer

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/store"
	"github.com/kitchensync/kitchensync/trace"
)

// watchList fills the store from a watch-list stream (KEP-3157): one watch
// with SendInitialEvents that first sends the current state as ADDED
// events, then a BOOKMARK annotated [meta.InitialEventsEndAnnotation]
// at the resourceVersion that state was read at. The streamed objects are
// collected aside and handed to the store's Replace in one go, as a list
// would be; the watch stays open and is returned for the usual watch loop.
// It returns (nil, nil) when ctx ends, and an error only for failures
// worth a fallback to listing.
func (r *Reflector) watchList(ctx context.Context) (meta.WatchInterface, error) {
	for ctx.Err() == nil {
		start, opts := time.Now(), r.watchListOptions()
		w, err := r.lw.Watch(ctx, opts)
		r.traceWatch(trace.WatchStarted, opts.ResourceVersion, err, "watch-list")
		var items []meta.Object
		var rv string
		if err == nil {
			items, rv, err = r.collectInitialEvents(ctx, w, start)
			if ctx.Err() == nil && (err != nil || rv != "") {
				r.traceListed(opts.ResourceVersion, rv, len(items), time.Since(start), err, "watch-list")
			}
		}
		switch {
		case ctx.Err() != nil:
			return nil, nil
		case err == nil && rv == "":
			continue // closed before the end bookmark: start again
		case err == nil:
			r.setUnavailable(false)
			if err := r.store.Replace(items, rv); err != nil {
				w.Stop()
				return nil, fmt.Errorf("replace the store with the watch-list: %w", err)
			}
			r.setLastSyncResourceVersion(rv)
			return w, nil
		case meta.IsTooManyRequests(err):
			r.reportError(fmt.Errorf("watch-list: %w", err))
			if !r.wait(ctx) {
				return nil, nil
			}
		case meta.IsExpired(err):
			r.setUnavailable(true) // stream the latest state instead
		default:
			return nil, err
		}
	}
	return nil, nil
}

func (r *Reflector) watchListOptions() meta.ListOptions {
	opts := r.watchOptions()
	yes := true
	opts.SendInitialEvents = &yes
	opts.ResourceVersionMatch = meta.ResourceVersionMatchNotOlderThan
	r.mu.Lock()
	if r.unavailable {
		opts.ResourceVersion = ""
	}
	r.mu.Unlock()
	return opts
}

// collectInitialEvents reads w up to the initial-events-end bookmark and
// returns the state it streamed and the bookmark's resourceVersion; rv is
// "" if the watch closed cleanly first. A stream that closed within a
// second of start without an event is a [VeryShortWatchError] (which,
// as in client-go, makes the reflector fall back to a list). On any
// return but success w is stopped.
func (r *Reflector) collectInitialEvents(ctx context.Context, w meta.WatchInterface, start time.Time) ([]meta.Object, string, error) {
	c := &collector{objs: map[string]meta.Object{}}
	for events := 0; ; events++ {
		end, err := r.readInitialEvent(ctx, w, c)
		switch {
		case err == errWatchClosed && events == 0 && time.Since(start) < veryShortWatch:
			w.Stop()
			return nil, "", &VeryShortWatchError{Name: r.opts.Name}
		case err == errWatchClosed:
			w.Stop()
			return nil, "", nil
		case err != nil:
			w.Stop()
			return nil, "", err
		case end != "":
			return c.sorted(), end, nil
		}
	}
}

// errWatchClosed is how readInitialEvent reports a clean close.
var errWatchClosed = errors.New("informer: watch closed")

// readInitialEvent reads one event of w into c; it returns the
// resourceVersion of the initial-events-end bookmark if that was it, and
// errWatchClosed when w closed.
func (r *Reflector) readInitialEvent(ctx context.Context, w meta.WatchInterface, c *collector) (string, error) {
	select {
	case <-ctx.Done():
		return "", errWatchStopped
	case ev, ok := <-w.ResultChan():
		if !ok {
			return "", errWatchClosed
		}
		end, err := r.apply(ev, c)
		if err != nil || !end {
			return "", err
		}
		return ev.Object.GetObjectMeta().ResourceVersion, nil
	}
}

// collector is the temporary store of a watch-list: the streamed state by
// key (client-go uses a temporary cache.Store the same way), and the keys
// in the order they first arrived.
type collector struct {
	objs  map[string]meta.Object
	order []string
}

func (c *collector) Add(obj meta.Object) error           { return c.Update(obj) }
func (c *collector) Resync() error                       { return nil }
func (c *collector) Replace([]meta.Object, string) error { return nil }

func (c *collector) Update(obj meta.Object) error {
	key, err := store.MetaNamespaceKeyFunc(obj)
	if err == nil {
		if _, seen := c.objs[key]; !seen {
			c.order = append(c.order, key)
		}
		c.objs[key] = obj
	}
	return err
}

func (c *collector) Delete(obj meta.Object) error {
	key, err := store.MetaNamespaceKeyFunc(obj)
	if err == nil {
		delete(c.objs, key)
	}
	return err
}

// sorted returns the collected objects sorted by key. The server streams
// the initial state in key order, so the arrival order usually is that
// order already, and then nothing is sorted; otherwise (a key deleted and
// added again, or a server that streams in another order) the keys are.
func (c *collector) sorted() []meta.Object {
	keys := c.order
	if !strictlyIncreasing(keys) {
		keys = make([]string, 0, len(c.objs))
		for k := range c.objs {
			keys = append(keys, k)
		}
		sort.Strings(keys)
	}
	out := make([]meta.Object, 0, len(c.objs))
	for _, k := range keys {
		if obj, ok := c.objs[k]; ok { // deleted keys are in order, not in objs
			out = append(out, obj)
		}
	}
	return out
}

// strictlyIncreasing reports whether keys are sorted and each appears once.
func strictlyIncreasing(keys []string) bool {
	for i := 1; i < len(keys); i++ {
		if keys[i-1] >= keys[i] {
			return false
		}
	}
	return true
}
