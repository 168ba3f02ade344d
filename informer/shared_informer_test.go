package informer

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

type widget = apiservertest.Widget

// recorder is a handler that logs every call as a line.
type recorder struct {
	mu     sync.Mutex
	events []string
}

func (r *recorder) add(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, fmt.Sprintf(format, args...))
}

func (r *recorder) OnAdd(w *widget, initial bool) {
	r.add("add %s@%s initial=%v", w.Name, w.ResourceVersion, initial)
}
func (r *recorder) OnUpdate(old, new *widget) {
	r.add("update %s@%s->%s", new.Name, old.ResourceVersion, new.ResourceVersion)
}
func (r *recorder) OnDelete(w *widget, unknown bool) {
	r.add("delete %s@%s unknown=%v", w.Name, w.ResourceVersion, unknown)
}

// take returns and clears the events so far.
func (r *recorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	ev := r.events
	r.events = nil
	return ev
}

// env is a server and an informer over its widgets, in a synctest bubble.
type env struct {
	t      *testing.T
	ctx    context.Context
	srv    *apiserver.Server
	client *apiserver.ResourceClient
	inf    *SharedIndexInformer[*widget]
	errs   []error
	mu     sync.Mutex
}

func newEnv(t *testing.T, opts Options[*widget]) *env {
	e := &env{t: t, ctx: t.Context(), srv: apiservertest.NewServerWithOptions(t, apiserver.Options{CompactionDropsHistory: true})}
	e.client = e.srv.Resource(apiservertest.WidgetsResource)
	opts.Resource = apiservertest.WidgetsResource
	opts.WatchErrorHandler = func(err error) {
		e.mu.Lock()
		e.errs = append(e.errs, err)
		e.mu.Unlock()
	}
	e.inf = NewSharedIndexInformer(e.client, opts)
	return e
}

// run starts the informer; the returned stop cancels it and waits for Run.
func (e *env) run() (stop func()) {
	ctx, cancel := context.WithCancel(e.ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		e.inf.Run(ctx)
	}()
	stop = func() {
		cancel()
		<-done
	}
	e.t.Cleanup(stop)
	return stop
}

func (e *env) create(name string, labels map[string]string) *widget {
	e.t.Helper()
	w := apiservertest.NewWidget("ns", name)
	w.Labels = labels
	got, err := e.client.Create(e.ctx, w, meta.CreateOptions{})
	if err != nil {
		e.t.Fatalf("create %s: %v", name, err)
	}
	return got.(*widget)
}

func (e *env) update(name string, size int) *widget {
	e.t.Helper()
	got, err := e.client.Namespace("ns").Get(e.ctx, name, meta.GetOptions{})
	if err != nil {
		e.t.Fatalf("get %s: %v", name, err)
	}
	w := got.(*widget)
	w.Spec.Size = size
	got, err = e.client.Update(e.ctx, w, meta.UpdateOptions{})
	if err != nil {
		e.t.Fatalf("update %s: %v", name, err)
	}
	return got.(*widget)
}

func (e *env) delete(name string) {
	e.t.Helper()
	if err := e.client.Namespace("ns").Delete(e.ctx, name, meta.DeleteOptions{}); err != nil {
		e.t.Fatalf("delete %s: %v", name, err)
	}
}

func (e *env) cachedNames() []string {
	var names []string
	for _, w := range e.inf.GetIndexer().List() {
		names = append(names, w.Name+"@"+w.ResourceVersion)
	}
	return names
}

func diffEvents(t *testing.T, reason string, want, got []string) {
	t.Helper()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: events (-want +got):\n%s", reason, diff)
	}
}

func TestInformerDeliversListThenChanges(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, Options[*widget]{})
		a := e.create("a", nil)
		b := e.create("b", nil)
		var r1, r2 recorder
		reg1, _ := e.inf.AddEventHandler(&r1)
		reg2, _ := e.inf.AddEventHandler(&r2)
		e.run()
		if !WaitForCacheSync(e.ctx, e.inf, reg1, reg2) {
			t.Fatal("WaitForCacheSync = false")
		}
		want := []string{
			"add a@" + a.ResourceVersion + " initial=true",
			"add b@" + b.ResourceVersion + " initial=true",
		}
		diffEvents(t, "both handlers see the initial list", want, r1.take())
		diffEvents(t, "both handlers see the initial list", want, r2.take())

		c := e.create("c", nil)
		a2 := e.update("a", 3)
		e.delete("b")
		deletedAt := e.srv.ResourceVersion() // a DELETED event carries the delete's resourceVersion
		synctest.Wait()
		want = []string{
			"add c@" + c.ResourceVersion + " initial=false",
			"update a@" + a.ResourceVersion + "->" + a2.ResourceVersion,
			"delete b@" + deletedAt + " unknown=false",
		}
		diffEvents(t, "later changes arrive in order", want, r1.take())
		diffEvents(t, "later changes arrive in order", want, r2.take())
		if diff := cmp.Diff([]string{"a@" + a2.ResourceVersion, "c@" + c.ResourceVersion}, e.cachedNames()); diff != "" {
			t.Errorf("cache (-want +got):\n%s", diff)
		}
		if got, want := e.inf.LastSyncResourceVersion(), e.srv.ResourceVersion(); got != want {
			t.Errorf("LastSyncResourceVersion = %q, want the server's %q", got, want)
		}
	})
}

func TestLateHandlerGetsCacheAsInitialAdds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, Options[*widget]{})
		a := e.create("a", nil)
		e.run()
		<-e.inf.Synced()
		b := e.create("b", nil)
		synctest.Wait()
		var late recorder
		reg, err := e.inf.AddEventHandler(&late)
		if err != nil {
			t.Fatal(err)
		}
		<-reg.Synced()
		c := e.create("c", nil)
		synctest.Wait()
		diffEvents(t, "client-go: a late handler's catch-up adds count as the initial list", []string{
			"add a@" + a.ResourceVersion + " initial=true",
			"add b@" + b.ResourceVersion + " initial=true",
			"add c@" + c.ResourceVersion + " initial=false",
		}, late.take())
	})
}

func TestPerHandlerHasSynced(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, Options[*widget]{})
		e.create("a", nil)
		e.create("b", nil)
		release := make(chan struct{})
		var fast recorder
		slow := ResourceEventHandlerFuncs[*widget]{AddFunc: func(*widget, bool) { <-release }}
		slowReg, _ := e.inf.AddEventHandler(slow)
		fastReg, _ := e.inf.AddEventHandler(&fast)
		e.run()
		synctest.Wait()
		if !e.inf.HasSynced() || !fastReg.HasSynced() {
			t.Fatalf("informer synced %v, fast handler synced %v; want both (a slow handler must not block them)", e.inf.HasSynced(), fastReg.HasSynced())
		}
		if slowReg.HasSynced() {
			t.Fatal("kubernetes#113763: the slow handler reports synced before it has seen the initial list")
		}
		e.create("c", nil)
		synctest.Wait()
		if got := len(fast.take()); got != 3 {
			t.Errorf("fast handler got %d events while the slow one was stuck, want 3", got)
		}
		close(release)
		synctest.Wait()
		if !slowReg.HasSynced() {
			t.Error("slow handler not synced after delivering the initial list")
		}
	})
}

func TestTombstoneAfterMissedDelete(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, Options[*widget]{})
		a := e.create("a", nil)
		var r recorder
		reg, _ := e.inf.AddEventHandler(&r)
		e.run()
		<-reg.Synced()  // the informer's Synced would not wait for the handler
		synctest.Wait() // and the reflector is watching
		e.ageWatch()
		r.take()
		// Cut the informer off: its watch ends and the re-watch fails, so
		// it waits for the backoff and relists; the delete falls in the gap.
		e.srv.FailNext(apiserver.VerbWatch, 1, meta.NewInternalError(errors.New("connection reset")))
		e.srv.CloseWatches()
		synctest.Wait()
		e.delete("a")
		time.Sleep(time.Minute)
		synctest.Wait()
		diffEvents(t, "a delete missed while cut off arrives as a tombstone with the last known state",
			[]string{"delete a@" + a.ResourceVersion + " unknown=true"}, r.take())
		if got := e.cachedNames(); len(got) != 0 {
			t.Errorf("cache still holds %v", got)
		}
	})
}

func TestCompactionRelists(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, Options[*widget]{})
		a := e.create("a", nil)
		var r recorder
		reg, _ := e.inf.AddEventHandler(&r)
		e.run()
		<-reg.Synced()  // the informer's Synced would not wait for the handler
		synctest.Wait() // and the reflector is watching
		e.ageWatch()
		r.take()
		lists := e.srv.RequestCount(apiserver.VerbList, apiservertest.WidgetsResource.GroupResource())
		// The re-watch after the close is refused (429), so the informer
		// waits for the backoff, not watching...
		e.srv.FailNext(apiserver.VerbWatch, 1, meta.NewTooManyRequests("busy", 1))
		e.srv.CloseWatches()
		synctest.Wait()
		b := e.create("b", nil)
		e.srv.CompactHistory() // ...and meanwhile the history it needs is gone.
		time.Sleep(time.Minute)
		synctest.Wait()
		// a did not change: without a resync period the handler is told
		// so, as OnUpdate(old, new) with old == new (as in client-go).
		diffEvents(t, "after 410 the relist finds what changed", []string{
			"update a@" + a.ResourceVersion + "->" + a.ResourceVersion,
			"add b@" + b.ResourceVersion + " initial=false",
		}, r.take())
		if got := e.srv.RequestCount(apiserver.VerbList, apiservertest.WidgetsResource.GroupResource()); got != lists+1 {
			t.Errorf("lists = %d, want one more than %d", got, lists)
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		if len(e.errs) != 2 || !meta.IsTooManyRequests(e.errs[0]) || !meta.IsExpired(e.errs[1]) {
			t.Errorf("errors reported = %v, want a 429 then a 410 Expired", e.errs)
		}
	})
}

func TestCleanCloseRewatchesWithoutList(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, Options[*widget]{})
		a := e.create("a", nil) // so the first list hands something over
		var r recorder
		e.inf.AddEventHandler(&r)
		e.run()
		<-e.inf.Synced()
		e.ageWatch()
		gr := apiservertest.WidgetsResource.GroupResource()
		want := []string{"add a@" + a.ResourceVersion + " initial=true"}
		for i := range 3 {
			e.srv.CloseWatches()
			w := e.create(fmt.Sprintf("w%d", i), nil)
			want = append(want, "add "+w.Name+"@"+w.ResourceVersion+" initial=false")
			synctest.Wait()
		}
		if got := e.srv.RequestCount(apiserver.VerbList, gr); got != 1 {
			t.Errorf("lists = %d, want 1: a clean close re-watches", got)
		}
		diffEvents(t, "each re-watch starts where the last ended", want, r.take())
	})
}

// TestVeryShortWatchRelists: a watch that ends within a second of its
// start without an event is taken as broken, as in client-go: the informer
// reports a VeryShortWatchError and lists again instead of re-watching.
func TestVeryShortWatchRelists(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, Options[*widget]{})
		a := e.create("a", nil)
		var r recorder
		e.inf.AddEventHandler(&r)
		e.run()
		<-e.inf.Synced()
		synctest.Wait() // watching since this very instant
		r.take()
		e.srv.CloseWatches()
		time.Sleep(time.Minute)
		synctest.Wait()
		gr := apiservertest.WidgetsResource.GroupResource()
		if got := e.srv.RequestCount(apiserver.VerbList, gr); got != 2 {
			t.Errorf("lists = %d, want 2: a very short watch relists", got)
		}
		diffEvents(t, "the relist finds a unchanged", []string{"update a@" + a.ResourceVersion + "->" + a.ResourceVersion}, r.take())
		e.mu.Lock()
		defer e.mu.Unlock()
		var short *VeryShortWatchError
		if len(e.errs) != 1 || !errors.As(e.errs[0], &short) {
			t.Errorf("errors reported = %v, want one VeryShortWatchError", e.errs)
		}
	})
}

// TestFreshServerWatchesFromOne: a server that has taken no write lists
// at resourceVersion "1", as etcd's revision starts at 1, never at "0",
// which a client reads as "any version" (compare/FINDINGS.md F2). So the
// reflector syncs at "1" and watches from "1": an ordinary watch, whose
// ADDED events are real changes that advance the resourceVersion (the
// "0" snapshot rule of client-go's propagateRVFromStart does not apply).
// Each clean close re-watches from the last event: nothing is heard twice,
// and the delete after the second close is heard with no relist.
func TestFreshServerWatchesFromOne(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, Options[*widget]{})
		var r recorder
		e.inf.AddEventHandler(&r)
		e.run()
		<-e.inf.Synced()
		// Synced can close before the reflector records the list's
		// resourceVersion (it does so after the store's Replace, as
		// client-go's does): let it get to its watch first.
		synctest.Wait()
		if got := e.inf.LastSyncResourceVersion(); got != "1" {
			t.Errorf("after listing a fresh server: LastSyncResourceVersion = %q, want \"1\"", got)
		}
		e.ageWatch()
		e.srv.CloseWatches()
		a, b := e.create("a", nil), e.create("b", nil)
		synctest.Wait()
		e.ageWatch()
		if got, want := e.inf.LastSyncResourceVersion(), b.ResourceVersion; got != want {
			t.Errorf("after ADDED events only: LastSyncResourceVersion = %q, want %q (the last event's)", got, want)
		}
		e.srv.CloseWatches()
		synctest.Wait()
		e.delete("a")
		synctest.Wait()
		diffEvents(t, "a re-watch from the last resourceVersion hears only what is new", []string{
			"add a@" + a.ResourceVersion + " initial=false",
			"add b@" + b.ResourceVersion + " initial=false",
			"delete a@" + e.srv.ResourceVersion() + " unknown=false",
		}, r.take())
		if got, want := e.inf.LastSyncResourceVersion(), e.srv.ResourceVersion(); got != want {
			t.Errorf("after a DELETED event: LastSyncResourceVersion = %q, want %q", got, want)
		}
		gr := apiservertest.WidgetsResource.GroupResource()
		if got := e.srv.RequestCount(apiserver.VerbList, gr); got != 1 {
			t.Errorf("lists = %d, want 1: clean closes re-watch", got)
		}
	})
}

func TestResyncGoesOnlyToDueHandlers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, Options[*widget]{ResyncPeriod: time.Minute})
		a := e.create("a", nil)
		var every, never, hourly recorder
		e.inf.AddEventHandler(&every)
		e.inf.AddEventHandlerWithResyncPeriod(&never, 0)
		e.inf.AddEventHandlerWithResyncPeriod(&hourly, time.Hour)
		e.run()
		<-e.inf.Synced()
		synctest.Wait()
		every.take()
		never.take()
		hourly.take()
		time.Sleep(time.Minute)
		synctest.Wait()
		resync := []string{"update a@" + a.ResourceVersion + "->" + a.ResourceVersion}
		diffEvents(t, "a handler with the default period resyncs every minute", resync, every.take())
		diffEvents(t, "a handler with period 0 never resyncs", nil, never.take())
		diffEvents(t, "an hourly handler is not due yet", nil, hourly.take())
		time.Sleep(59 * time.Minute)
		synctest.Wait()
		if got := len(every.take()); got != 59 {
			t.Errorf("minutely handler resynced %d times in 59 minutes, want 59", got)
		}
		diffEvents(t, "the hourly handler is due after an hour", resync, hourly.take())
	})
}

// ageWatch lets the informer's watch live past a second: a watch that
// ends sooner without an event is taken as broken (VeryShortWatchError)
// and relists, which tests that end watches on purpose may not want.
func (e *env) ageWatch() {
	time.Sleep(2 * time.Second)
	synctest.Wait()
}

// relist makes the informer list again: its watch ends, the re-watch
// fails, and after the backoff it lists. It returns once that is done.
func (e *env) relist() {
	e.t.Helper()
	e.ageWatch() // or the ended watch alone would relist
	gr := apiservertest.WidgetsResource.GroupResource()
	lists := e.srv.RequestCount(apiserver.VerbList, gr)
	e.srv.FailNext(apiserver.VerbWatch, 1, meta.NewInternalError(errors.New("connection reset")))
	e.srv.CloseWatches()
	time.Sleep(10 * time.Second) // past the backoff
	synctest.Wait()
	if got := e.srv.RequestCount(apiserver.VerbList, gr); got != lists+1 {
		e.t.Fatalf("lists = %d, want one more than %d", got, lists)
	}
}

// TestRelistTellsUnchangedObjectsToResyncingHandlers pins client-go's
// rule for a relist's unchanged objects: they are updates with old == new,
// delivered like a resync's, to the handlers marked resyncing. Every
// handler starts marked; only the resync check recomputes the marks.
func TestRelistTellsUnchangedObjectsToResyncingHandlers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, Options[*widget]{ResyncPeriod: time.Minute})
		a := e.create("a", nil)
		var every, hourly recorder
		e.inf.AddEventHandler(&every)
		e.inf.AddEventHandlerWithResyncPeriod(&hourly, time.Hour)
		e.run()
		<-e.inf.Synced()
		synctest.Wait()
		every.take()
		hourly.take()
		same := []string{"update a@" + a.ResourceVersion + "->" + a.ResourceVersion}

		e.relist() // t≈12s: no resync check yet, so both are marked
		diffEvents(t, "relist before any resync check: every handler", same, every.take())
		diffEvents(t, "relist before any resync check: hourly handler", same, hourly.take())

		time.Sleep(time.Minute) // the check at t≈63s: every is due, hourly not
		synctest.Wait()
		diffEvents(t, "resync at one minute: every handler", same, every.take())
		diffEvents(t, "resync at one minute: hourly handler", nil, hourly.take())

		e.relist() // t≈84s: the marks are the check's
		diffEvents(t, "relist after the check: every handler (due)", same, every.take())
		diffEvents(t, "relist after the check: hourly handler (not due)", nil, hourly.take())
	})
}

// TestRelistTellsUnchangedObjectsWithoutResync: with no resync period the
// marks are never recomputed, so every relist tells every handler —
// including one added late — about each unchanged object.
func TestRelistTellsUnchangedObjectsWithoutResync(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, Options[*widget]{})
		a := e.create("a", nil)
		var first, late recorder
		e.inf.AddEventHandler(&first)
		e.run()
		<-e.inf.Synced()
		reg, _ := e.inf.AddEventHandler(&late)
		<-reg.Synced()
		synctest.Wait()
		diffEvents(t, "late handler before the relist", []string{"add a@" + a.ResourceVersion + " initial=true"}, late.take())
		first.take()
		e.relist()
		b := e.update("a", 7) // a real change afterwards, for contrast
		synctest.Wait()
		want := []string{
			"update a@" + a.ResourceVersion + "->" + a.ResourceVersion,
			"update a@" + a.ResourceVersion + "->" + b.ResourceVersion,
		}
		diffEvents(t, "first handler", want, first.take())
		diffEvents(t, "late handler", want, late.take())
	})
}

func TestTransformBeforeCaching(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, Options[*widget]{Transform: func(w *widget) (*widget, error) {
			if w.Name == "bad" {
				return nil, errors.New("cannot transform bad")
			}
			w.Annotations = nil
			return w, nil
		}})
		w := apiservertest.NewWidget("ns", "a")
		w.Annotations = map[string]string{"big": "data"}
		if _, err := e.client.Create(e.ctx, w, meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		e.run()
		<-e.inf.Synced()
		e.create("b", nil)
		e.create("bad", nil)
		synctest.Wait()
		got, err := e.inf.Lister().Namespace("ns").Get("a")
		if err != nil {
			t.Fatal(err)
		}
		if got.Annotations != nil {
			t.Errorf("cached annotations = %v, want dropped by the transform", got.Annotations)
		}
		if diff := cmp.Diff([]string{"a", "b"}, names(e.inf.GetIndexer().List())); diff != "" {
			t.Errorf("an object the transform fails on is not cached (-want +got):\n%s", diff)
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		if len(e.errs) != 1 {
			t.Errorf("errors = %v, want the transform's error once", e.errs)
		}
	})
}

func names(ws []*widget) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Name)
	}
	return out
}

func TestRemoveEventHandler(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, Options[*widget]{})
		var kept, removed recorder
		e.inf.AddEventHandler(&kept)
		reg, _ := e.inf.AddEventHandler(&removed)
		e.run()
		<-e.inf.Synced()
		e.create("a", nil)
		synctest.Wait()
		if err := e.inf.RemoveEventHandler(reg); err != nil {
			t.Fatal(err)
		}
		if err := e.inf.RemoveEventHandler(reg); err != nil {
			t.Errorf("second RemoveEventHandler = %v, want nil", err)
		}
		other := NewSharedIndexInformer[*widget](e.client, Options[*widget]{})
		if err := other.RemoveEventHandler(reg); err == nil {
			t.Error("removing another informer's registration: want an error")
		}
		e.create("b", nil)
		synctest.Wait()
		if got := len(kept.take()); got != 2 {
			t.Errorf("kept handler got %d events, want 2", got)
		}
		if got := len(removed.take()); got != 1 {
			t.Errorf("removed handler got %d events, want only the one before removal", got)
		}
	})
}

func TestRunStopsEverything(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, Options[*widget]{ResyncPeriod: time.Minute})
		e.create("a", nil)
		e.inf.AddEventHandler(&recorder{})
		stop := e.run()
		<-e.inf.Synced()
		stop()
		// synctest.Test fails if any goroutine of the bubble is left
		// blocked; the server's watches end with the test (Cleanup).
		if _, err := e.inf.AddEventHandler(&recorder{}); err == nil {
			t.Error("AddEventHandler after stop: want an error")
		}
		e.inf.Run(e.ctx) // a second Run returns at once
	})
}

func TestWatchListMode(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, Options[*widget]{UseWatchList: true})
		a := e.create("a", nil)
		var r recorder
		e.inf.AddEventHandler(&r)
		e.run()
		<-e.inf.Synced()
		b := e.create("b", nil)
		synctest.Wait()
		diffEvents(t, "watch-list streams the initial state, then keeps watching", []string{
			"add a@" + a.ResourceVersion + " initial=true",
			"add b@" + b.ResourceVersion + " initial=false",
		}, r.take())
		gr := apiservertest.WidgetsResource.GroupResource()
		if got := e.srv.RequestCount(apiserver.VerbList, gr); got != 0 {
			t.Errorf("lists = %d, want 0 in watch-list mode", got)
		}
	})
}
