package reconcile_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/kitchensync/kitchensync/reconcile"
)

// With Options.Elected, a standby controller reconciles nothing until it
// is elected; then it works off what was queued meanwhile.
func TestControllerWaitsUntilElected(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var calls atomic.Int32
		r := reconcile.ReconcilerFunc(func(context.Context, reconcile.Request) (reconcile.Result, error) {
			calls.Add(1)
			return reconcile.Result{}, nil
		})
		elected := make(chan struct{})
		c, err := reconcile.NewController("chef", r, reconcile.Options{Elected: elected})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		wg.Go(func() { _ = c.Start(ctx) })
		c.Queue().Add(req("table-1"))
		c.Queue().Add(req("table-2"))
		synctest.Wait()
		if n := calls.Load(); n != 0 {
			t.Fatalf("a standby reconciled %d requests, want none before it is elected", n)
		}
		close(elected)
		<-c.Running()
		synctest.Wait()
		if n := calls.Load(); n != 2 {
			t.Errorf("after the election: %d reconciles, want 2", n)
		}
		cancel()
		wg.Wait()
	})
}

// A standby whose context ends before it is elected returns nil.
func TestControllerNeverElectedStops(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, err := reconcile.NewController("chef", reconcile.ReconcilerFunc(
			func(context.Context, reconcile.Request) (reconcile.Result, error) { return reconcile.Result{}, nil }),
			reconcile.Options{Elected: make(chan struct{})})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if err := c.Start(ctx); err != nil {
			t.Errorf("Start = %v, want nil", err)
		}
	})
}
