package restaurant

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/reconcile"
)

// Run opens the kitchen: the runner starts watching, and once it has seen
// everything the chef and the brigade start working. Run blocks until ctx
// is done, then stops everything, waits for every goroutine and returns
// (nil after a normal close). A restaurant opens once: a second Run
// returns an error at once.
func (r *Restaurant) Run(ctx context.Context) error {
	first := false
	r.runOnce.Do(func() { first = true })
	if !first {
		return errors.New("kitchen: the restaurant has already been opened once")
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
		r.Runner.Shutdown()
		r.shutDownQueues()
		r.Stations.Close()
		r.untell()
		if r.closeServer != nil {
			r.closeServer()
		}
	}()
	r.Runner.Start(ctx)
	if !r.Runner.WaitForCacheSync(ctx) {
		return nil // ctx ended first
	}
	if r.deskOnly {
		close(r.ready)
		<-ctx.Done()
		return nil
	}
	errs := make(chan error, 2)
	if r.recorder != nil {
		wg.Go(func() { r.recorder.Run(ctx) })
	}
	wg.Go(func() { errs <- r.chefs.Start(ctx) })
	wg.Go(func() { errs <- r.cooks.Start(ctx) })
	for _, running := range []<-chan struct{}{r.chefs.Running(), r.cooks.Running()} {
		select {
		case <-running:
		case <-ctx.Done():
		}
	}
	if ctx.Err() == nil {
		close(r.ready)
	}
	<-ctx.Done()
	cancel()
	wg.Wait()
	close(errs)
	var all []error
	for err := range errs {
		all = append(all, err)
	}
	return errors.Join(all...)
}

// WaitReady blocks until [Restaurant.Run] has synced the runner's caches
// and started the chef and the brigade, or until ctx ends (false). Orders
// placed before then are not lost — the runner's first list finds them —
// but waiting keeps the narration in the order things happen.
func (r *Restaurant) WaitReady(ctx context.Context) bool {
	select {
	case <-r.ready:
		return true
	case <-ctx.Done():
		return false
	}
}

// ChefMetrics returns the chef controller's metrics (reconciles by
// result, errors, durations).
func (r *Restaurant) ChefMetrics() reconcile.Metrics { return r.chefs.Metrics() }

// BrigadeMetrics returns the brigade controller's metrics.
func (r *Restaurant) BrigadeMetrics() reconcile.Metrics { return r.cooks.Metrics() }

// WaitForOrder blocks until cond holds for the order name (in the
// restaurant's namespace) as the runner's cache has it — cond gets nil
// once the order is gone — or until ctx ends. Tests and lessons use it to
// wait for a phase without polling.
func (r *Restaurant) WaitForOrder(ctx context.Context, name string, cond func(*kitchen.Order) bool) error {
	poke := make(chan struct{}, 1)
	wake := func() {
		select {
		case poke <- struct{}{}:
		default:
		}
	}
	reg, err := r.Runner.Orders.AddEventHandler(informer.ResourceEventHandlerFuncs[*kitchen.Order]{
		AddFunc:    func(*kitchen.Order, bool) { wake() },
		UpdateFunc: func(_, _ *kitchen.Order) { wake() },
		DeleteFunc: func(*kitchen.Order, bool) { wake() },
	})
	if err != nil {
		return err
	}
	defer func() { _ = r.Runner.Orders.RemoveEventHandler(reg) }()
	for {
		o, ok, err := r.Runner.Orders.GetIndexer().GetByKey(r.Namespace + "/" + name)
		if err != nil {
			return err
		}
		if !ok {
			o = nil
		}
		if cond(o) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for order %s: %w", name, ctx.Err())
		case <-poke:
		}
	}
}
