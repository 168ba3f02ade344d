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
// A [Record] says which [Component] acted (the API server, a reflector, a
// DeltaFIFO, an informer, a work queue, a controller), which instance
// (Name), what it did ([Action]) and to which object (Kind, Key,
// ResourceVersion), plus the fields its Action documents: the delta type,
// the queue's depth, a priority, a reconcile's result, a duration, an
// error. Each Action belongs to one component; the constants are grouped
// by component, in the order data flows.
//
// One object's life, seen by an informer and a controller with one
// worker, reads like this (as [Record.String] prints it):
//
//	apiserver created Order default/table-7 rv=2
//	deltafifo[orders] delta-recorded Order default/table-7 rv=2 delta=Added depth=1
//	deltafifo[orders] delta-popped Order default/table-7 rv=2 delta=Added count=1
//	informer[orders] cache-updated Order default/table-7 rv=2 delta=Added
//	informer[orders] handler-called Order default/table-7 rv=2 worker=1 detail=OnAdd
//	workqueue[orders] added default/table-7 depth=1
//	workqueue[orders] got default/table-7
//	controller[orders] reconcile-started Order default/table-7 worker=1
//	apiserver updated Order default/table-7 rv=3 detail=status
//	controller[orders] reconcile-finished Order default/table-7 worker=1 result=success
//	workqueue[orders] done default/table-7
//	...
//
// # Emitting
//
// Each component takes a *Tracer in its options (a field named Tracer); nil
// means off. Factories and controllers pass theirs down to what they
// create, so a program sets it once per component. An emitter guards each
// record with [Tracer.Enabled], so that nothing is built when nobody
// listens:
//
//	if t.Enabled() {
//		t.Emit(trace.Record{Component: trace.Workqueue, Name: q.name, Action: trace.Added, Key: key})
//	}
//
// Enabled is one atomic load (and a nil check). The package's benchmarks
// measure it: about a nanosecond and no allocation per silent hand-off.
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
