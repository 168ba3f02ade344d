package explore

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/trace"
)

// ctrlState is one controller across the incarnations of one run.
type ctrlState struct {
	Controller
	idx  int
	incs int          // incarnations started
	inc  *incarnation // the latest

	// guarded by the scheduler's mu:
	writes  map[int]int            // writes made, by step
	events  map[string]map[int]int // events delivered, by resource and step
	staleRV string                 // after a Stale crash: where the next incarnation's lists read
	down    bool                   // stopped for a Down step
}

// incarnation is one run of a controller's Start, from start to crash.
type incarnation struct {
	n       int
	ctx     context.Context
	cancel  context.CancelFunc
	done    chan struct{} // closed when Start has returned
	err     error         // what Start returned; read after done
	dead    atomic.Bool   // crashed or stopped: no more requests
	staleRV string        // the first list of each resource reads here
	closers []func()      // what the front opened for it

	// guarded by the scheduler's mu:
	streams map[string]*stream
	listed  map[string]bool
}

func (inc *incarnation) isDead() bool { return inc.dead.Load() }

// stopped reports whether Start has returned.
func (inc *incarnation) stopped() bool {
	select {
	case <-inc.done:
		return true
	default:
		return false
	}
}

// front is how controllers reach the server: in process or over HTTP.
type front interface {
	// connect opens what inc needs and returns its Conn.
	connect(r *run, c *ctrlState, inc *incarnation) (Conn, error)
	// quiet returns at the next quiet point.
	quiet(r *run)
	// idle lets d pass (fake time in process).
	idle(d time.Duration)
}

// failure is what went wrong in a run.
type failure struct {
	kind string // "invariant", "end state", "step", "settle", "controller"
	name string // the invariant's, step's or controller's name
	msg  string
	diff string
	at   int // number of records when it went wrong
}

// signature tells failures apart for grouping and shrinking.
func (f *failure) signature() string { return f.kind + ":" + f.name }

// run is one run of a scenario under one plan.
type run struct {
	x      *explorer
	plan   Plan
	ref    *run // the reference run to compare the end state with (nil for a reference)
	front  front
	ctx    context.Context
	srv    *apiserver.Server
	scheme *meta.Scheme
	user   client.Interface // the workload's view: records its writes
	tr     *trace.Tracer
	sched  scheduler
	ctrls  []*ctrlState
	step   atomic.Int64

	recMu sync.Mutex // guards recs
	recs  []trace.Record

	used  []bool   // guarded by sched.mu: perturbations done
	learn *learned // guarded by sched.mu: the reference's points
	fail  *failure // set by the driving goroutine only
	end   any      // the end state
	moves int      // deliveries, grants and restarts made
}

func (r *run) curStep() int { return int(r.step.Load()) }

// execute runs the whole scenario; the caller reads r.fail and r.end.
func (r *run) execute(ctx context.Context) {
	r.ctx = ctx
	defer r.shutdown()
	for _, st := range r.x.s.Setup {
		if err := st.Do(ctx, r.srv); err != nil {
			r.failf("step", st.Name, "setup step %q failed: %v", st.Name, err)
			return
		}
	}
	for _, c := range r.ctrls {
		if err := r.startController(c); err != nil {
			r.failf("controller", c.Name, "starting %s: %v", c.Name, err)
			return
		}
	}
	if !r.settle() {
		return
	}
	for i, st := range r.x.s.Workload {
		if r.plan.skips(i + 1) {
			continue
		}
		if !r.doStep(i+1, st) {
			return
		}
	}
	r.readEnd()
}

// doStep runs one workload step and settles what it caused.
func (r *run) doStep(n int, st Step) bool {
	r.step.Store(int64(n))
	r.emit(trace.Record{Component: component, Action: actStep, Count: n, Detail: st.Name})
	downs := r.stopDowns(n)
	if err := st.Do(r.ctx, r.user); err != nil {
		r.failf("step", st.Name, "step %d %q failed: %v", n, st.Name, err)
		return false
	}
	if !r.settle() {
		return false
	}
	if len(downs) == 0 {
		return true
	}
	r.sched.mu.Lock()
	for _, c := range downs {
		c.down = false
	}
	r.sched.mu.Unlock()
	return r.settle()
}

// stopDowns stops the controllers that a Down perturbation takes out of
// step n, and waits until they have.
func (r *run) stopDowns(n int) []*ctrlState {
	var downs []*ctrlState
	for _, c := range r.ctrls {
		if _, ok := r.match(Down, c.Name, "", n, 0); ok {
			r.sched.mu.Lock()
			c.down = true
			r.sched.mu.Unlock()
			r.kill(c, c.inc, actStopped, fmt.Sprintf("for step %d", n))
			downs = append(downs, c)
		}
	}
	if len(downs) > 0 {
		r.front.quiet(r)
	}
	return downs
}

// startController starts a new incarnation of c.
func (r *run) startController(c *ctrlState) error {
	c.incs++
	inc := &incarnation{n: c.incs, done: make(chan struct{}), streams: map[string]*stream{}, listed: map[string]bool{}}
	r.sched.mu.Lock()
	inc.staleRV, c.staleRV = c.staleRV, ""
	r.sched.mu.Unlock()
	inc.ctx, inc.cancel = context.WithCancel(r.ctx)
	conn, err := r.front.connect(r, c, inc)
	if err != nil {
		inc.cancel()
		return err
	}
	c.inc = inc
	if inc.n > 1 {
		detail := ""
		if inc.staleRV != "" {
			detail = "lists at rv " + inc.staleRV
		}
		r.emit(trace.Record{Component: component, Name: c.Name, Action: actRestarted, Count: inc.n, Detail: detail})
	}
	go func() {
		defer close(inc.done)
		inc.err = c.Start(inc.ctx, conn)
	}()
	return nil
}

// kill ends inc (act is actCrashed or actStopped): its requests fail from
// now on, its pending events are dropped, and its context is cancelled.
// It is restarted at a quiet point (unless down).
func (r *run) kill(c *ctrlState, inc *incarnation, act trace.Action, why string) {
	if inc == nil || inc.dead.Swap(true) {
		return
	}
	r.emit(trace.Record{Component: component, Name: c.Name, Action: act, Detail: why})
	r.sched.mu.Lock()
	r.sched.endIncarnationLocked(inc)
	r.sched.mu.Unlock()
	inc.cancel()
}

// settle lets the controllers act until nothing is left to do for
// Options.Settle, one step at a time, checking the invariants at every
// quiet point. Nothing left to do means no event to deliver, and none
// received during a slice of idle time: writes that change nothing
// (no-ops, failures) do not keep a run from settling. False if the run
// failed.
func (r *run) settle() bool {
	opts := r.x.opts
	idle, q := time.Duration(0), opts.firstIdle()
	moves, checked := 0, -1
	for r.fail == nil {
		r.front.quiet(r)
		r.checkControllers()
		if n := r.sched.changeCount(); n != checked {
			checked = n
			r.checkInvariants()
		}
		if r.fail != nil {
			break
		}
		if r.advance() {
			if moves++; moves > opts.MaxSteps {
				r.failf("settle", "", "did not settle: %d deliveries and restarts after step %d, and no end in sight (a hot loop?)", moves, r.curStep())
				break
			}
			idle, q = 0, opts.firstIdle()
			continue
		}
		if idle >= opts.Settle && (idle >= relistGrace || !r.relistDue()) {
			return true
		}
		before := r.sched.activityCount()
		r.front.idle(q)
		if r.sched.activityCount() != before {
			idle, q = 0, opts.firstIdle()
		} else {
			idle, q = idle+q, 2*q
		}
	}
	return false
}

// advance does the next thing there is to do at a quiet point: restart a
// crashed controller, grant a list, deliver an event, or end a hold.
func (r *run) advance() bool {
	if r.restartCrashed() || r.sched.grantList() || r.deliverNext() || r.releaseHeld() {
		r.moves++
		r.sched.mu.Lock()
		r.sched.activity++ // over HTTP, the next quiet point is Quiet after this
		r.sched.mu.Unlock()
		return true
	}
	return false
}

// restartCrashed starts again the first controller that crashed and has
// stopped.
func (r *run) restartCrashed() bool {
	for _, c := range r.ctrls {
		r.sched.mu.Lock()
		down := c.down
		r.sched.mu.Unlock()
		if c.inc == nil || !c.inc.isDead() || down || !c.inc.stopped() {
			continue
		}
		r.sched.mu.Lock()
		r.sched.finishEndedLocked()
		r.sched.mu.Unlock()
		for _, f := range c.inc.closers {
			f()
		}
		c.inc.closers = nil
		if err := r.startController(c); err != nil {
			r.failf("controller", c.Name, "restarting %s: %v", c.Name, err)
		}
		return true
	}
	return false
}

// checkControllers fails the run if a controller stopped by itself.
func (r *run) checkControllers() {
	for _, c := range r.ctrls {
		if inc := c.inc; inc != nil && !inc.isDead() && inc.stopped() {
			r.failf("controller", c.Name, "controller %s stopped by itself: %v", c.Name, inc.err)
			return
		}
	}
}

// checkInvariants checks every invariant against the server.
func (r *run) checkInvariants() {
	for _, inv := range r.x.s.Invariants {
		if err := inv.Check(r.ctx, r.srv); err != nil {
			r.failf("invariant", inv.Name, "invariant %q broken after step %d: %v", inv.Name, r.curStep(), err)
			return
		}
	}
}

// readEnd reads the end state and compares it with the reference's.
func (r *run) readEnd() {
	end, err := r.x.endState(r.ctx, r.srv)
	if err != nil {
		r.failf("end state", "", "reading the end state: %v", err)
		return
	}
	r.end = end
	if r.ref == nil {
		return
	}
	if diff := r.x.diff(r.ref.end, end); diff != "" {
		r.failf("end state", "", "the end state differs from the reference run's")
		r.fail.diff = diff
	}
}

// shutdown stops every controller and watch, and waits for them. The
// watches end before the wait, as the server's do when their context
// ends: a controller may read a watch until it is closed, without
// looking at its context.
func (r *run) shutdown() {
	for _, c := range r.ctrls {
		if c.inc != nil {
			c.inc.dead.Store(true)
			c.inc.cancel()
		}
	}
	r.srv.CloseWatches()
	r.sched.finishAll()
	for _, c := range r.ctrls {
		if c.inc != nil {
			<-c.inc.done
		}
	}
	r.sched.finishAll() // any started meanwhile
	for _, c := range r.ctrls {
		if c.inc != nil {
			for _, f := range c.inc.closers {
				f()
			}
		}
	}
}

// failf records the run's first failure.
func (r *run) failf(kind, name, format string, args ...any) {
	if r.fail != nil {
		return
	}
	msg := fmt.Sprintf(format, args...)
	r.emit(trace.Record{Component: component, Action: actViolated, Detail: msg})
	r.recMu.Lock()
	at := len(r.recs)
	r.recMu.Unlock()
	r.fail = &failure{kind: kind, name: name, msg: msg, at: at}
}

// match finds the unused perturbation of kind k at (controller, resource,
// step, index) and marks it used.
func (r *run) match(k Kind, ctrl, res string, step, index int) (Perturbation, bool) {
	r.sched.mu.Lock()
	defer r.sched.mu.Unlock()
	return r.matchLocked(func(kk Kind) bool { return kk == k }, ctrl, res, step, index)
}

// matchLocked is match for any kind that ok accepts. Must be called with
// the scheduler's mu held.
func (r *run) matchLocked(ok func(Kind) bool, ctrl, res string, step, index int) (Perturbation, bool) {
	for i, p := range r.plan.Perturbations {
		if !r.used[i] && ok(p.Kind) && p.Controller == ctrl && p.Resource == res && p.Step == step && p.Index == index {
			r.used[i] = true
			return p, true
		}
	}
	return Perturbation{}, false
}
