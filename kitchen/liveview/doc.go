// Package liveview is "the pass": a web page that shows the restaurant's
// machinery moving, served by the Go process itself.
//
// In a restaurant the pass is the counter between the kitchen and the
// dining room, where the head chef sees every plate go by. This page is
// the same for kitchensync: one lane per part — the waiter, the front desk
// (the API server, with its current resourceVersion), the runner (the
// informer: its DeltaFIFO's pending deltas and its cache), the ticket rail
// (the workqueue: waiting, delayed and rate-limited tickets, VIP first),
// the chef (what each reconcile worker is working on) and the cooks at
// their stations — and each hand-off moving from lane to lane with its
// resourceVersion. Click an order to follow only its path, with its YAML
// and its history.
//
// # One call
//
// [Handler] returns the page of a [restaurant.Restaurant] as an
// [net/http.Handler]; [Serve] serves it together with the restaurant's
// Kubernetes API (package httpapi), so that kubectl and the page share an
// address, behind one door:
//
//	r, _ := restaurant.Open(ctx, restaurant.Config{Tracer: trace.New()})
//	site := liveview.NewSite(ctx, r) // subscribes now: the page sees the first LIST
//	go r.Run(ctx)
//	ln, _ := net.Listen("tcp", "127.0.0.1:0")
//	fmt.Println("http://" + ln.Addr().String())
//	site.Serve(ctx, ln) // or liveview.Serve(ctx, ln, r) in one call
//
// `go run ./examples/serve` does exactly this.
//
// # The door
//
// [Serve] and [NewSite] answer only loopback Host names by default, so
// that a web page whose name is rebound to 127.0.0.1 can neither read the
// kitchen nor press its buttons; [WithAcceptHosts] widens that, and
// [WithBearerToken] asks every request for a token (a header for kubectl,
// a cookie for the browser, set by opening the page once with
// ?token=TOKEN). Buttons pressed from another site are refused. [Handler]
// alone has no door: mount it behind one.
//
// # Where the page's news comes from
//
// Two sources, neither of which can slow the kitchen down:
//
//   - the restaurant's [trace.Tracer] ([restaurant.Config].Tracer), read
//     through a [trace.Feed]: a buffered channel that drops records when
//     the page falls behind (the page counts them) instead of blocking a
//     write or a queue;
//   - the view's own event handlers on the runner's shared informers, as
//     any controller would add: phases, finalizers, deletions, cooks and
//     the garbage collector's work, and each order's YAML.
//
// Several times a second the view sends every open page one frame over
// Server-Sent Events (GET /events): the whole state of the lanes, which
// is small, plus the events since the last frame. A burst of events (rush
// hour) is coalesced: a frame carries at most the newest 160, and says how
// many it left out. A page that cannot keep up is not waited for: when it
// is ready again, its next frame has the newest state and the events it
// has not had yet, so it misses nothing without being told. Where
// a component is not traced the page infers what it can (an order whose
// status the chef wrote went through the rail) and says what it cannot
// show.
//
// # Buttons
//
// Every button is a POST to /actions/{name} that acts on the real server
// and answers JSON ({"message": ...} or {"error": ...} with a 4xx status
// naming the bad field): place, vip, rush, truffle and cancel (the form
// field "order", else the newest open order), cut-watches
// ([apiserver.Server.CloseWatches]), compact
// ([apiserver.Server.CompactHistory]; the runner's next watches are
// answered 410 Expired and the watches cut, so that it lists again), fail (the next "n" updates fail with 429),
// slow (every request takes "ms"), and speed (a kitchen minute lasts
// "minute" ms, [kitchen.Clock.SetMinute]).
//
// The page itself is three small embedded files (HTML, CSS and plain
// JavaScript): no build step, no framework, nothing loaded from the
// internet. It is usable from the keyboard (each button has a key, Esc
// stops following an order) and on a phone-sized screen.
package liveview
