package main

import (
	"context"
	"fmt"
	"io"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/examples/internal/stock"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
	"github.com/kitchensync/kitchensync/reconcile"
)

// railWave is how many orders TestRailForgetsOrdersThatAreGone keeps open
// at once.
const railWave = 250

// raceEnabled is set by race_test.go when the tests run with -race.
var raceEnabled bool

// railOrders is how many orders TestRailForgetsOrdersThatAreGone puts
// through serve's kitchen: 100,000 take a minute and a half on a quiet
// machine, and the race detector makes that ten or more; under it, 5,000
// check the same.
func railOrders() int {
	if raceEnabled {
		return 5_000
	}
	return 100_000
}

// TestRailForgetsOrdersThatAreGone runs 100,000 orders through the kitchen
// the command serves — a wave of tables at a time orders, is served and
// leaves (the waiter deletes the order) — in virtual time, and checks
// after each wave that the ticket rail remembers no more orders than are
// open: a serve that runs for months does not keep every order it ever
// saw.
func TestRailForgetsOrdersThatAreGone(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 orders")
	}
	o, err := parse(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	cfg := kitchenConfig(o)
	n := railOrders()
	cfg.Stock = stock.Times(n/100 + 200) // serve's, and enough for n orders
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		r, err := restaurant.Open(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		ran := make(chan error, 1)
		go func() { ran <- r.Run(ctx) }()
		if !r.WaitReady(ctx) {
			t.Fatal("the restaurant did not open")
		}
		w := watchOrders(t, r)
		menu := kitchen.DefaultMenu()
		most := 0
		for first := 0; first < n; first += railWave {
			names := make([]string, railWave)
			for i := range names {
				names[i] = fmt.Sprintf("order-%06d", first+i)
				o := &kitchen.Order{ObjectMeta: meta.ObjectMeta{Name: names[i]}, Spec: kitchen.OrderSpec{Table: 1 + i%20,
					Items: []kitchen.OrderItem{{Dish: menu[(first+i)%len(menu)].Name, Quantity: 1}}}}
				if _, err := r.Waiter.Place(ctx, o); err != nil {
					t.Fatal(err)
				}
			}
			w.waitFor(t, first+railWave, first)
			if got := r.Rail.Known(); got > railWave {
				t.Fatalf("with %d orders open the rail remembers %d", railWave, got)
			}
			for _, name := range names {
				if err := r.Waiter.Cancel(ctx, name); err != nil {
					t.Fatal(err)
				}
			}
			w.waitFor(t, first+railWave, first+railWave)
			synctest.Wait() // the chef has worked every ticket of the wave
			most = max(most, r.Rail.Known())
			if got := r.Rail.Known(); got > railWave {
				t.Fatalf("after %d orders the rail remembers %d, more than the %d open at once", first+railWave, got, railWave)
			}
		}
		if got := r.Rail.Known(); got != 0 {
			t.Errorf("every order is gone, yet the rail remembers %d", got)
		}
		req := reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: r.Namespace, Name: "order-000000"}}
		if _, ok := r.Rail.AdmittedAt(req); ok {
			t.Errorf("the rail still knows when %s was admitted", req)
		}
		t.Logf("%d orders, %d open at once: the rail remembered at most %d after a wave", n, railWave, most)
		cancel()
		if err := <-ran; err != nil {
			t.Fatal(err)
		}
	})
}

// orderWatch counts, through the runner's cache, the orders that reached
// a final phase (served, or rejected) and the orders gone.
type orderWatch struct {
	mu                    sync.Mutex // guards the counts
	final, rejected, gone int
	poke                  chan struct{}
}

func watchOrders(t *testing.T, r *restaurant.Restaurant) *orderWatch {
	w := &orderWatch{poke: make(chan struct{}, 1)}
	_, err := r.Runner.Orders.AddEventHandler(informer.ResourceEventHandlerFuncs[*kitchen.Order]{
		UpdateFunc: func(old, o *kitchen.Order) {
			if !old.Status.Phase.Final() && o.Status.Phase.Final() {
				w.count(1, 0, o.Status.Phase == kitchen.OrderRejected)
			}
		},
		DeleteFunc: func(*kitchen.Order, bool) { w.count(0, 1, false) },
	})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// waitFor waits until final orders have reached a final phase and gone
// orders have gone. Every order must be served: a rejection fails t.
func (w *orderWatch) waitFor(t *testing.T, final, gone int) {
	t.Helper()
	for {
		w.mu.Lock()
		done, rejected := w.final >= final && w.gone >= gone, w.rejected
		w.mu.Unlock()
		if rejected > 0 {
			t.Fatalf("%d orders rejected", rejected)
		}
		if done {
			return
		}
		select {
		case <-w.poke:
		case <-t.Context().Done():
			t.Fatalf("waiting for %d served and %d gone: %v", final, gone, t.Context().Err())
		}
	}
}

func (w *orderWatch) count(final, gone int, rejected bool) {
	w.mu.Lock()
	w.final += final
	w.gone += gone
	if rejected {
		w.rejected++
	}
	w.mu.Unlock()
	select {
	case w.poke <- struct{}{}:
	default:
	}
}
