package liveview

import (
	"context"
	"embed"
	"io/fs"
	"net/http"
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
	"github.com/kitchensync/kitchensync/trace"
)

//go:embed static
var static embed.FS

// How often the page hears from the view, and how much it remembers.
const (
	frameInterval  = 250 * time.Millisecond // one frame of state and events
	sampleInterval = time.Second            // one point of the chart
	chartPoints    = 90
	feedBuffer     = 8192 // trace records waiting for the view before some are dropped
)

// View is the live view of one restaurant: an [http.Handler] serving the
// page, its Server-Sent Events and its buttons. Create it with [Handler];
// it is safe for concurrent use.
type View struct {
	r      *restaurant.Restaurant
	m      *model
	feed   *trace.Feed
	hub    *hub
	mux    *http.ServeMux
	gate   *Gate
	scenes *scenes
	kick   chan struct{} // a frame now: the gate held or released a hand-off
	done   <-chan struct{}
	rush   rushState

	mu       sync.Mutex // guards the fields below
	names    int        // orders placed from the page, for their names
	slow     time.Duration
	polling  float64 // requests a polling kitchen would have made
	lastTick time.Time
	lastHist [2]float64 // chef reconcile count and seconds at the last sample
	chart    []sample
}

// Handler returns the live view of r, which runs until ctx ends: it
// subscribes to r's tracer (if any) and to the runner's informers, and
// serves the page at "/". Mount it at the root of a server (the page
// links to /static/, /events, /orders/ and /actions/). Of opts, only
// [WithGate] matters here (the door is [NewSite]'s); the view closes the
// gate when ctx ends, so that a kitchen stopping then does not wait at it.
//
// The trace reaches the view through a [trace.Feed]: the machinery never
// waits for the page, and records that find the feed full are dropped and
// counted on the page.
func Handler(ctx context.Context, r *restaurant.Restaurant, opts ...Option) *View {
	set := newSettings(opts)
	v := &View{r: r, m: newModel(r.Clock), feed: r.Tracer.Feed(feedBuffer), hub: newHub(), lastTick: time.Now(),
		gate: set.gate, kick: make(chan struct{}, 1), done: ctx.Done()}
	v.scenes = newScenes(v)
	v.gate.notify(v.kickFrame)
	v.routes()
	// An informer refuses handlers only once it has stopped: then there
	// is nothing left to show but the trace.
	stop, err := v.listen()
	if err != nil {
		stop = func() {}
	}
	go v.run(ctx, stop)
	return v
}

// ServeHTTP serves the page, its events, an order's details and the
// buttons.
func (v *View) ServeHTTP(w http.ResponseWriter, r *http.Request) { v.mux.ServeHTTP(w, r) }

func (v *View) routes() {
	files, _ := fs.Sub(static, "static")
	a := loadAssets(files)
	v.mux = http.NewServeMux()
	v.mux.HandleFunc("GET /{$}", a.serve)
	v.mux.HandleFunc("GET /static/", a.serve)
	v.mux.HandleFunc("GET /favicon.ico", a.serve)
	v.mux.HandleFunc("GET /events", v.serveEvents)
	v.mux.HandleFunc("GET /state", v.serveState)
	v.mux.HandleFunc("GET /scenes", v.serveScenes)
	v.mux.HandleFunc("GET /orders/{name}", v.serveOrder)
	v.mux.HandleFunc("POST /actions/{action}", v.serveAction)
}

// run feeds the model from the trace and the informers, and sends a
// frame to the page every frameInterval, until ctx ends.
func (v *View) run(ctx context.Context, unlisten func()) {
	defer v.hub.close()
	defer v.gate.Close()
	defer v.feed.Close()
	defer unlisten()
	frames := time.NewTicker(frameInterval)
	defer frames.Stop()
	samples := time.NewTicker(sampleInterval)
	defer samples.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case rec := <-v.feed.C:
			v.m.applyRecord(rec)
		case <-frames.C:
			v.tick()
		case <-v.kick:
			v.drain()
			v.tick()
		case <-samples.C:
			v.sample()
		}
	}
}

// kickFrame asks for a frame at once: a step of the gate shows without
// waiting for the next tick. It never blocks.
func (v *View) kickFrame() {
	select {
	case v.kick <- struct{}{}:
	default:
	}
}

// drain files the trace records waiting in the feed, so that a frame sent
// at once after a step has what the step did (as far as it got).
func (v *View) drain() {
	for {
		select {
		case rec, ok := <-v.feed.C:
			if !ok {
				return
			}
			v.m.applyRecord(rec)
		default:
			return
		}
	}
}

// listen adds the view's handlers to the runner's informers, and returns
// the function that removes them.
func (v *View) listen() (func(), error) {
	runner := v.r.Runner
	orders, err := runner.Orders.AddEventHandler(orderEvents{v.m})
	if err != nil {
		return nil, err
	}
	unsubscribe := v.m.gc.listen(v.r.Tracer)
	cooks, err := runner.Cooks.AddEventHandler(cookEvents{v.m})
	if err != nil {
		unsubscribe()
		_ = runner.Orders.RemoveEventHandler(orders)
		return nil, err
	}
	return func() {
		_ = runner.Orders.RemoveEventHandler(orders)
		_ = runner.Cooks.RemoveEventHandler(cooks)
		unsubscribe()
	}, nil
}

// tick counts what polling would have cost, and sends a frame to every
// page that listens (events are dropped when nobody does).
func (v *View) tick() {
	open := v.m.openOrders()
	v.mu.Lock()
	now := time.Now()
	minutes := v.r.Clock.Kitchen(now.Sub(v.lastTick)).Minutes()
	v.lastTick = now
	v.polling += float64(1+2*open) * minutes
	v.mu.Unlock()
	if !v.hub.listening() {
		v.m.takeEvents()
		return
	}
	v.hub.broadcast(v.frame(true))
}

var _ informer.ResourceEventHandler[*kitchen.Order] = orderEvents{}
