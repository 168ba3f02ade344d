package compare

import (
	"fmt"
	"testing/synctest"
	"time"

	"github.com/kitchensync/kitchensync/compare/internal/ops"
)

// queueImpl maps the generated workqueue steps onto one implementation.
// Unused steps stay nil.
type queueImpl struct {
	add         func(string)
	addAfter    func(string, time.Duration)
	addRL       func(string)
	forget      func(string)
	numRequeues func(string) int
	addWithOpts func(op ops.QueueOp)
	get         func() (item string, priority int, shutdown bool)
	done        func(string)
	shutDown    func()
	drain       func() // ShutDownWithDrain
}

// gotItem is what one Get returned, sent by the worker goroutine.
type gotItem struct {
	item     string
	priority int
	shutdown bool
}

// runQueue plays seq on q with a single worker and returns the trace of
// what the worker saw, one line per observation, prefixed with the step
// number. It must run inside a synctest bubble.
//
// Get runs on a worker goroutine, so that a Get on an empty queue blocks
// as it would in a controller; after every step the bubble settles
// (synctest.Wait) and a Get that returned is recorded at that step. A Get
// still blocked is recorded as "waiting", and what it later gets is
// recorded at the step that released it.
func runQueue(q queueImpl, seq []ops.QueueOp, withPriority bool) []string {
	var trace []string
	var held []string
	var pending chan gotItem // the blocked Get, if any
	pendingHold := false
	shut, usedDrain := false, false
	var drained chan struct{} // closed when ShutDownWithDrain returns
	checkDrained := func(i int) {
		if drained == nil {
			return
		}
		select {
		case <-drained:
			trace = append(trace, fmt.Sprintf("%d: drained", i))
			drained = nil
		default:
		}
	}
	record := func(i int, g gotItem) {
		switch {
		case g.shutdown:
			trace = append(trace, fmt.Sprintf("%d: shutdown", i))
		case withPriority:
			trace = append(trace, fmt.Sprintf("%d: got %s prio %d", i, g.item, g.priority))
		default:
			trace = append(trace, fmt.Sprintf("%d: got %s", i, g.item))
		}
	}
	collect := func(i int) {
		if pending == nil {
			return
		}
		select {
		case g := <-pending:
			record(i, g)
			if pendingHold && !g.shutdown {
				held = append(held, g.item)
			}
			pending = nil
		default:
		}
	}
	startGet := func(i int, hold bool) {
		if pending != nil {
			return // the single worker is still waiting
		}
		ch := make(chan gotItem, 1)
		go func() {
			item, prio, shutdown := q.get()
			if !hold && !shutdown {
				q.done(item)
			}
			ch <- gotItem{item, prio, shutdown}
		}()
		pending, pendingHold = ch, hold
		synctest.Wait()
		collect(i)
		if pending != nil {
			trace = append(trace, fmt.Sprintf("%d: waiting", i))
		}
	}
	for i, op := range seq {
		switch op.Kind {
		case ops.QAdd:
			q.add(op.Key)
		case ops.QAddAfter:
			q.addAfter(op.Key, op.Delay)
		case ops.QAddRateLimited:
			q.addRL(op.Key)
		case ops.QForget:
			q.forget(op.Key)
		case ops.QAddWithOpts:
			q.addWithOpts(op)
		case ops.QGetDone:
			startGet(i, false)
		case ops.QGetHold:
			startGet(i, true)
		case ops.QDoneHeld:
			if len(held) > 0 {
				q.done(held[0])
				held = held[1:]
			}
		case ops.QAdvance:
			time.Sleep(op.Delay)
		case ops.QShutDown:
			if !shut {
				q.shutDown()
				shut = true
			}
		case ops.QShutDownWithDrain:
			if !shut {
				shut, usedDrain = true, true
				drained = make(chan struct{})
				go func() {
					q.drain()
					close(drained)
				}()
			}
		}
		time.Sleep(ops.Tick)
		synctest.Wait()
		collect(i)
		checkDrained(i)
		if op.Kind == ops.QAddRateLimited || op.Kind == ops.QForget {
			// Read after the bubble settles: controller-runtime's
			// priority queue asks its limiter on a goroutine.
			trace = append(trace, fmt.Sprintf("%d: requeues %s %d", i, op.Key, q.numRequeues(op.Key)))
		}
	}
	// Finish the held items one at a time, letting the bubble settle after
	// each Done: a worker blocked in Get may take the item a Done releases,
	// and without the settling it would race the next Done (which item
	// it gets, and in which order work durations are observed, would
	// depend on the scheduler).
	for len(held) > 0 {
		item := held[0]
		held = held[1:]
		q.done(item)
		synctest.Wait()
		collect(len(seq))
	}
	synctest.Wait()
	collect(len(seq))
	checkDrained(len(seq))
	if !shut || usedDrain {
		// Once: a second ShutDown panics in controller-runtime's priority
		// queue. But after ShutDownWithDrain, client-go's delaying queue
		// still needs ShutDown: it does not override ShutDownWithDrain,
		// so its waiting loop would otherwise run forever.
		q.shutDown()
	}
	synctest.Wait()
	if pending != nil {
		g := <-pending
		record(len(seq), g)
	}
	return trace
}
