package reconcile_test

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/reconcile"
)

// watermark is a cache whose resourceVersion the test sets.
type watermark struct {
	mu sync.Mutex
	rv string
}

func (w *watermark) set(rv string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.rv = rv
}

func (w *watermark) LastStoreSyncResourceVersion() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.rv
}

var (
	pods   = meta.GroupResource{Resource: "pods"}
	events = meta.GroupResource{Resource: "events"}
)

// TestFreshnessStepByStep checks EnsureReady after each step: writes are
// compared with each resource's cache as integers, the newest write per
// resource counts, an untracked resource holds nothing back, nor does a
// cache without a resourceVersion (or with one that is not a number),
// and Clear forgets.
func TestFreshnessStepByStep(t *testing.T) {
	f := reconcile.NewFreshness()
	podCache := &watermark{rv: "9"}
	f.Track(pods, podCache)
	rs := reconcile.NamespacedName{Namespace: "ns", Name: "rs"}
	other := reconcile.NamespacedName{Namespace: "ns", Name: "other"}
	steps := []struct {
		name  string
		do    func() error
		ready map[string]bool // by owner name
	}{
		{"nothing written", func() error { return nil }, map[string]bool{"rs": true, "other": true}},
		{"wrote a pod at 10, cache at 9", func() error { return f.WroteAt(rs, pods, "10") }, map[string]bool{"rs": false, "other": true}},
		{"cache at 10", func() error { podCache.set("10"); return nil }, map[string]bool{"rs": true, "other": true}},
		{"wrote at 100 (a longer number, compared as one)", func() error { return f.WroteAt(rs, pods, "100") }, map[string]bool{"rs": false, "other": true}},
		{"an older write does not lower the mark", func() error { return f.WroteAt(rs, pods, "11") }, map[string]bool{"rs": false, "other": true}},
		{"an untracked resource is not checked", func() error { podCache.set("100"); return f.WroteAt(rs, events, "500") }, map[string]bool{"rs": true, "other": true}},
		{"a cache behind again holds it back", func() error { podCache.set("99"); return nil }, map[string]bool{"rs": false, "other": true}},
		{"a cache without a resourceVersion cannot tell, and holds nothing back", func() error { podCache.set(""); return nil }, map[string]bool{"rs": true, "other": true}},
		{"nor does one whose resourceVersion is not a number", func() error { podCache.set("x7"); return nil }, map[string]bool{"rs": true, "other": true}},
		{"the write is still recorded: a cache that reports again is checked", func() error { podCache.set("99"); return nil }, map[string]bool{"rs": false, "other": true}},
		{"Clear forgets", func() error { f.Clear(rs); return nil }, map[string]bool{"rs": true, "other": true}},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		got := map[string]bool{"rs": f.EnsureReady(rs), "other": f.EnsureReady(other)}
		if diff := cmp.Diff(s.ready, got); diff != "" {
			t.Errorf("%s: EnsureReady (-want +got):\n%s", s.name, diff)
		}
	}
	if err := f.WroteAt(rs, pods, "abc"); err == nil {
		t.Error(`WroteAt "abc": no error`)
	}
	if !f.EnsureReady(rs) {
		t.Error("a refused WroteAt recorded something")
	}
}

// A controller with Freshness skips a reconcile while the cache lags its
// last write, requeues it with backoff, counts the skips, reconciles
// once the cache catches up, and forgets the write when the object is
// deleted.
func TestControllerSkipsStaleReconciles(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := apiservertest.NewServer(t)
		fac := informer.NewSharedInformerFactory(srv, 0)
		inf := informer.InformerFor[*apiservertest.Widget](fac)
		fresh := reconcile.NewFreshness()
		podCache := &watermark{rv: "1"}
		fresh.Track(pods, podCache)
		var mu sync.Mutex
		var reconciled []string
		r := reconcile.ReconcilerFunc(func(_ context.Context, req reconcile.Request) (reconcile.Result, error) {
			mu.Lock()
			defer mu.Unlock()
			if _, exists, _ := inf.GetIndexer().GetByKey(req.String()); !exists {
				return reconcile.Result{}, nil // deleted: nothing to write
			}
			reconciled = append(reconciled, req.Name)
			return reconcile.Result{}, fresh.WroteAt(req.NamespacedName, pods, "1000") // "created a pod at 1000"
		})
		c := newController(t, r, reconcile.Options{Freshness: fresh})
		if err := reconcile.For(c, inf); err != nil {
			t.Fatal(err)
		}
		fac.Start(t.Context())
		defer fac.Shutdown()
		stop := start(t, c)
		defer stop()
		widgets := client.New[*apiservertest.Widget](srv).Namespace("ns")
		w, err := widgets.Create(t.Context(), apiservertest.NewWidget("ns", "a"), meta.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		w.Spec.Size = 2
		if _, err := widgets.Update(t.Context(), w, meta.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second) // retries at 5ms, 10ms, ...: all skipped
		synctest.Wait()
		skips := c.Metrics().StaleSyncSkips
		if skips < 5 {
			t.Errorf("StaleSyncSkips = %d after a second of a lagging cache, want several", skips)
		}
		podCache.set("1000")
		time.Sleep(time.Minute) // past the backoff
		synctest.Wait()
		mu.Lock()
		if diff := cmp.Diff([]string{"a", "a"}, reconciled); diff != "" {
			t.Errorf("reconciles (-want +got):\n%s", diff)
		}
		mu.Unlock()
		if got := c.Metrics().StoreResourceVersions; !cmp.Equal(got, []reconcile.StoreResourceVersion{{Resource: pods, Version: 1000}}) {
			t.Errorf("StoreResourceVersions = %v", got)
		}
		// Its next write is at 1000 again; the cache falls behind (a
		// restarted informer, say); the object is deleted: cleared.
		podCache.set("")
		if err := widgets.Delete(t.Context(), "a", meta.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if !fresh.EnsureReady(reconcile.NamespacedName{Namespace: "ns", Name: "a"}) {
			t.Error("a deleted object's writes still hold it back")
		}
	})
}

// With FreshnessRetry a skipped request comes back after that fixed
// wait, not after the queue's growing failure backoff.
func TestFreshnessRetryWaitsAFixedTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fresh := reconcile.NewFreshness()
		cache := &watermark{rv: "1"}
		fresh.Track(pods, cache)
		if err := fresh.WroteAt(soup.NamespacedName, pods, "2"); err != nil {
			t.Fatal(err)
		}
		r := newRecorder(returns(reconcile.Result{}, nil))
		c := newController(t, r, reconcile.Options{Freshness: fresh, FreshnessRetry: 50 * time.Millisecond})
		c.Queue().Add(soup)
		time.AfterFunc(70*time.Millisecond, func() { cache.set("2") })
		if err := runFor(t, c, time.Second); err != nil {
			t.Fatal(err)
		}
		// Tried at 0 and 50ms (skipped), reconciled at 100ms; the
		// default backoff would have skipped at 0, 5, 15 and 35ms.
		if got := c.Metrics().StaleSyncSkips; got != 2 {
			t.Errorf("StaleSyncSkips = %d, want 2", got)
		}
		if got := c.Metrics().ReconcileTotal.Success; got != 1 {
			t.Errorf("reconciled %d times, want 1", got)
		}
	})
}

// Behind a queue that is not atomic the informer's cache reports no
// resourceVersion (client-go's store with AtomicFIFO off), so Freshness
// cannot tell how far it has got and holds nothing back, as
// kube-controller-manager's consistency store: every change is
// reconciled, none is skipped, though the recorded writes are far ahead
// of anything the cache has.
func TestFreshnessOverACacheThatCannotTell(t *testing.T) {
	for _, k := range []informer.QueueKind{informer.QueueInOrder, informer.QueueDeltaFIFO} {
		t.Run(k.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := apiservertest.NewServer(t)
				fac := informer.NewSharedInformerFactory(srv, 0, informer.WithQueue(k))
				inf := informer.InformerFor[*apiservertest.Widget](fac)
				widgetsGR := meta.GroupResource{Group: "example.com", Resource: "widgets"}
				fresh := reconcile.NewFreshness()
				fresh.Track(widgetsGR, inf.GetIndexer())
				var mu sync.Mutex
				var sizes []int
				r := reconcile.ReconcilerFunc(func(_ context.Context, req reconcile.Request) (reconcile.Result, error) {
					w, exists, _ := inf.GetIndexer().GetByKey(req.String())
					if !exists {
						return reconcile.Result{}, nil
					}
					mu.Lock()
					sizes = append(sizes, w.Spec.Size)
					mu.Unlock()
					return reconcile.Result{}, fresh.WroteAt(req.NamespacedName, widgetsGR, "1000000") // far ahead
				})
				c := newController(t, r, reconcile.Options{Freshness: fresh})
				if err := reconcile.For(c, inf); err != nil {
					t.Fatal(err)
				}
				fac.Start(t.Context())
				defer fac.Shutdown()
				stop := start(t, c)
				defer stop()
				widgets := client.New[*apiservertest.Widget](srv).Namespace("ns")
				w, err := widgets.Create(t.Context(), apiservertest.NewWidget("ns", "a"), meta.CreateOptions{})
				if err != nil {
					t.Fatal(err)
				}
				synctest.Wait()
				w.Spec.Size = 2
				if _, err := widgets.Update(t.Context(), w, meta.UpdateOptions{}); err != nil {
					t.Fatal(err)
				}
				time.Sleep(time.Minute)
				synctest.Wait()
				if rv := inf.GetIndexer().LastStoreSyncResourceVersion(); rv != "" {
					t.Errorf("LastStoreSyncResourceVersion = %q behind %s, want \"\"", rv, k)
				}
				mu.Lock()
				if diff := cmp.Diff([]int{0, 2}, sizes); diff != "" {
					t.Errorf("sizes reconciled (-want +got):\n%s", diff)
				}
				mu.Unlock()
				if got := c.Metrics().StaleSyncSkips; got != 0 {
					t.Errorf("StaleSyncSkips = %d, want 0", got)
				}
				if got := c.Metrics().StoreResourceVersions; !cmp.Equal(got, []reconcile.StoreResourceVersion{{Resource: widgetsGR, Version: 0}}) {
					t.Errorf("StoreResourceVersions = %v, want version 0 (none)", got)
				}
			})
		})
	}
}
