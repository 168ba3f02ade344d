package informer

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// long runs a million operations (split over the four modes; about two
// minutes per mode under -race):
//
//	go test -race ./informer/ -run TestConvergence -args -long
var long = flag.Bool("long", false, "run the convergence test with 1,000,000 operations instead of 10,000")

// replayer is a handler that rebuilds the world from its notifications
// alone, and checks that the stream makes sense as it goes: an add for a
// key it does not have, an update whose old object is the one it has, a
// delete of a key it has.
type replayer struct {
	name string

	mu         sync.Mutex
	objs       map[string]*widget
	added      map[string]bool // every key ever added
	deleted    map[string]bool // every key deleted (directly or by tombstone)
	tombstones int
	violations []string
}

func newReplayer(name string) *replayer {
	return &replayer{name: name, objs: map[string]*widget{}, added: map[string]bool{}, deleted: map[string]bool{}}
}

func (r *replayer) violate(format string, args ...any) {
	if len(r.violations) < 10 {
		r.violations = append(r.violations, fmt.Sprintf(format, args...))
	}
}

func (r *replayer) OnAdd(w *widget, _ bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := w.Namespace + "/" + w.Name
	if _, ok := r.objs[k]; ok {
		r.violate("add of %s, already known", k)
	}
	r.objs[k], r.added[k] = w, true
}

func (r *replayer) OnUpdate(old, new *widget) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := new.Namespace + "/" + new.Name
	if have, ok := r.objs[k]; !ok || have.ResourceVersion != old.ResourceVersion {
		r.violate("update of %s from %s, handler has %v", k, old.ResourceVersion, have)
	}
	r.objs[k] = new
}

func (r *replayer) OnDelete(w *widget, unknown bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := w.Namespace + "/" + w.Name
	if _, ok := r.objs[k]; !ok {
		r.violate("delete of %s, not known", k)
	}
	delete(r.objs, k)
	r.deleted[k] = true
	if unknown {
		r.tombstones++
	}
}

// convergence drives random writes and faults against a server while an
// informer watches it.
type convergence struct {
	t       *testing.T
	ctx     context.Context
	rnd     *rand.Rand
	srv     *apiserver.Server
	client  *apiserver.ResourceClient
	live    []string        // names of widgets on the server
	deleted map[string]bool // every key deleted on the server
	next    int             // names are never reused
}

func (c *convergence) create() {
	name := fmt.Sprintf("w%06d", c.next)
	c.next++
	w := apiservertest.NewWidget(fmt.Sprintf("ns%d", c.rnd.IntN(3)), name)
	w.Labels = map[string]string{"color": []string{"red", "blue"}[c.rnd.IntN(2)]}
	got, err := c.client.Create(c.ctx, w, meta.CreateOptions{})
	if err != nil {
		c.t.Fatalf("create: %v", err)
	}
	c.live = append(c.live, got.GetObjectMeta().Namespace+"/"+name)
}

func (c *convergence) pick() (int, string, string) {
	i := c.rnd.IntN(len(c.live))
	ns, name, _ := cutKey(c.live[i])
	return i, ns, name
}

func (c *convergence) update() {
	_, ns, name := c.pick()
	got, err := c.client.Namespace(ns).Get(c.ctx, name, meta.GetOptions{})
	if err != nil {
		c.t.Fatalf("get: %v", err)
	}
	w := got.(*widget)
	w.Spec.Size = c.rnd.IntN(1000)
	if _, err := c.client.Update(c.ctx, w, meta.UpdateOptions{}); err != nil {
		c.t.Fatalf("update: %v", err)
	}
}

func (c *convergence) remove() {
	i, ns, name := c.pick()
	if err := c.client.Namespace(ns).Delete(c.ctx, name, meta.DeleteOptions{}); err != nil {
		c.t.Fatalf("delete: %v", err)
	}
	c.deleted[c.live[i]] = true
	c.live[i] = c.live[len(c.live)-1]
	c.live = c.live[:len(c.live)-1]
}

// fault injects one failure the informer must survive.
func (c *convergence) fault() {
	boom := meta.NewInternalError(errors.New("injected"))
	busy := meta.NewTooManyRequests("injected", 1)
	switch c.rnd.IntN(7) {
	case 0:
		c.srv.CloseWatches()
	case 1:
		c.srv.CompactHistory()
		c.srv.CloseWatches()
	case 2:
		c.srv.CompactHistory()
	case 3:
		c.srv.FailNext(apiserver.VerbList, 1+c.rnd.IntN(3), boom)
		c.srv.CloseWatches()
	case 4:
		c.srv.FailNext(apiserver.VerbWatch, 1+c.rnd.IntN(3), busy)
		c.srv.CloseWatches()
	case 5:
		c.srv.FailNext(apiserver.VerbWatch, 1, boom)
		c.srv.CloseWatches()
	case 6:
		time.Sleep(time.Duration(c.rnd.IntN(3000)) * time.Millisecond) // let backoffs and resyncs run
	}
}

func (c *convergence) step() {
	// Creates outnumber deletes until about 1,000 objects live, then they
	// balance, so that the long run's cost (relists, resyncs) stays linear.
	creates := 40
	if len(c.live) > 1000 {
		creates = 30
	}
	switch n := c.rnd.IntN(100); {
	case n < creates || len(c.live) == 0:
		c.create()
	case n < 70:
		c.update()
	default:
		c.remove()
	}
	if c.rnd.IntN(80) == 0 {
		c.fault()
	}
	switch c.rnd.IntN(10) {
	case 0:
		synctest.Wait() // let the informer catch up
	case 1, 2:
		// Let virtual time pass, so that backoffs expire and resyncs
		// happen: about 5s between faults on average.
		time.Sleep(time.Duration(c.rnd.IntN(1000)) * time.Millisecond)
	}
}

func cutKey(k string) (ns, name string, ok bool) {
	for i := range k {
		if k[i] == '/' {
			return k[:i], k[i+1:], true
		}
	}
	return "", k, false
}

func TestConvergence(t *testing.T) {
	ops := 10_000
	if *long {
		ops = 1_000_000
	}
	modes := []struct {
		name string
		opts Options[*widget]
	}{
		{"atomic", Options[*widget]{ResyncPeriod: 30 * time.Second}},
		{"classic", Options[*widget]{ResyncPeriod: 30 * time.Second, Queue: QueueDeltaFIFO}},
		{"in-order", Options[*widget]{ResyncPeriod: 30 * time.Second, Queue: QueueInOrder}},
		{"watch-list", Options[*widget]{UseWatchList: true}},
		{"paged", Options[*widget]{PageSize: 7}},
	}
	for i, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) { runConvergence(t, uint64(i+1), ops/len(modes), m.opts, nil) })
		})
	}
}

// runConvergence runs ops random steps against an informer fed by the
// ListerWatcher that over makes for the server (nil: the server's own
// client, in process).
func runConvergence(t *testing.T, seed uint64, ops int, opts Options[*widget], over func(*apiserver.Server) ListerWatcher) {
	srv := apiservertest.NewServerWithOptions(t, apiserver.Options{HistorySize: 500, WatchBufferSize: 64, CompactionDropsHistory: true})
	c := &convergence{
		t: t, ctx: t.Context(), rnd: rand.New(rand.NewPCG(seed, 42)), srv: srv,
		client: srv.Resource(apiservertest.WidgetsResource), deleted: map[string]bool{},
	}
	var errMu sync.Mutex
	errCount := map[meta.StatusReason]int{}
	opts.WatchErrorHandler = func(err error) {
		errMu.Lock()
		errCount[meta.ReasonForError(err)]++
		errMu.Unlock()
	}
	var lw ListerWatcher = c.client
	if over != nil {
		lw = over(srv)
	}
	inf := NewSharedIndexInformer(lw, opts)
	handlers := []*replayer{newReplayer("default"), newReplayer("resync-1m"), newReplayer("no-resync")}
	inf.AddEventHandler(handlers[0])
	inf.AddEventHandlerWithResyncPeriod(handlers[1], time.Minute)
	inf.AddEventHandlerWithResyncPeriod(handlers[2], 0)
	for range 50 {
		c.create()
	}
	ctx, cancel := context.WithCancel(c.ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		inf.Run(ctx)
	}()
	for i := range ops {
		if i == ops/2 {
			late := newReplayer("late")
			if _, err := inf.AddEventHandler(late); err != nil {
				t.Fatal(err)
			}
			handlers = append(handlers, late)
		}
		c.step()
	}
	// Stop the faults and wait for quiet: every backoff has expired.
	srv.FailNext(apiserver.VerbList, 0, nil)
	srv.FailNext(apiserver.VerbWatch, 0, nil)
	time.Sleep(5 * time.Minute)
	synctest.Wait()

	checkConverged(t, c, inf, handlers)
	cancel()
	<-done
	errMu.Lock()
	t.Logf("%d ops, %d live, %d deleted; lists %d, watches %d; errors by reason %v",
		ops, len(c.live), len(c.deleted),
		srv.RequestCount(apiserver.VerbList, apiservertest.WidgetsResource.GroupResource()),
		srv.RequestCount(apiserver.VerbWatch, apiservertest.WidgetsResource.GroupResource()), errCount)
	errMu.Unlock()
}

func checkConverged(t *testing.T, c *convergence, inf *SharedIndexInformer[*widget], handlers []*replayer) {
	t.Helper()
	list, err := c.client.List(c.ctx, meta.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]*widget{}
	for _, o := range list.Items {
		w := o.(*widget)
		want[w.Namespace+"/"+w.Name] = w
	}
	cache := map[string]*widget{}
	for _, w := range inf.GetIndexer().List() {
		cache[w.Namespace+"/"+w.Name] = w
	}
	if diff := cmp.Diff(want, cache); diff != "" {
		t.Fatalf("cache differs from the server (-server +cache):\n%s", diff)
	}
	if got := inf.LastSyncResourceVersion(); got != c.srv.ResourceVersion() {
		t.Errorf("LastSyncResourceVersion = %s, server at %s", got, c.srv.ResourceVersion())
	}
	for _, h := range handlers {
		h.mu.Lock()
		if diff := cmp.Diff(want, h.objs); diff != "" {
			t.Errorf("handler %s: replayed state differs from the server (-server +replayed):\n%s", h.name, diff)
		}
		for _, v := range h.violations {
			t.Errorf("handler %s: %s", h.name, v)
		}
		missed := 0
		for k := range h.added {
			if c.deleted[k] && !h.deleted[k] {
				missed++
			}
		}
		if missed > 0 {
			t.Errorf("handler %s: %d objects deleted on the server never reached OnDelete", h.name, missed)
		}
		t.Logf("handler %s: %d added, %d deleted (%d as tombstones)", h.name, len(h.added), len(h.deleted), h.tombstones)
		h.mu.Unlock()
	}
}
