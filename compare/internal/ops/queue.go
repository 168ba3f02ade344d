package ops

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// QueueOpKind names one step of a workqueue sequence.
type QueueOpKind int

// The workqueue steps. A single worker runs them in order.
const (
	// QAdd is Add(Key).
	QAdd QueueOpKind = iota
	// QAddAfter is AddAfter(Key, Delay).
	QAddAfter
	// QAddRateLimited is AddRateLimited(Key).
	QAddRateLimited
	// QForget is Forget(Key).
	QForget
	// QGetDone is Get, then Done at once: the worker finishes the item.
	QGetDone
	// QGetHold is Get without Done: the worker holds the item, so adds of
	// it are deferred until QDoneHeld.
	QGetHold
	// QDoneHeld is Done for the item the worker holds (if any).
	QDoneHeld
	// QAdvance lets Delay of virtual time pass.
	QAdvance
	// QAddWithOpts is AddWithOpts (priority queue only): Priority (when
	// HasPriority), Delay as After, and RateLimited.
	QAddWithOpts
	// QShutDown is ShutDown; later steps go on against the shut queue.
	QShutDown
	// QShutDownWithDrain is ShutDownWithDrain, which waits (on a
	// goroutine of the harness) until no item is being processed.
	QShutDownWithDrain
)

var queueOpNames = [...]string{"Add", "AddAfter", "AddRateLimited", "Forget", "GetDone", "GetHold", "DoneHeld", "Advance", "AddWithOpts", "ShutDown", "ShutDownWithDrain"}

func (k QueueOpKind) String() string { return queueOpNames[k] }

// QueueOp is one step of a workqueue sequence.
type QueueOp struct {
	Kind QueueOpKind
	Key  string
	// More are further keys added by the same AddWithOpts call.
	More        []string
	Delay       time.Duration
	Priority    int
	HasPriority bool
	RateLimited bool
}

func (o QueueOp) String() string {
	switch o.Kind {
	case QAddAfter:
		return fmt.Sprintf("AddAfter(%s, %v)", o.Key, o.Delay)
	case QAdvance:
		return fmt.Sprintf("Advance(%v)", o.Delay)
	case QGetDone, QGetHold, QDoneHeld, QShutDown, QShutDownWithDrain:
		return o.Kind.String()
	case QAddWithOpts:
		return fmt.Sprintf("AddWithOpts(%s%v, prio=%d/%v, after=%v, rl=%v)", o.Key, o.More, o.Priority, o.HasPriority, o.Delay, o.RateLimited)
	}
	return fmt.Sprintf("%s(%s)", o.Kind, o.Key)
}

// QueueConfig shapes a generated workqueue sequence.
type QueueConfig struct {
	// Ops is the number of steps.
	Ops int
	// Keys is the size of the key pool; small pools make duplicates.
	Keys int
	// Delaying enables AddAfter and Advance.
	Delaying bool
	// RateLimited enables AddRateLimited and Forget.
	RateLimited bool
	// Priority enables AddWithOpts.
	Priority bool
	// Hold enables GetHold/DoneHeld (adds while processing).
	Hold bool
	// ShutDown puts a ShutDown (or, with Drain, half the time a
	// ShutDownWithDrain) two thirds of the way into half of the sequences.
	ShutDown, Drain bool
}

// Tick is the virtual time a harness lets pass after every step, so that
// no two steps happen at the same instant. Generated delays are whole
// milliseconds and sequences are far shorter than 1000 steps, so no two
// items ever become ready at the same instant: the tests never depend on
// how an implementation breaks a tie between equal ready times.
const Tick = time.Microsecond

// QueueOps returns a workqueue sequence.
func QueueOps(r *rand.Rand, cfg QueueConfig) []QueueOp {
	out := make([]QueueOp, 0, cfg.Ops)
	shutAt := -1
	if cfg.ShutDown && r.IntN(2) == 0 {
		shutAt = cfg.Ops * 2 / 3
	}
	for len(out) < cfg.Ops {
		if len(out) == shutAt {
			kind := QShutDown
			if cfg.Drain && r.IntN(2) == 0 {
				kind = QShutDownWithDrain
			}
			out = append(out, QueueOp{Kind: kind})
		}
		key := fmt.Sprintf("k%02d", r.IntN(cfg.Keys))
		delay := time.Duration(r.IntN(50)) * time.Millisecond
		switch n := r.IntN(100); {
		case n < 30:
			out = append(out, QueueOp{Kind: QAdd, Key: key})
		case n < 55:
			out = append(out, QueueOp{Kind: QGetDone})
		case n < 62 && cfg.Hold:
			out = append(out, QueueOp{Kind: QGetHold})
		case n < 68 && cfg.Hold:
			out = append(out, QueueOp{Kind: QDoneHeld})
		case n < 76 && cfg.Delaying:
			out = append(out, QueueOp{Kind: QAddAfter, Key: key, Delay: delay})
		case n < 82 && cfg.Delaying:
			out = append(out, QueueOp{Kind: QAdvance, Delay: time.Duration(1+r.IntN(30)) * time.Millisecond})
		case n < 88 && cfg.RateLimited:
			out = append(out, QueueOp{Kind: QAddRateLimited, Key: key})
		case n < 92 && cfg.RateLimited:
			out = append(out, QueueOp{Kind: QForget, Key: key})
		case cfg.Priority:
			op := QueueOp{Kind: QAddWithOpts, Key: key, RateLimited: r.IntN(4) == 0}
			if r.IntN(3) == 0 {
				op.Delay = delay
			}
			if r.IntN(4) != 0 {
				op.HasPriority, op.Priority = true, r.IntN(5)-1
			}
			for range r.IntN(3) / 2 * (1 + r.IntN(2)) {
				op.More = append(op.More, fmt.Sprintf("k%02d", r.IntN(cfg.Keys)))
			}
			out = append(out, op)
		}
	}
	// Drain: let every delay pass, then take what is left.
	if cfg.Delaying || cfg.RateLimited || cfg.Priority {
		out = append(out, QueueOp{Kind: QAdvance, Delay: 2 * time.Second})
	}
	if cfg.Hold {
		out = append(out, QueueOp{Kind: QDoneHeld})
	}
	for range cfg.Keys + 1 {
		out = append(out, QueueOp{Kind: QGetDone})
	}
	return out
}

// LimiterOpKind names one step of a rate limiter sequence.
type LimiterOpKind int

// The rate limiter steps.
const (
	// LWhen is When(Key): record the delay.
	LWhen LimiterOpKind = iota
	// LForget is Forget(Key).
	LForget
	// LNumRequeues is NumRequeues(Key): record the count.
	LNumRequeues
	// LAdvance lets Delay of virtual time pass (for token buckets).
	LAdvance
)

// LimiterOp is one step of a rate limiter sequence.
type LimiterOp struct {
	Kind  LimiterOpKind
	Key   string
	Delay time.Duration
}

// LimiterOps returns a rate limiter sequence over keys keys.
func LimiterOps(r *rand.Rand, n, keys int) []LimiterOp {
	out := make([]LimiterOp, 0, n)
	for range n {
		key := fmt.Sprintf("k%d", r.IntN(keys))
		switch m := r.IntN(100); {
		case m < 60:
			out = append(out, LimiterOp{Kind: LWhen, Key: key})
		case m < 72:
			out = append(out, LimiterOp{Kind: LForget, Key: key})
		case m < 90:
			out = append(out, LimiterOp{Kind: LNumRequeues, Key: key})
		default:
			out = append(out, LimiterOp{Kind: LAdvance, Delay: time.Duration(r.IntN(200)) * time.Millisecond})
		}
	}
	return out
}
