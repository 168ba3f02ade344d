// Package trace records the machinery at work: one [Record] for every
// hand-off, from the write the API server commits to the reconcile that
// answers it.
//
// In the kitchen, the trace is the expediter's notebook: one line each
// time something passes from one hand to another — the front desk files
// an order, the runner notes the change and updates his memory, a ticket
// is clipped to the rail (or found already there), the chef takes it and
// says how it went. The live view of the pass and the narrated story are
// both drawn from this notebook.
//
// Kubernetes has no single equivalent: client-go and controller-runtime
// log some of these steps at high klog verbosity and count others in
// metrics, and k8s.io/utils/trace times slow requests. Here every step is
// a typed value, so a program can render it, a test can compare it, and a
// web page can animate it.
//
// # Records
//
// A [Record] says which [Component] acted (the API server, a reflector, an
// informer's queue — a RealFIFO or a DeltaFIFO —, an informer, a work
// queue, a controller), which instance
// (Name), what it did ([Action]) and to which object (Kind, Key,
// ResourceVersion), plus the fields its Action documents: the delta type,
// the queue's depth, a priority, a reconcile's result, a duration, an
// error. Each Action belongs to one component (the queue's to either
// FIFO); the constants are grouped by component, in the order data flows.
//
// One object's life, seen by an informer and a controller with one
// worker, reads like this (as [Record.String] prints it; the reconcile
// package's Example_trace runs it):
//
//	apiserver created Widget kitchen/soup rv=2
//	realfifo[widgets] delta-recorded Widget kitchen/soup rv=2 delta=Added depth=1
//	realfifo[widgets] delta-popped Widget kitchen/soup rv=2 delta=Added count=1
//	informer[widgets] cache-updated Widget kitchen/soup rv=2 delta=Added
//	informer[widgets] handler-called Widget kitchen/soup rv=2 worker=1 detail=OnAdd
//	workqueue[widgets] added kitchen/soup depth=1
//	workqueue[widgets] got kitchen/soup
//	controller[widgets] reconcile-started kitchen/soup worker=1
//	controller[widgets] reconcile-finished kitchen/soup worker=1 result=success
//	workqueue[widgets] done kitchen/soup
//
// A reconcile that writes the status adds "apiserver updated ...
// detail=status" and the same trip back through the informer, where a
// predicate may drop it ("controller[widgets] dropped ...
// detail=reconcile.GenerationChangedPredicate"); a failed one adds
// "workqueue[widgets] rate-limited ... after=5ms".
//
// Where records come from. The API server records what it commits, not
// what it answers: a reflector records its own lists and watches, and a
// watch event shows up as the delta it becomes. A handler call is
// recorded once per handler (Worker numbers them); handlers run on their
// own goroutines, so with several of them their records interleave.
//
// # Emitting
//
// Each component takes a *Tracer in its options (a field named Tracer); nil
// means off. Factories and controllers pass theirs down to what they
// create, so a program sets it once per component:
//
//   - apiserver.Options.Tracer: committed writes, CloseWatches, CompactHistory;
//   - informer.WithTracer for a factory, or informer.Options.Tracer for one
//     informer: its reflector (informer.ReflectorOptions.Tracer), its FIFO
//     (informer.DeltaFIFOOptions.Tracer, informer.RealFIFOOptions.Tracer),
//     its cache and its handlers;
//   - reconcile.Options.Tracer: reconciles, predicates, and the default
//     queue (workqueue.QueueConfig.Tracer for a queue of your own).
//
// Records are emitted where the component changes its state, under its
// own lock, so that the records of one component come in the order its
// state changed. An emitter guards each
// record with [Tracer.Enabled], so that nothing is built when nobody
// listens:
//
//	if t.Enabled() {
//		t.Emit(trace.Record{Component: trace.Workqueue, Name: q.name, Action: trace.Added, Key: key})
//	}
//
// Enabled is one atomic load (and a nil check). The package's benchmarks
// measure it: a silent hand-off costs what the loop around it costs
// (about 2ns) and allocates nothing; a heard one, a few hundred
// nanoseconds, still without allocating.
//
// # Listening
//
// There are three ways to listen, from the most direct to the most
// detached:
//
//   - [Tracer.Subscribe] calls a function with each record, synchronously,
//     one record at a time in Seq order. The function runs inside the
//     emitting component, often under its lock: it must be quick and must
//     never call back into the machinery.
//   - [NewRecorder] keeps every record, for tests and for rendering a run
//     after the fact.
//   - [Tracer.Feed] delivers records over a buffered channel and drops
//     (and counts) what does not fit, so a slow reader — a browser at the
//     other end of a network — never slows the machinery down.
package trace
