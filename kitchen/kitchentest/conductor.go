package kitchentest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
	"github.com/kitchensync/kitchensync/reconcile"
)

// A Conductor makes a restaurant deterministic: one hand-off at a time,
// in an order fixed by what is waiting, never by the goroutine scheduler.
// It is the expediter at the pass who calls "next!" only when the whole
// kitchen is quiet.
//
// Left alone, a kitchen is truly concurrent: the runner's reflectors, the
// chef's and the brigade's workers, the cooks' timers and the waiter all
// run at once, so two runs of the same service can tell their hand-offs in
// a different order — a watch event may reach the cache before or after
// the chef's next write, two writes may collide (409) or not. That is
// what a real cluster does, and the programs show it so. A Conductor
// reaches into a restaurant only through the seams of its
// [restaurant.Config] ([Conductor.Pace] sets them): each of its steps first
// waits for its turn — a reflector's list, watch start or watch event, a
// worker taking a ticket, a cook's timer ending — and the waiter (or a
// lesson) waits for [Conductor.WaitTurn] before it acts.
// [Conductor.Drive] grants one turn at each quiet point — when every
// goroutine of the kitchen is blocked — choosing the waiting step by a
// fixed order: lists and watch starts, then watch events by
// resourceVersion, then tickets, then cooks' timers, then the waiter.
// Between two quiet points only the chosen step and what it causes run,
// so the narration is the same from run to run: the kitchen still does
// everything it does unconducted (a stale cache, a merged ticket), but
// always in the same order.
//
// Only testing/synctest can tell a quiet point (synctest.Wait), so a
// Conductor is for tests: the examples' golden narrations are made with
// one, in virtual time; a program run with go run stays concurrent, and
// its narration's order can differ from its golden file's. What runs
// between two quiet points is still concurrent where one step has
// several consumers: the informer hands one event to each of its
// handlers on a goroutine of their own, so their records (told at
// narration.Everything) can interleave, and golden narrations are taken
// at narration.HandOffs. The order assumes one worker per controller (the
// default), and one case is still left to the scheduler: a worker idle on
// an empty priority queue, when one step adds tickets of different
// priorities (a relist, whose unchanged objects come at a low priority).
// A queue without priorities ([Conductor.Queue]) has no such case; the
// restaurant's queues never meet it, as each step adds tickets of one
// priority.
//
// A nil *Conductor grants every turn at once: no conductor, no waiting.
type Conductor struct {
	mu      sync.Mutex // guards waiting
	waiting []*turn
	arrived chan struct{} // poked when a turn starts waiting
	stopped chan struct{} // closed when Drive returns: every turn is granted
}

// turn is one step waiting to be allowed.
type turn struct {
	key string
	go_ chan struct{}
}

// NewConductor returns a conductor; run its Drive for the kitchen to move.
func NewConductor() *Conductor {
	return &Conductor{arrived: make(chan struct{}, 1), stopped: make(chan struct{})}
}

// Drive grants turns until ctx is done, one at each quiet point: quiet
// must block until every other goroutine of the kitchen is blocked (in a
// test, synctest.Wait). When nothing waits, Drive waits for a step to
// arrive, so that (virtual) time can pass. Once ctx is done, every turn is
// granted at once, so that the kitchen can close.
func (c *Conductor) Drive(ctx context.Context, quiet func()) {
	defer close(c.stopped)
	for {
		quiet()
		if c.grantNext() {
			continue
		}
		select {
		case <-c.arrived:
		case <-ctx.Done():
			return
		}
	}
}

// grantNext allows the waiting step that comes first, if any.
func (c *Conductor) grantNext() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.waiting) == 0 {
		return false
	}
	i := 0
	for j, t := range c.waiting {
		if t.key < c.waiting[i].key {
			i = j
		}
	}
	close(c.waiting[i].go_)
	c.waiting = slices.Delete(c.waiting, i, i+1)
	return true
}

// Turn waits until the step named key may go (at once with a nil
// Conductor, or once Drive has returned), or until done is closed
// (false). Keys order the steps waiting at one quiet point: the smallest
// goes first, so two steps must never wait under the same key.
func (c *Conductor) Turn(done <-chan struct{}, key string) bool {
	if c == nil {
		return true
	}
	t := &turn{key: key, go_: make(chan struct{})}
	c.mu.Lock()
	c.waiting = append(c.waiting, t)
	c.mu.Unlock()
	select {
	case c.arrived <- struct{}{}:
	default:
	}
	select {
	case <-t.go_:
		return true
	case <-c.stopped:
		return true
	case <-done:
		c.mu.Lock()
		if i := slices.Index(c.waiting, t); i >= 0 {
			c.waiting = slices.Delete(c.waiting, i, i+1)
		}
		c.mu.Unlock()
		return false
	}
}

// WaitTurn waits until the waiter (or whoever drives the kitchen from
// outside, such as a lesson) may act: the last of the steps a quiet
// kitchen takes. It returns false if ctx ended first. Call it after every
// wait of the waiter's — [restaurant.Restaurant.WaitReady],
// [restaurant.Restaurant.WaitForOrder], a kitchen.Clock.Sleep — before it
// acts on the kitchen.
func (c *Conductor) WaitTurn(ctx context.Context) bool {
	return c.Turn(ctx.Done(), turnWaiter) && ctx.Err() == nil
}

// ListerWatcher returns lw with its lists and watch events waiting for
// their turns, for an informer of your own (resource names it in the
// turns' keys); lw itself without a conductor.
func (c *Conductor) ListerWatcher(lw informer.ListerWatcher, resource string) informer.ListerWatcher {
	if c == nil {
		return lw
	}
	return conductedLW{lw: lw, c: c, resource: resource}
}

// The classes of steps, in the order a quiet kitchen takes them.
const (
	turnList   = "1 list" // and watch starts
	turnWatch  = "2 watch"
	turnTicket = "3 ticket"
	turnCook   = "4 cook"
	turnWaiter = "5 waiter"
)

// conductedLW is a ListerWatcher whose lists, watch starts and watch
// events wait for their turns.
type conductedLW struct {
	lw       informer.ListerWatcher
	c        *Conductor
	resource string
}

func (l conductedLW) List(ctx context.Context, opts meta.ListOptions) (*meta.List, error) {
	if !l.c.Turn(ctx.Done(), turnList+" "+l.resource) {
		return nil, ctx.Err()
	}
	return l.lw.List(ctx, opts)
}

func (l conductedLW) Watch(ctx context.Context, opts meta.ListOptions) (meta.WatchInterface, error) {
	if !l.c.Turn(ctx.Done(), turnList+" "+l.resource+" watch") {
		return nil, ctx.Err()
	}
	w, err := l.lw.Watch(ctx, opts)
	if err != nil {
		return nil, err
	}
	return informer.HoldWatch(w, func(e meta.Event, stopped <-chan struct{}) bool {
		rv := ""
		if e.Object != nil {
			rv = e.Object.GetObjectMeta().ResourceVersion
		}
		// Pad the resourceVersion so that keys sort by it.
		return l.c.Turn(stopped, fmt.Sprintf("%s %20s %s %s", turnWatch, rv, l.resource, e.Type))
	}), nil
}

// conductedQueue is a controller's queue whose worker takes a ticket
// only in its turn.
type conductedQueue struct {
	reconcile.PriorityWorkQueue
	c    *Conductor
	name string
}

func (q conductedQueue) GetWithPriority() (reconcile.Request, int, bool) {
	return q.c.take(q.name, q.Len, q.PriorityWorkQueue.GetWithPriority)
}

// Queue returns q with its worker taking each ticket in its turn (q
// itself without a conductor), for a controller of your own: pass
// reconcile.Options.NewQueue a function that makes q and returns this.
// Unlike the restaurant's (see [Conductor.Pace]), the returned queue has
// no priorities: a first-in, first-out q keeps the order exact even in the
// one case the priority queue does not (see [Conductor]).
func (c *Conductor) Queue(name string, q reconcile.WorkQueue) reconcile.WorkQueue {
	if c == nil {
		return q
	}
	return conductedFIFO{WorkQueue: q, c: c, name: name}
}

// conductedFIFO is any queue whose worker takes a ticket only in its turn.
type conductedFIFO struct {
	reconcile.WorkQueue
	c    *Conductor
	name string
}

func (q conductedFIFO) Get() (reconcile.Request, bool) {
	req, _, shutdown := q.c.take(q.name, q.Len, func() (reconcile.Request, int, bool) {
		req, shutdown := q.WorkQueue.Get()
		return req, 0, shutdown
	})
	return req, shutdown
}

// take hands a controller's worker its next ticket from get in its turn
// (named after the queue: one worker per controller). At a quiet point
// every add has landed, so the ticket get returns is the one a fixed
// order puts first. If none is ready, get waits for the first add, and the
// worker waits for another turn before it goes on: the ticket it got is
// the first added in that step — or, in a priority queue, one of higher
// priority added in the same step before the worker woke, which is left
// to the scheduler.
func (c *Conductor) take(queue string, ready func() int, get func() (reconcile.Request, int, bool)) (reconcile.Request, int, bool) {
	if c == nil {
		return get()
	}
	key := turnTicket + " " + queue
	c.Turn(nil, key)
	waiting := ready() > 0
	req, p, shutdown := get()
	if !waiting && !shutdown {
		c.Turn(nil, key)
	}
	return req, p, shutdown
}

func (q conductedQueue) Get() (reconcile.Request, bool) {
	req, _, shutdown := q.GetWithPriority()
	return req, shutdown
}

// AfterFunc is [time.AfterFunc] whose f waits for its turn, the turn of
// the cook named key: it makes the Conductor a kitchen.Timers, so that
// cooks that finish at the same instant go one at a time.
func (c *Conductor) AfterFunc(d time.Duration, key string, f func()) *time.Timer {
	if c == nil {
		return time.AfterFunc(d, f)
	}
	return time.AfterFunc(d, func() {
		c.Turn(nil, turnCook+" "+key)
		f()
	})
}

// Pace sets the seams of cfg through which a restaurant's steps wait for
// their turns: the runner lists and watches through [Conductor.ListerWatcher]
// (cfg.InformerOptions), the controllers' workers take each ticket in its
// turn (cfg.Queue) and the cooks' timers end in theirs (cfg.Timers). It
// replaces any Queue and Timers cfg had. A nil Conductor leaves cfg alone.
func (c *Conductor) Pace(cfg *restaurant.Config) {
	if c == nil {
		return
	}
	wrap := func(gvr meta.GroupVersionResource, lw informer.ListerWatcher) informer.ListerWatcher {
		return c.ListerWatcher(lw, gvr.Resource)
	}
	cfg.InformerOptions = append(slices.Clip(cfg.InformerOptions), informer.WithListerWatcher(wrap))
	cfg.Queue = func(name string, q reconcile.PriorityWorkQueue) reconcile.PriorityWorkQueue {
		return conductedQueue{PriorityWorkQueue: q, c: c, name: name}
	}
	cfg.Timers = c
}
