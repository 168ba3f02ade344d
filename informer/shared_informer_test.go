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
	e := &env{t: t, ctx: t.Context(), srv: apiservertest.NewServer(t)}
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
	got, err := e.client.Create(e.ctx, w, apiserver.CreateOptions{})
	if err != nil {
		e.t.Fatalf("create %s: %v", name, err)
	}
	return got.(*widget)
}

func (e *env) update(name string, size int) *widget {
	e.t.Helper()
	got, err := e.client.Namespace("ns").Get(e.ctx, name, apiserver.GetOptions{})
	if err != nil {
		e.t.Fatalf("get %s: %v", name, err)
	}
	w := got.(*widget)
	w.Spec.Size = size
	got, err = e.client.Update(e.ctx, w, apiserver.UpdateOptions{})
	if err != nil {
		e.t.Fatalf("update %s: %v", name, err)
	}
	return got.(*widget)
}

func (e *env) delete(name string) {
	e.t.Helper()
	if err := e.client.Namespace("ns").Delete(e.ctx, name, apiserver.DeleteOptions{}); err != nil {
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
		if !WaitForCacheSync(e.ctx, e.inf.HasSynced, reg1.HasSynced, reg2.HasSynced) {
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
		r.take()
		// Cut the informer off: its watch ends and the re-watch fails, so
		// it waits for the backoff and relists; the delete falls in the gap.
		e.srv.FailNext(apiserver.VerbWatch, 1, apiserver.NewInternalError(errors.New("connection reset")))
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
		e.create("a", nil)
		var r recorder
		reg, _ := e.inf.AddEventHandler(&r)
		e.run()
		<-reg.Synced()  // the informer's Synced would not wait for the handler
		synctest.Wait() // and the reflector is watching
		r.take()
		lists := e.srv.RequestCount(apiserver.VerbList, apiservertest.WidgetsResource.GroupResource())
		// The re-watch after the close is refused (429), so the informer
		// waits for the backoff, not watching...
		e.srv.FailNext(apiserver.VerbWatch, 1, apiserver.NewTooManyRequests("busy", 1))
		e.srv.CloseWatches()
		synctest.Wait()
		b := e.create("b", nil)
		e.srv.CompactHistory() // ...and meanwhile the history it needs is gone.
		time.Sleep(time.Minute)
		synctest.Wait()
		diffEvents(t, "after 410 the relist finds what changed", []string{"add b@" + b.ResourceVersion + " initial=false"}, r.take())
		if got := e.srv.RequestCount(apiserver.VerbList, apiservertest.WidgetsResource.GroupResource()); got != lists+1 {
			t.Errorf("lists = %d, want one more than %d", got, lists)
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		if len(e.errs) != 2 || !apiserver.IsTooManyRequests(e.errs[0]) || !apiserver.IsExpired(e.errs[1]) {
			t.Errorf("errors reported = %v, want a 429 then a 410 Expired", e.errs)
		}
	})
}

func TestCleanCloseRewatchesWithoutList(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, Options[*widget]{})
		var r recorder
		e.inf.AddEventHandler(&r)
		e.run()
		<-e.inf.Synced()
		gr := apiservertest.WidgetsResource.GroupResource()
		for i := range 3 {
			e.srv.CloseWatches()
			e.create(fmt.Sprintf("w%d", i), nil)
			synctest.Wait()
		}
		if got := e.srv.RequestCount(apiserver.VerbList, gr); got != 1 {
			t.Errorf("lists = %d, want 1: a clean close re-watches", got)
		}
		if got := len(r.take()); got != 3 {
			t.Errorf("handler got %d events, want 3", got)
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
		if _, err := e.client.Create(e.ctx, w, apiserver.CreateOptions{}); err != nil {
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
