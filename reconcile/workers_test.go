package reconcile_test

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/reconcile"
)

func req(name string) reconcile.Request {
	return reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "kitchen", Name: name}}
}

// gate is a Reconciler whose reconciles block until their key is released,
// and which records overlaps of a key with itself.
type gate struct {
	entered chan reconcile.Request
	mu      sync.Mutex // guards the fields below
	release map[reconcile.Request]chan struct{}
	running map[reconcile.Request]int
	counts  map[reconcile.Request]int
	overlap []reconcile.Request
}

func newGate(keys ...reconcile.Request) *gate {
	g := &gate{entered: make(chan reconcile.Request, 100), release: map[reconcile.Request]chan struct{}{},
		running: map[reconcile.Request]int{}, counts: map[reconcile.Request]int{}}
	for _, k := range keys {
		g.release[k] = make(chan struct{})
	}
	return g
}

func (g *gate) Reconcile(ctx context.Context, r reconcile.Request) (reconcile.Result, error) {
	g.mu.Lock()
	g.running[r]++
	if g.running[r] > 1 {
		g.overlap = append(g.overlap, r)
	}
	ch := g.release[r]
	g.mu.Unlock()
	g.entered <- r
	<-ch
	g.mu.Lock()
	g.running[r]--
	g.counts[r]++
	g.mu.Unlock()
	return reconcile.Result{}, nil
}

// noneEntered fails if a reconcile started since the last receive.
func (g *gate) noneEntered(t *testing.T) {
	t.Helper()
	synctest.Wait()
	select {
	case r := <-g.entered:
		t.Errorf("%v was reconciled, want no reconcile", r)
	default:
	}
}

// start runs c.Start in the background; stop cancels it and returns its
// result once it has returned.
func start(t *testing.T, c *reconcile.Controller) (stop func() error) {
	ctx, cancel := context.WithCancel(t.Context())
	errc := make(chan error, 1)
	go func() { errc <- c.Start(ctx) }()
	return func() error {
		cancel()
		return <-errc
	}
}

func TestWorkersRunKeysInParallelButNeverAKeyTwice(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a, b, c, d := req("a"), req("b"), req("c"), req("d")
		g := newGate(a, b, c, d)
		ctrl := newController(t, g, reconcile.Options{MaxConcurrentReconciles: 4})
		stop := start(t, ctrl)
		for _, r := range []reconcile.Request{a, b, c, d} {
			ctrl.Queue().Add(r)
		}
		// All four are in Reconcile at once.
		got := map[reconcile.Request]bool{}
		for range 4 {
			got[<-g.entered] = true
		}
		if len(got) != 4 {
			t.Fatalf("entered %v, want a, b, c and d", got)
		}
		checkMetrics(t, ctrl, reconcile.Metrics{ActiveWorkers: 4, MaxConcurrentReconciles: 4})

		// Free a worker, then add a (twice) while a is still running: the
		// free worker must not take it.
		close(g.release[d])
		synctest.Wait()
		ctrl.Queue().Add(a)
		ctrl.Queue().Add(a)
		g.noneEntered(t)
		checkMetrics(t, ctrl, reconcile.Metrics{ReconcileTotal: reconcile.ReconcileTotals{Success: 1},
			ActiveWorkers: 3, MaxConcurrentReconciles: 4})

		// Once a finishes, it runs exactly once more.
		close(g.release[a])
		if r := <-g.entered; r != a {
			t.Errorf("after a finished, %v was reconciled, want a", r)
		}
		g.noneEntered(t)
		close(g.release[b])
		close(g.release[c])
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		want := map[reconcile.Request]int{a: 2, b: 1, c: 1, d: 1}
		if diff := cmp.Diff(want, g.counts); diff != "" {
			t.Errorf("reconciles per key (-want +got):\n%s", diff)
		}
		if len(g.overlap) > 0 {
			t.Errorf("keys reconciled concurrently with themselves: %v", g.overlap)
		}
		checkMetrics(t, ctrl, reconcile.Metrics{ReconcileTotal: reconcile.ReconcileTotals{Success: 5},
			MaxConcurrentReconciles: 4})
	})
}

// Cancelling Start's context lets the reconciles in progress finish (they
// see the context cancelled) before Start returns.
func TestShutdownWaitsForReconcilesInProgress(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var sawCancel bool
		release := make(chan struct{})
		entered := make(chan struct{})
		r := reconcile.ReconcilerFunc(func(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
			close(entered)
			<-release
			sawCancel = ctx.Err() != nil
			return reconcile.Result{}, nil
		})
		ctrl := newController(t, r, reconcile.Options{})
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- ctrl.Start(ctx) }()
		ctrl.Queue().Add(soup)
		<-entered
		cancel()
		synctest.Wait()
		select {
		case err := <-done:
			t.Fatalf("Start returned %v while a reconcile was in progress", err)
		default:
		}
		close(release)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if !sawCancel {
			t.Errorf("the reconcile in progress did not see its context cancelled")
		}
		checkMetrics(t, ctrl, reconcile.Metrics{ReconcileTotal: reconcile.ReconcileTotals{Success: 1},
			MaxConcurrentReconciles: 1})
		if !ctrl.Queue().ShuttingDown() {
			t.Errorf("queue not shut down after Start returned")
		}
	})
}

func TestStartTwice(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctrl := newController(t, newRecorder(), reconcile.Options{})
		stop := start(t, ctrl)
		synctest.Wait()
		if err := ctrl.Start(t.Context()); err == nil {
			t.Errorf("second Start returned nil, want an error")
		}
		if err := stop(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestNewControllerRejectsBadInput(t *testing.T) {
	r := newRecorder()
	tests := []struct {
		name  string
		cname string
		r     reconcile.Reconciler
		opts  reconcile.Options
	}{
		{"no name", "", r, reconcile.Options{}},
		{"no reconciler", "x", nil, reconcile.Options{}},
		{"negative workers", "x", r, reconcile.Options{MaxConcurrentReconciles: -1}},
		{"negative timeout", "x", r, reconcile.Options{CacheSyncTimeout: -1}},
	}
	for _, tt := range tests {
		if c, err := reconcile.NewController(tt.cname, tt.r, tt.opts); err == nil || c != nil {
			t.Errorf("%s: NewController = %v, %v; want nil and an error", tt.name, c, err)
		}
	}
}
