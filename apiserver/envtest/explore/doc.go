// Package explore finds the bugs that hide in a controller's view of the
// world: it runs the controller under a workload again and again, each
// time perturbing what it sees at one point — a stale cache, a crash
// between two writes, a burst of changes seen only as its last value, a
// 409, a cut watch — and reports every run that breaks an invariant or
// ends differently from the unperturbed run. Each run takes milliseconds,
// in fake time, inside plain go test. Like Sieve (OSDI '22) and Acto
// (SOSP '23), which do it to real clusters in minutes per run.
//
// In the kitchen: a rehearsal in which the runner sometimes dawdles,
// sometimes drops all but the last of a burst of tickets, and the chef is
// sometimes called away between two dishes, every one of these mishaps
// tried in turn, each rehearsal as short as a blink, until two plates go
// out for one ticket.
//
// # What you give it
//
// A [Scenario]: the kinds the server serves, the controllers under test,
// a workload and what must hold.
//
//   - A [Controller] is a name and a start function: it runs the
//     controller until its context is done, reaching the API server only
//     through the [Conn] it is given (Conn.API for kitchensync's
//     informers and clients; Conn.Host or Conn.Kubeconfig for client-go
//     and controller-runtime over HTTP). The explorer calls it again after
//     each crash, with a fresh Conn: fresh caches, as a restarted process.
//   - The workload is a list of [Step]s: writes made by users, one step
//     at a time.
//   - [Invariant]s are checked at every quiet point; they must be safety
//     properties ("never two children for one parent").
//   - The end state of every run ([Objects] by default) is compared with
//     the reference run's, by go-cmp: progress ("the child carries the
//     parent's version in the end") is checked there.
//
// Then, in a test:
//
//	func TestMyController(t *testing.T) {
//		explore.Check(t, explore.Scenario{
//			Kinds:       []meta.KindInfo{parentKind, childKind},
//			Controllers: []explore.Controller{{Name: "mine", Start: startMine}},
//			Workload:    steps,
//			Invariants:  []explore.Invariant{oneChildPerParent},
//		}, explore.Options{})
//	}
//
// # Lockstep
//
// Between the server and each controller stands the explorer: in
// process, each controller's Conn.API is a view of the server whose
// lists, watches and writes pass through it. Every watch event is held
// there and delivered one at a time, oldest first, at a quiet point: when
// every goroutine of the run is blocked (testing/synctest's Wait). So an
// event is handled to the end — cache, handlers, queue, reconcile, the
// writes it makes — before the next one is delivered, and a run with one
// worker per controller is the same every time. Lists wait their turn the
// same way, so that informers fill their caches in a fixed order. When
// nothing is left to deliver, fake time passes in doubling slices, until
// nothing has been written or delivered for [Options].Settle (a minute by
// default): backoffs and RequeueAfter have had their chance, and the
// next step of the workload begins.
//
// # Plans
//
// The reference run is the workload without perturbation. It tells the
// explorer the points worth perturbing: every write of every controller,
// and every event delivered to each of its informers, counted within the
// workload step it happens in ("2.w1": the first write during step 2).
// A [Plan] perturbs one point (shrinking may make it skip steps):
//
//   - [Crash] (intermediate state): kill the controller right after a
//     write; restart it with fresh caches.
//   - [Stale] (stale state): the same, but the restarted controller's
//     lists are read at the resourceVersion before that write, as from a
//     lagging API server; its watches catch up from there.
//   - [Lag] (stale state): hold back an informer's events from one event
//     on, while the controller goes on with everything else.
//   - [Coalesce] (unobserved state): the same, but deliver only the last
//     state of each object, as a relist would.
//   - [Down] (unobserved state): stop the controller for a whole step.
//   - [Conflict]: answer an update 409 without writing.
//   - [Cut], [Expire]: end a watch before an event, cleanly or with 410.
//
// The kinds take turns, and within a kind the steps and the informers (or
// controllers) take turns, so that a small [Options].MaxPlans still tries
// every kind at every step. Crashes come first where they matter most:
// between two writes a controller made in answer to the same event.
//
// # Replay and shrinking
//
// A plan prints as one line, its replay line:
//
//	crash:ctrl@4.w1,skip:1,skip:3,skip:5-8
//
// [ParsePlan] reads it back, and the test flag -explore.plan replays it:
// with the flag set, every exploration in the test binary runs the
// reference and that plan only. A [Violation] carries the whole command,
// to run from the root of the test's module:
//
//	go test ./pkg -run '^TestMine$' -explore.plan='crash:ctrl@4.w1,skip:1,skip:3,skip:5-8'
//
// A failing plan is shrunk before it is reported: the explorer leaves
// out, one at a time, the perturbations and then the workload steps that
// the failure does not need.
//
// # Reports
//
// [Explore] returns a [Report]; [Check] fails the test with each
// [Violation] in it: what went wrong, the shrunk plan and its replay
// command, the narration of the failing run around the moment it went
// wrong, and for an end state the go-cmp diff with the reference's. The
// narration is the run's trace records ([Render]): the explorer's own
// (component [Component]: steps, deliveries "<-", writes "->",
// perturbations ">>", the violation "!!"), and, if the controller hands
// Conn.Tracer to its reconcile.Controller, its reconciles.
//
// # Over HTTP
//
// With [Options].HTTP, the run's server is served on a loopback port, and
// each incarnation of each controller gets a front of its own on another
// port (Conn.Host, Conn.Kubeconfig): a reverse proxy that does what the
// in-process view does, so client-go and controller-runtime controllers
// are explored the same way. It refuses watch-list requests
// (sendInitialEvents), so that clients list and then watch, as with a
// server without watch-list. Sockets cannot live in a testing/synctest
// bubble, so such runs are in real time: a moment is quiet once no request
// is in flight and nothing has happened for [Options].Quiet (30ms). What
// stays deterministic: the plans, the points they name (counted by the
// front), and the one-event-at-a-time delivery. What does not: a handler
// or reconcile slower than Quiet lets the next event in before it is done,
// so the interleaving, the count of points and a run's length may vary a
// little from run to run; and each run takes real time (seconds, not
// milliseconds).
//
// # Limits
//
// The explorer perturbs the view, never the server's semantics. It does
// not reorder events within a watch (Kubernetes never does), and does not
// perturb direct reads (Get) nor workload writes. A controller with
// several workers may interleave their reconciles differently from run to
// run. Violations are grouped by what went wrong (the invariant, or "end
// state"), so two bugs that both change the end state are reported as
// one.
package explore
