package liveview_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/kitchensync/kitchensync/kitchen/liveview"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
	"github.com/kitchensync/kitchensync/trace"
)

// A Gate pauses the real kitchen at its hand-offs: wired in through the
// restaurant's seams before it opens, it holds the runner's watch event
// for a new order; one step lets exactly that hand-off through, and the
// kitchen waits again at the next one — a worker about to hand the
// order's ticket to the chef.
func ExampleGate() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	gate := liveview.NewGate()
	cfg := restaurant.Config{Tracer: trace.New()}
	gate.Pace(&cfg)
	r, err := restaurant.Open(ctx, cfg)
	if err != nil {
		panic(err)
	}
	go r.Run(ctx)
	r.WaitReady(ctx)
	view := liveview.Handler(ctx, r, liveview.WithGate(gate))

	gate.Pause()
	view.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/actions/place?dish=caesar-salad", nil))
	fmt.Println("held:", waitHeld(ctx, gate))
	h, _ := gate.Step(0)
	fmt.Println("stepped:", h.Text)
	fmt.Println("held:", waitHeld(ctx, gate))
	gate.Resume()
	// Output:
	// held: orders watch: ADDED order-001 rv 8 → reflector
	// stepped: orders watch: ADDED order-001 rv 8 → reflector
	// held: the chef: a worker took order-001 off the ticket-rail → reconcile
}

// waitHeld waits until the gate holds a hand-off, and returns its text.
func waitHeld(ctx context.Context, g *liveview.Gate) string {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if h, ok := g.WaitHeld(ctx); ok {
		return h.Text
	}
	return "nothing held"
}
