package reconcile_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/kitchensync/kitchensync/reconcile"
)

// At shutdown the reconcile in progress finishes, and the requests still
// queued are dropped rather than reconciled with a cancelled context.
func TestShutdownDropsQueuedRequests(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		var calls atomic.Int32
		finished := false
		r := reconcile.ReconcilerFunc(func(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
			if calls.Add(1) == 1 {
				cancel() // the shutdown signal arrives during the first reconcile
				<-ctx.Done()
				finished = true
			}
			return reconcile.Result{}, nil
		})
		c, err := reconcile.NewController("chef", r, reconcile.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 100 {
			c.Queue().Add(req(fmt.Sprintf("table-%03d", i)))
		}
		if err := c.Start(ctx); err != nil {
			t.Fatal(err)
		}
		if !finished {
			t.Error("the reconcile in progress did not finish")
		}
		if got := calls.Load(); got != 1 {
			t.Errorf("reconciles = %d, want 1: the 99 queued requests must be dropped at shutdown", got)
		}
	})
}
