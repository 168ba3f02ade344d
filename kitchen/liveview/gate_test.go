package liveview_test

import (
	"context"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/liveview"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
	"github.com/kitchensync/kitchensync/trace"
)

// openGated runs a traced restaurant whose seams pass a gate, with its
// live view, inside the test's bubble.
func openGated(t *testing.T) (*restaurant.Restaurant, *liveview.View, *liveview.Gate) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	g := liveview.NewGate()
	cfg := restaurant.Config{Tracer: trace.New(), Events: true}
	g.Pace(&cfg)
	r, err := restaurant.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	v := liveview.Handler(ctx, r, liveview.WithGate(g)) // before Run, as examples/serve: it sees the first list and watch
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	if !r.WaitReady(ctx) {
		t.Fatal("the restaurant did not open")
	}
	return r, v, g
}

// TestGateHoldsTheKitchenAndStepsOneHandOff: paused, the kitchen's next
// hand-off really waits; a step lets exactly that one through, and the
// kitchen waits again at the next; resumed, the order is served.
func TestGateHoldsTheKitchenAndStepsOneHandOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, v, g := openGated(t)
		if code, out := post(t, v, "/actions/pause"); code != http.StatusOK {
			t.Fatalf("pause: %d %v", code, out)
		}
		post(t, v, "/actions/place?dish=caesar-salad")
		synctest.Wait()
		s := g.State()
		if !s.Paused || len(s.Waiting) != 1 || s.Waiting[0].What != "event" || s.Waiting[0].Key != "dinner/order-001" {
			t.Fatalf("paused after placing an order: %+v, want the order's watch event held", s)
		}
		if _, ok, _ := r.Runner.Orders.GetIndexer().GetByKey("dinner/order-001"); ok {
			t.Fatal("the runner's cache has the order while its watch event is held")
		}
		code, out := post(t, v, "/actions/step")
		if code != http.StatusOK {
			t.Fatalf("step: %d %v", code, out)
		}
		synctest.Wait()
		after := g.State()
		if after.Passed != s.Passed+1 || after.Stepped != 1 {
			t.Errorf("one step: passed %d → %d, stepped %d; want exactly one hand-off", s.Passed, after.Passed, after.Stepped)
		}
		if _, ok, _ := r.Runner.Orders.GetIndexer().GetByKey("dinner/order-001"); !ok {
			t.Error("after the step, the runner's cache does not have the order")
		}
		if len(after.Waiting) != 1 || after.Waiting[0].What != "take" || after.Waiting[0].Key != "dinner/order-001" {
			t.Errorf("after one step, held: %+v; want a worker holding the order's ticket", after.Waiting)
		}
		if code, out := post(t, v, "/actions/step?id=999"); code != http.StatusConflict {
			t.Errorf("step of nothing held: %d %v, want 409", code, out)
		}
		post(t, v, "/actions/resume")
		served := func(o *kitchen.Order) bool { return o != nil && o.Status.Phase == kitchen.OrderServed }
		if err := r.WaitForOrder(t.Context(), "order-001", served); err != nil {
			t.Fatal(err)
		}
	})
}

// TestScenesRunToTheirEnd plays every guided scene: each is held at its
// key hand-off, stepped there, and runs to its end with the answer.
func TestScenesRunToTheirEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, v, g := openGated(t)
		var scenes []struct{ ID string }
		get(t, v, "/scenes", &scenes)
		if len(scenes) != 9 {
			t.Fatalf("%d scenes, want 9", len(scenes))
		}
		for _, sc := range scenes {
			if code, out := post(t, v, "/actions/scene?name="+sc.ID); code != http.StatusOK {
				t.Fatalf("scene %s: %d %v", sc.ID, code, out)
			}
			st := waitScene(t, v, "held")
			if st.Key == nil || !g.State().Paused {
				t.Fatalf("scene %s held without a key or a paused gate: %+v", sc.ID, st)
			}
			post(t, v, "/actions/scene-next")
			st = waitScene(t, v, "done")
			if st.Explain == "" || st.Answer < 0 {
				t.Errorf("scene %s done without its answer: %+v", sc.ID, st)
			}
			post(t, v, "/actions/scene-leave")
		}
	})
}

type sceneState struct {
	ID, Phase, Error, Explain string
	Answer                    int
	Key                       *struct{ Text string }
}

// waitScene waits (in the bubble's time) until the scene reaches phase.
func waitScene(t *testing.T, v *liveview.View, phase string) sceneState {
	t.Helper()
	for range 600 {
		var f struct{ Scene sceneState }
		get(t, v, "/state", &f)
		switch f.Scene.Phase {
		case phase:
			return f.Scene
		case "failed":
			t.Fatalf("scene %s failed: %s", f.Scene.ID, f.Scene.Error)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("the scene did not reach %s in a minute", phase)
	return sceneState{}
}

// TestWaitHeld: WaitHeld returns once the gate holds a hand-off (the
// oldest it holds), and false when its context ends or the gate closes
// first; a nil gate holds nothing.
func TestWaitHeld(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, v, g := openGated(t)
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		if h, ok := g.WaitHeld(ctx); ok {
			t.Fatalf("WaitHeld on a running gate with nothing held: %+v, want false after its context", h)
		}
		post(t, v, "/actions/pause")
		got := make(chan liveview.Hold, 1)
		go func() {
			h, _ := g.WaitHeld(t.Context())
			got <- h
		}()
		synctest.Wait()
		select {
		case h := <-got:
			t.Fatalf("WaitHeld returned %+v before anything was held", h)
		default:
		}
		post(t, v, "/actions/place?dish=caesar-salad")
		if h := <-got; h.What != "event" || h.Key != "dinner/order-001" {
			t.Errorf("WaitHeld: %+v, want the new order's watch event", h)
		}
		var none *liveview.Gate
		if _, ok := none.WaitHeld(t.Context()); ok {
			t.Error("a nil gate's WaitHeld: true, want false")
		}
		closing := liveview.NewGate()
		closing.Close()
		if _, ok := closing.WaitHeld(t.Context()); ok {
			t.Error("a closed gate's WaitHeld: true, want false")
		}
		post(t, v, "/actions/resume")
	})
}
