package informer

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// fakeWatch is a watch whose events a test scripts: the events given are
// buffered; closed ends the stream after them (a clean close), at once or,
// with closeAfter, that long after first use. Its channel is made on
// first use, so that a fake built outside a synctest bubble still blocks
// durably inside it.
type fakeWatch struct {
	events     []meta.Event
	closed     bool
	closeAfter time.Duration
	once       sync.Once
	ch         chan meta.Event
	stopped    sync.Once
}

func newFakeWatch(closed bool, events ...meta.Event) *fakeWatch {
	return &fakeWatch{events: events, closed: closed}
}

// closingWatch is a watch that delivers events and closes cleanly d after
// it was opened.
func closingWatch(d time.Duration, events ...meta.Event) *fakeWatch {
	return &fakeWatch{events: events, closed: true, closeAfter: d}
}

func (w *fakeWatch) ResultChan() <-chan meta.Event {
	w.once.Do(func() {
		w.ch = make(chan meta.Event, len(w.events))
		for _, ev := range w.events {
			w.ch <- ev
		}
		switch {
		case w.closed && w.closeAfter > 0:
			time.AfterFunc(w.closeAfter, func() { close(w.ch) })
		case w.closed:
			close(w.ch)
		}
	})
	return w.ch
}

func (w *fakeWatch) Stop() { w.stopped.Do(func() {}) }

// scriptedLW answers List and Watch calls from queues, in order, and logs
// each call. Once a queue is empty, calls block until their context ends.
type scriptedLW struct {
	mu      sync.Mutex
	calls   []string
	lists   []any // *meta.List or error
	watches []any // *fakeWatch or error
}

func (lw *scriptedLW) next(ctx context.Context, q *[]any, call string) (any, error) {
	lw.mu.Lock()
	lw.calls = append(lw.calls, call)
	if len(*q) == 0 {
		lw.mu.Unlock()
		<-ctx.Done()
		return nil, ctx.Err()
	}
	r := (*q)[0]
	*q = (*q)[1:]
	lw.mu.Unlock()
	if err, ok := r.(error); ok {
		return nil, err
	}
	return r, nil
}

func (lw *scriptedLW) List(ctx context.Context, opts meta.ListOptions) (*meta.List, error) {
	call := fmt.Sprintf("list rv=%q", opts.ResourceVersion)
	if opts.Limit > 0 || opts.Continue != "" {
		call += fmt.Sprintf(" limit=%d continue=%q", opts.Limit, opts.Continue)
	}
	r, err := lw.next(ctx, &lw.lists, call)
	if err != nil {
		return nil, err
	}
	return r.(*meta.List), nil
}

func (lw *scriptedLW) Watch(ctx context.Context, opts meta.ListOptions) (meta.WatchInterface, error) {
	call := fmt.Sprintf("watch rv=%q", opts.ResourceVersion)
	if opts.SendInitialEvents != nil {
		call += fmt.Sprintf(" sendInitialEvents match=%s", opts.ResourceVersionMatch)
	}
	if !opts.AllowWatchBookmarks || opts.TimeoutSeconds == nil {
		call += " (no bookmarks or timeout!)"
	}
	r, err := lw.next(ctx, &lw.watches, call)
	if err != nil {
		return nil, err
	}
	return r.(*fakeWatch), nil
}

func (lw *scriptedLW) log() []string {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return append([]string(nil), lw.calls...)
}

// recordingStore logs what a Reflector writes.
type recordingStore struct {
	mu  sync.Mutex
	ops []string
}

func (s *recordingStore) record(op string, obj meta.Object) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := obj.GetObjectMeta()
	s.ops = append(s.ops, fmt.Sprintf("%s %s@%s", op, m.Name, m.ResourceVersion))
	return nil
}
func (s *recordingStore) Add(obj meta.Object) error    { return s.record("add", obj) }
func (s *recordingStore) Update(obj meta.Object) error { return s.record("update", obj) }
func (s *recordingStore) Delete(obj meta.Object) error { return s.record("delete", obj) }
func (s *recordingStore) Resync() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ops = append(s.ops, "resync")
	return nil
}
func (s *recordingStore) Replace(objs []meta.Object, rv string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var names []string
	for _, o := range objs {
		names = append(names, o.GetObjectMeta().Name)
	}
	s.ops = append(s.ops, fmt.Sprintf("replace [%s]@%s", strings.Join(names, " "), rv))
	return nil
}
func (s *recordingStore) log() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.ops...)
}

func newWidgetAt(name, rv string) *apiservertest.Widget {
	w := apiservertest.NewWidget("ns", name)
	w.ResourceVersion = rv
	return w
}

func list(rv string, names ...string) *meta.List {
	l := &meta.List{ListMeta: meta.ListMeta{ResourceVersion: rv}}
	for _, n := range names {
		l.Items = append(l.Items, newWidgetAt(n, rv))
	}
	return l
}

func event(typ meta.EventType, name, rv string) meta.Event {
	return meta.Event{Type: typ, Object: newWidgetAt(name, rv)}
}

func errorEvent(err *meta.StatusError) meta.Event {
	return meta.Event{Type: meta.EventError, Object: err.Status()}
}

// runReflector runs r in the bubble until the test ends it with stop, and
// returns stop, which cancels and waits for Run to return.
func runReflector(r *Reflector) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Run(ctx)
	}()
	return func() {
		cancel()
		<-done
	}
}

type reflectorCase struct {
	name      string
	reason    string
	opts      ReflectorOptions
	lists     []any
	watches   []any
	wantCalls []string
	wantOps   []string
	wantRV    string
	wantErrs  []string
}

func TestReflector(t *testing.T) {
	expired := meta.NewResourceExpired("too old resource version: 1 (5)")
	tests := []reflectorCase{{
		name:      "list, replace, then watch from the list's resourceVersion",
		reason:    "every event, bookmarks included, advances the last-seen resourceVersion",
		lists:     []any{list("5", "a", "b")},
		watches:   []any{newFakeWatch(false, event(meta.EventAdded, "c", "6"), event(meta.EventModified, "a", "7"), event(meta.EventDeleted, "b", "8"), event(meta.EventBookmark, "", "12"))},
		wantCalls: []string{`list rv="0"`, `watch rv="5"`},
		wantOps:   []string{"replace [a b]@5", "add c@6", "update a@7", "delete b@8"},
		wantRV:    "12",
	}, {
		name:      "a clean close re-watches from the last resourceVersion without a list",
		reason:    "the server ending a watch loses nothing: the next watch starts where the last ended",
		lists:     []any{list("5")},
		watches:   []any{newFakeWatch(true, event(meta.EventAdded, "a", "6")), closingWatch(time.Second), newFakeWatch(false, event(meta.EventAdded, "b", "9"))},
		wantCalls: []string{`list rv="0"`, `watch rv="5"`, `watch rv="6"`, `watch rv="6"`},
		wantOps:   []string{"replace []@5", "add a@6", "add b@9"},
		wantRV:    "9",
	}, {
		name:      "a watch that closes within a second without an event relists",
		reason:    "client-go's VeryShortWatchError: so quick and empty a close means a broken stream, not a quiet one",
		opts:      ReflectorOptions{Name: "widgets"},
		lists:     []any{list("5"), list("7")},
		watches:   []any{closingWatch(time.Second - time.Nanosecond), newFakeWatch(false)},
		wantCalls: []string{`list rv="0"`, `watch rv="5"`, `list rv="5"`, `watch rv="7"`},
		wantOps:   []string{"replace []@5", "replace []@7"},
		wantRV:    "7",
		wantErrs:  []string{"watch: very short watch: widgets: the watch closed within 1s of its start without an event"},
	}, {
		name:      `a watch from "0" does not advance past its leading ADDED events`,
		reason:    `client-go's propagateRVFromStart: they are a snapshot in no resourceVersion order; the first other event moves on`,
		lists:     []any{list("0")}, // a server that reports "0" (kitchensync's did before F2 was resolved)
		watches:   []any{newFakeWatch(true, event(meta.EventAdded, "a", "3"), event(meta.EventAdded, "b", "2")), newFakeWatch(false, event(meta.EventAdded, "c", "5"), event(meta.EventModified, "a", "6"), event(meta.EventAdded, "d", "7"))},
		wantCalls: []string{`list rv="0"`, `watch rv="0"`, `watch rv="0"`},
		wantOps:   []string{"replace []@0", "add a@3", "add b@2", "add c@5", "update a@6", "add d@7"},
		wantRV:    "7",
	}, {
		name:      `a bookmark moves a watch from "0" past its snapshot`,
		reason:    "a bookmark is an event besides ADDED",
		lists:     []any{list("0")},
		watches:   []any{newFakeWatch(false, event(meta.EventAdded, "a", "3"), event(meta.EventBookmark, "", "4"), event(meta.EventAdded, "b", "5"))},
		wantCalls: []string{`list rv="0"`, `watch rv="0"`},
		wantOps:   []string{"replace []@0", "add a@3", "add b@5"},
		wantRV:    "5",
	}, {
		name:      `ADDED events do not hold back a watch from a real resourceVersion`,
		reason:    "only a watch from \"\" or \"0\" starts with a snapshot",
		lists:     []any{list("2")},
		watches:   []any{newFakeWatch(false, event(meta.EventAdded, "a", "3"))},
		wantCalls: []string{`list rv="0"`, `watch rv="2"`},
		wantOps:   []string{"replace []@2", "add a@3"},
		wantRV:    "3",
	}, {
		name:      "410 in the stream relists from the last resourceVersion",
		reason:    "history after our resourceVersion is gone; only a list can tell what changed",
		lists:     []any{list("5", "a"), list("20", "b")},
		watches:   []any{newFakeWatch(false, event(meta.EventAdded, "c", "6"), errorEvent(expired)), newFakeWatch(false)},
		wantCalls: []string{`list rv="0"`, `watch rv="5"`, `list rv="6"`, `watch rv="20"`},
		wantOps:   []string{"replace [a]@5", "add c@6", "replace [b]@20"},
		wantRV:    "20",
		wantErrs:  []string{"watch: too old resource version: 1 (5)"},
	}, {
		name:      "410 from the Watch call relists",
		reason:    "same as in the stream",
		lists:     []any{list("5"), list("20")},
		watches:   []any{expired, newFakeWatch(false)},
		wantCalls: []string{`list rv="0"`, `watch rv="5"`, `list rv="5"`, `watch rv="20"`},
		wantOps:   []string{"replace []@5", "replace []@20"},
		wantRV:    "20",
		wantErrs:  []string{"watch: too old resource version: 1 (5)"},
	}, {
		name:      "a list at an expired resourceVersion lists the latest",
		reason:    `client-go: on 410 from a list at RV, list again at ""`,
		lists:     []any{list("5"), expired, list("30", "z")},
		watches:   []any{errorEventWatch(expired), newFakeWatch(false)},
		wantCalls: []string{`list rv="0"`, `watch rv="5"`, `list rv="5"`, `list rv=""`, `watch rv="30"`},
		wantOps:   []string{"replace []@5", "replace [z]@30"},
		wantRV:    "30",
		wantErrs:  []string{"watch: too old resource version: 1 (5)"},
	}, {
		name:      "a list at a resourceVersion the server has not reached lists the latest",
		reason:    `client-go: on 504 "Too large resource version" from a list at RV, list again at ""`,
		lists:     []any{list("5"), meta.NewTimeout("Too large resource version: 5, current: 3", 1), list("30", "z")},
		watches:   []any{errorEventWatch(expired), newFakeWatch(false)},
		wantCalls: []string{`list rv="0"`, `watch rv="5"`, `list rv="5"`, `list rv=""`, `watch rv="30"`},
		wantOps:   []string{"replace []@5", "replace [z]@30"},
		wantRV:    "30",
		wantErrs:  []string{"watch: too old resource version: 1 (5)"},
	}, {
		name:      "a failed list backs off and lists again",
		reason:    "errors other than 410 and 429 go to the handler and are retried after the backoff",
		lists:     []any{meta.NewInternalError(errors.New("etcd is down")), list("5")},
		watches:   []any{newFakeWatch(false)},
		wantCalls: []string{`list rv="0"`, `list rv="0"`, `watch rv="5"`},
		wantOps:   []string{"replace []@5"},
		wantRV:    "5",
		wantErrs:  []string{"list: Internal error occurred: etcd is down"},
	}, {
		name:      "429 on the watch backs off and re-watches without a list",
		reason:    "the server is busy, not forgetful",
		lists:     []any{list("5")},
		watches:   []any{meta.NewTooManyRequests("slow down", 1), newFakeWatch(false, errorEvent(meta.NewTooManyRequests("slow down", 1))), newFakeWatch(false)},
		wantCalls: []string{`list rv="0"`, `watch rv="5"`, `watch rv="5"`, `watch rv="5"`},
		wantOps:   []string{"replace []@5"},
		wantRV:    "5",
		wantErrs:  []string{"watch: slow down", "watch: slow down"},
	}, {
		name:      "a 500 on the watch relists",
		reason:    "as client-go (without MaxInternalErrorRetryDuration): other watch errors end the cycle",
		lists:     []any{list("5"), list("7")},
		watches:   []any{meta.NewInternalError(errors.New("boom")), newFakeWatch(false)},
		wantCalls: []string{`list rv="0"`, `watch rv="5"`, `list rv="5"`, `watch rv="7"`},
		wantOps:   []string{"replace []@5", "replace []@7"},
		wantRV:    "7",
		wantErrs:  []string{"watch: Internal error occurred: boom"},
	}, {
		name:   "paging follows continue tokens",
		reason: "the list's resourceVersion is the first page's",
		opts:   ReflectorOptions{PageSize: 2},
		lists: []any{
			&meta.List{ListMeta: meta.ListMeta{ResourceVersion: "5", Continue: "c1"}, Items: []meta.Object{newWidgetAt("a", "3"), newWidgetAt("b", "4")}},
			&meta.List{ListMeta: meta.ListMeta{ResourceVersion: "5"}, Items: []meta.Object{newWidgetAt("c", "5")}},
		},
		watches:   []any{newFakeWatch(false)},
		wantCalls: []string{`list rv="0" limit=2 continue=""`, `list rv="" limit=2 continue="c1"`, `watch rv="5"`},
		wantOps:   []string{"replace [a b c]@5"},
		wantRV:    "5",
	}, {
		name:   "an expired continue token lists everything at once",
		reason: "client-go's pager falls back to a full list",
		opts:   ReflectorOptions{PageSize: 1},
		lists: []any{
			&meta.List{ListMeta: meta.ListMeta{ResourceVersion: "5", Continue: "c1"}, Items: []meta.Object{newWidgetAt("a", "3")}},
			expired, list("9", "a", "b"),
		},
		watches:   []any{newFakeWatch(false)},
		wantCalls: []string{`list rv="0" limit=1 continue=""`, `list rv="" limit=1 continue="c1"`, `list rv="0"`, `watch rv="9"`},
		wantOps:   []string{"replace [a b]@9"},
		wantRV:    "9",
	}, {
		name:      "watch-list streams the initial state and keeps the watch",
		reason:    "the initial-events-end bookmark ends the initial state; the same watch then carries changes",
		opts:      ReflectorOptions{UseWatchList: true},
		watches:   []any{newFakeWatch(false, event(meta.EventAdded, "b", "4"), event(meta.EventAdded, "a", "3"), initialEventsEnd("5"), event(meta.EventModified, "a", "6"))},
		wantCalls: []string{`watch rv="" sendInitialEvents match=NotOlderThan`},
		wantOps:   []string{"replace [a b]@5", "update a@6"},
		wantRV:    "6",
	}, {
		name:      `a watch-list's stream goes on past its snapshot even at "0"`,
		reason:    "as client-go: the stream handed over by a watch-list is past its synthetic ADDED events",
		opts:      ReflectorOptions{UseWatchList: true},
		watches:   []any{newFakeWatch(false, event(meta.EventAdded, "a", "0"), initialEventsEnd("0"), event(meta.EventAdded, "b", "1"))},
		wantCalls: []string{`watch rv="" sendInitialEvents match=NotOlderThan`},
		wantOps:   []string{"replace [a]@0", "add b@1"},
		wantRV:    "1",
	}, {
		name:      "a watch-list that closes within a second without an event falls back to a list",
		reason:    "client-go's VeryShortWatchError ends its watch-list attempt",
		opts:      ReflectorOptions{UseWatchList: true, Name: "widgets"},
		lists:     []any{list("5", "a")},
		watches:   []any{newFakeWatch(true), newFakeWatch(false)},
		wantCalls: []string{`watch rv="" sendInitialEvents match=NotOlderThan`, `list rv="0"`, `watch rv="5"`},
		wantOps:   []string{"replace [a]@5"},
		wantRV:    "5",
		wantErrs:  []string{"watch-list failed, falling back to list: very short watch: widgets: the watch closed within 1s of its start without an event"},
	}, {
		name:      "watch-list refused falls back to a list",
		reason:    "client-go falls back to list when watch-list fails",
		opts:      ReflectorOptions{UseWatchList: true},
		lists:     []any{list("5", "a")},
		watches:   []any{meta.NewBadRequest("watch-list not supported"), newFakeWatch(false)},
		wantCalls: []string{`watch rv="" sendInitialEvents match=NotOlderThan`, `list rv="0"`, `watch rv="5"`},
		wantOps:   []string{"replace [a]@5"},
		wantRV:    "5",
		wantErrs:  []string{"watch-list failed, falling back to list: watch-list not supported"},
	}, {
		name:   "a watch-list cut before its end bookmark starts again",
		reason: "a partial initial state must never replace the store",
		opts:   ReflectorOptions{UseWatchList: true},
		watches: []any{
			newFakeWatch(true, event(meta.EventAdded, "a", "3")),
			newFakeWatch(false, event(meta.EventAdded, "a", "3"), event(meta.EventAdded, "b", "4"), initialEventsEnd("4")),
		},
		wantCalls: []string{`watch rv="" sendInitialEvents match=NotOlderThan`, `watch rv="" sendInitialEvents match=NotOlderThan`},
		wantOps:   []string{"replace [a b]@4"},
		wantRV:    "4",
	}, {
		name:      "resync calls the store's Resync every period while watching",
		reason:    "two periods of 2 minutes pass in the 5 virtual minutes",
		opts:      ReflectorOptions{ResyncPeriod: 2 * time.Minute},
		lists:     []any{list("5")},
		watches:   []any{newFakeWatch(false)},
		wantCalls: []string{`list rv="0"`, `watch rv="5"`},
		wantOps:   []string{"replace []@5", "resync", "resync"},
		wantRV:    "5",
	}, {
		name:      "ShouldResync can veto a resync",
		reason:    "the informer says no when no handler is due",
		opts:      ReflectorOptions{ResyncPeriod: 2 * time.Minute, ShouldResync: func() bool { return false }},
		lists:     []any{list("5")},
		watches:   []any{newFakeWatch(false)},
		wantCalls: []string{`list rv="0"`, `watch rv="5"`},
		wantOps:   []string{"replace []@5"},
		wantRV:    "5",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runReflectorCase(t, tt) })
	}
}

// initialEventsEnd is the bookmark that ends a watch-list's initial state.
func initialEventsEnd(rv string) meta.Event {
	w := newWidgetAt("", rv)
	w.Annotations = map[string]string{meta.InitialEventsEndAnnotation: "true"}
	return meta.Event{Type: meta.EventBookmark, Object: w}
}

func errorEventWatch(err *meta.StatusError) *fakeWatch {
	return newFakeWatch(false, errorEvent(err))
}

func runReflectorCase(t *testing.T, tt reflectorCase) {
	synctest.Test(t, func(t *testing.T) {
		lw := &scriptedLW{lists: tt.lists, watches: tt.watches}
		st := &recordingStore{}
		var errs []string
		var errMu sync.Mutex
		tt.opts.WatchErrorHandler = func(err error) {
			errMu.Lock()
			errs = append(errs, err.Error())
			errMu.Unlock()
		}
		r := NewReflector(lw, st, tt.opts)
		stop := runReflector(r)
		time.Sleep(5 * time.Minute) // virtual: long enough for every backoff
		synctest.Wait()
		if diff := cmp.Diff(tt.wantCalls, lw.log()); diff != "" {
			t.Errorf("%s: calls (-want +got):\n%s", tt.reason, diff)
		}
		if diff := cmp.Diff(tt.wantOps, st.log()); diff != "" {
			t.Errorf("%s: store operations (-want +got):\n%s", tt.reason, diff)
		}
		if got := r.LastSyncResourceVersion(); got != tt.wantRV {
			t.Errorf("%s: LastSyncResourceVersion = %q, want %q", tt.reason, got, tt.wantRV)
		}
		stop()
		errMu.Lock()
		defer errMu.Unlock()
		if diff := cmp.Diff(tt.wantErrs, errs); diff != "" {
			t.Errorf("%s: reported errors (-want +got):\n%s", tt.reason, diff)
		}
	})
}
