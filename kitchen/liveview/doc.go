// Package liveview is "the pass": a web page that shows the restaurant's
// machinery moving, served by the Go process itself.
//
// In a restaurant the pass is the counter between the kitchen and the
// dining room, where the head chef sees every plate go by. This page is
// the same for kitchensync: the machinery drawn as a pipeline (SVG) — the
// waiter writes to the API server (its resourceVersion log), whose watch
// feeds the runner's reflector, its queue (the atomic RealFIFO by
// default: pending keys with their deltas), its indexer (the cache, with
// its section index) and its handlers; they pin tickets on the rail
// (ready, waiting for a token, delayed, backing off, processing, dirty);
// a worker takes each to the reconciler, which writes back to the API
// server and sends cooks to their stations. Each order is a dot that
// travels along the arrows as its trace records arrive; each stage counts
// what went through it. Click an order (or its dot) to follow it: its
// path lights up, and its history (complete, in cause-and-effect order)
// and YAML show beside.
//
// # Pause, step, resume
//
// With a [Gate] wired into the kitchen ([Gate.Pace], then [WithGate]),
// the page's pause button holds the real kitchen at its next hand-off —
// a reflector's list or watch, a watch event, a worker handing a ticket
// to the reconciler, a cook's timer — step lets exactly one held
// hand-off through, and resume lets it run on. The Gate's doc says what
// stepping makes deterministic and what it cannot. The page keeps the
// frames it received, so a slider scrubs back through what happened
// after the fact.
//
// # Guided scenes
//
// Nine scenes, one per lesson with a picture: a watch cut and the
// runner's way back; compaction, 410 Gone, a relist and a tombstone; rush
// hour with the token bucket backing the rail up; a VIP jumping the
// line; dedup of tickets; a 409 Conflict retried; the stale chef, whose
// ticket is skipped while the runner's cache lags his own write (his
// controller's reconcile.Freshness; the reconciler's box counts the
// skips, and the log names the write and the cache's resourceVersion); a
// finalizer and the garbage collector; two chefs and a Lease handover. Each asks its
// question first, sets the real kitchen up, pauses it at the key hand-off
// (held at the gate), lets the learner step it, and explains, naming its
// tour chapter and the go doc to read (POST /actions/scene?name=ID,
// /actions/scene-next, /actions/scene-leave; GET /scenes lists them).
//
// # One call
//
// [Handler] returns the page of a [restaurant.Restaurant] as an
// [net/http.Handler]; [Serve] serves it together with the restaurant's
// Kubernetes API (package httpapi), so that kubectl and the page share an
// address, behind one door:
//
//	gate := liveview.NewGate()
//	cfg := restaurant.Config{Tracer: trace.New()}
//	gate.Pace(&cfg) // the kitchen's hand-offs pass the gate
//	r, _ := restaurant.Open(ctx, cfg)
//	site := liveview.NewSite(ctx, r, liveview.WithGate(gate)) // subscribes now: the page sees the first LIST
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
// Server-Sent Events (GET /events): the state of every stage, which is
// small, plus the events since the last frame; a step of the gate sends
// one at once. A burst of events (rush hour) is coalesced: a frame
// carries at most the newest 160, and says how many it left out. A page
// that cannot keep up is not waited for: when it is ready again, its
// next frame has the newest state and the events it has not had yet, so
// it misses nothing without being told. The page fetches a followed
// order's history and YAML (GET /orders/{name}) when it starts following
// it and keeps the history from the frames' events; it fetches the order
// again only when its resourceVersion changes, or once it is done if a
// full frame left some of its events out (each order says the number of
// its newest event), never once a frame.
//
// # Buttons
//
// Every button is a POST to /actions/{name} that acts on the real server
// and answers JSON ({"message": ...} or {"error": ...} with a 4xx status
// naming the bad field): place, vip, rush (50 orders at once, with the
// rail's token bucket made the bottleneck until it has admitted them, as
// in the rush scene), truffle and cancel (the form
// field "order", else the newest open order), cut-watches
// ([apiserver.Server.CloseWatches]), compact
// ([apiserver.Server.CompactHistory]; the runner's next watches are
// answered 410 Expired and the watches cut, so that it lists again), fail (the next "n" updates fail with 429),
// slow (every request takes "ms"), and speed (a kitchen minute lasts
// "minute" ms, [kitchen.Clock.SetMinute]).
//
// Buttons pause (space), step (n) and resume the gate.
//
// The page itself is a few small embedded files (HTML, CSS, plain
// JavaScript and an icon): no build step, no framework, nothing loaded
// from the internet, about 17 KB gzipped. They are gzipped once when the
// view starts and served with ETags; the page names its script and
// stylesheet with their content's hash, so that a browser keeps them for
// a year and still gets new ones the moment they change. It is usable
// from the keyboard (each button has a key, Esc stops following an
// order), with a mouse at 1280 px and on a 390 px phone, where the
// pipeline draws itself top to bottom and a sticky bar says which order
// is followed.
package liveview
