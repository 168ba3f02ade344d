package kitchen

import (
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/trace"
	"github.com/kitchensync/kitchensync/workqueue"
)

// TicketRail is the 订单看板: the chef's work queue, a
// [workqueue.PriorityQueue] of order keys with two kitchen habits on top.
//
//   - VIP first: a ticket added without a priority gets the one
//     [TicketPriority] gives its order, so VIP tables jump the line (within
//     a priority, first come first served).
//   - Rush hour: with a token bucket ([RailOptions].TicketsPerMinute), a
//     ticket seen for the first time waits for a token before the chef can
//     take it — the story's "10 tickets per minute" — so a crowd arriving
//     at once piles up on the rail instead of swamping the chef. Requeues
//     and later updates of a known ticket do not take tokens.
//
// To tell a new ticket from a known one, the rail remembers each order it
// has seen. With [RailOptions].Gone it forgets an order once the chef is
// done with a ticket for it and the order is gone, so a rail that runs
// for months remembers only the orders still open.
//
// It satisfies [reconcile.PriorityWorkQueue], so a [reconcile.Controller]
// works it (see [reconcile.Options].NewQueue). It is safe for concurrent
// use.
type TicketRail struct {
	*workqueue.PriorityQueue[reconcile.Request]

	priority func(reconcile.Request) int
	gone     func(reconcile.Request) bool // nil: remember every ticket
	clock    *Clock
	log      Logger

	mu sync.Mutex // guards the fields below
	// bucket admits new tickets (rate.Inf: no rush-hour limit); perMinute
	// and burst are its settings (perMinute 0: no limit).
	bucket    *rate.Limiter
	perMinute float64
	burst     int
	// seen is every order the rail knows: it has had a ticket, and it is
	// not gone (or the rail has not been told, see RailOptions.Gone).
	seen map[reconcile.Request]bool
	// admitted is when the token bucket let each ticket through, the
	// first time it was added: the bucket's own decision, not when a
	// worker happened to take the ticket.
	admitted map[reconcile.Request]time.Time
	// held remembers when a new ticket's token comes due, so that a second
	// event for the same order before then cannot move it ahead of the
	// bucket (a plain add would make it ready at once).
	held map[reconcile.Request]time.Time
}

// RailOptions configure a [TicketRail].
type RailOptions struct {
	// Priority returns a ticket's priority when it is added without one;
	// nil means 0 for all.
	Priority func(reconcile.Request) int
	// TicketsPerMinute, when positive, admits new tickets at this rate in
	// kitchen time, with bursts of Burst (at least 1).
	TicketsPerMinute float64
	Burst            int
	// RateLimiter sets the backoff of failed tickets; nil means per-ticket
	// exponential backoff from half a kitchen minute to ten.
	RateLimiter workqueue.RateLimiter[reconcile.Request]
	// Gone reports whether a ticket's order is gone (deleted). When a
	// worker is done with a ticket whose order is gone, the rail forgets
	// it: a later ticket of the same name is new again, and takes a token.
	// Nil: the rail remembers every ticket it has seen, as a rail that
	// lives for one lesson may.
	Gone func(reconcile.Request) bool
	// Tracer receives the rail's records (named [RailName]): each ticket
	// added or merged with one already waiting, taken and done. The
	// narration of tickets is drawn from them. Nil: none.
	Tracer *trace.Tracer
}

// RailName is the rail's name in traces and metrics.
const RailName = "ticket-rail"

// NewTicketRail returns an empty rail timed by clock, narrating to log.
func NewTicketRail(clock *Clock, log Logger, opts RailOptions) *TicketRail {
	if clock == nil {
		clock = NewClock(0)
	}
	rl := opts.RateLimiter
	if rl == nil {
		rl = workqueue.NewItemExponentialFailureRateLimiter[reconcile.Request](
			clock.Real(30*time.Second), clock.Real(10*time.Minute))
	}
	r := &TicketRail{
		PriorityQueue: workqueue.NewPriorityQueue(rl, workqueue.QueueConfig{Name: RailName, Tracer: opts.Tracer}),
		priority:      opts.Priority,
		gone:          opts.Gone,
		clock:         clock,
		log:           orSilent(log),
		seen:          map[reconcile.Request]bool{},
		admitted:      map[reconcile.Request]time.Time{},
		held:          map[reconcile.Request]time.Time{},
	}
	r.SetTicketsPerMinute(opts.TicketsPerMinute, opts.Burst)
	return r
}

// SetTicketsPerMinute changes the token bucket while the rail runs: new
// tickets are admitted at perMinute in kitchen time (at the clock's
// current speed), with bursts of burst (at least 1), from a full bucket;
// 0 or less lifts the limit. Tickets already waiting for a token keep
// their turn.
func (r *TicketRail) SetTicketsPerMinute(perMinute float64, burst int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.perMinute, r.burst = max(perMinute, 0), max(burst, 1)
	limit := rate.Inf
	if perMinute > 0 {
		limit = rate.Limit(perMinute / r.clock.Minute().Seconds())
	}
	r.bucket = rate.NewLimiter(limit, r.burst)
}

// TicketsPerMinute returns the token bucket as [TicketRail.SetTicketsPerMinute]
// last set it: 0 when there is no limit.
func (r *TicketRail) TicketsPerMinute() (perMinute float64, burst int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.perMinute, r.burst
}

// Bucket describes the token bucket: "no limit", or "6 tickets a kitchen
// minute, bursts of 2".
func (r *TicketRail) Bucket() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.perMinute <= 0 {
		return "no limit"
	}
	return strconv.FormatFloat(r.perMinute, 'f', -1, 64) + " tickets a kitchen minute, bursts of " + strconv.Itoa(r.burst)
}

// Add pins a ticket for req at its order's priority.
func (r *TicketRail) Add(req reconcile.Request) {
	r.AddWithOpts(workqueue.AddOpts{}, req)
}

// AddAfter puts a ticket back after a kitchen wait (d is real time).
func (r *TicketRail) AddAfter(req reconcile.Request, d time.Duration) {
	r.AddWithOpts(workqueue.AddOpts{After: d}, req)
}

// AddRateLimited puts a failed ticket back after its backoff.
func (r *TicketRail) AddRateLimited(req reconcile.Request) {
	r.AddWithOpts(workqueue.AddOpts{RateLimited: true}, req)
}

// AddWithOpts adds tickets as [workqueue.PriorityQueue.AddWithOpts] does,
// filling in each ticket's priority when o has none and holding new
// tickets for the token bucket.
func (r *TicketRail) AddWithOpts(o workqueue.AddOpts, items ...reconcile.Request) {
	for _, req := range items {
		opts := o
		if opts.Priority == nil {
			p := 0
			if r.priority != nil {
				p = r.priority(req)
			}
			opts.Priority = &p
		}
		requeue := opts.RateLimited || opts.After > 0
		r.mu.Lock()
		isNew := !r.seen[req]
		r.seen[req] = true
		heldFor := time.Until(r.held[req])
		if heldFor <= 0 {
			delete(r.held, req)
		}
		r.mu.Unlock()
		switch {
		case requeue && opts.RateLimited:
			r.log.Say("rail", "ticket %s back on the rail after a backoff (try %d)", req, r.NumRequeues(req)+1)
		case requeue:
			r.log.Say("rail", "ticket %s back on the rail in %.1f min", req, r.clock.Kitchen(opts.After).Minutes())
		case heldFor > 0:
			opts.After = heldFor // still waiting for its token
			r.log.Detail("rail", "ticket %s is still waiting for the token bucket", req)
		case isNew:
			if wait := r.admit(req); wait > 0 {
				opts.After = wait
				r.log.Say("rail", "ticket %s waits %.1f min for the token bucket", req, r.clock.Kitchen(wait).Minutes())
			}
		}
		r.PriorityQueue.AddWithOpts(opts, req)
	}
}

// admit takes a token for a new ticket, records when the bucket lets it
// through, and returns how long it must wait for that (0 without a
// bucket).
func (r *TicketRail) admit(req reconcile.Request) time.Duration {
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	wait := r.bucket.ReserveN(now, 1).DelayFrom(now)
	r.admitted[req] = now.Add(wait)
	if wait > 0 {
		r.held[req] = now.Add(wait)
	}
	return wait
}

// AdmittedAt returns the instant req's first ticket was let through to the
// chef — the moment its token came due in the token bucket, or the moment
// it was added when there is no bucket or a token was free — and whether
// the rail has seen req. It reports the bucket's own decision, so it does
// not depend on when a worker happened to take the ticket.
func (r *TicketRail) AdmittedAt(req reconcile.Request) (time.Time, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, ok := r.admitted[req]
	return t, ok
}

// Done marks the ticket of req as worked, as [workqueue.PriorityQueue.Done]
// does, and forgets req if its order is gone ([RailOptions].Gone). Gone
// is asked with the rail's lock held, so that an add for a new order of
// the same name, which comes after the runner's cache has it, is either
// seen by Gone or counted as new.
func (r *TicketRail) Done(req reconcile.Request) {
	r.PriorityQueue.Done(req)
	if r.gone == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.gone(req) {
		delete(r.seen, req)
		delete(r.admitted, req)
		delete(r.held, req)
	}
}

// Known returns how many orders the rail remembers: those it has had a
// ticket for and not forgotten (see [RailOptions].Gone).
func (r *TicketRail) Known() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.seen)
}

// GetWithPriority hands the chef the next ticket: highest priority first.
func (r *TicketRail) GetWithPriority() (reconcile.Request, int, bool) {
	req, p, shutdown := r.PriorityQueue.GetWithPriority()
	if !shutdown {
		r.log.Detail("rail", "chef takes ticket %s (priority %d)", req, p)
	}
	return req, p, shutdown
}

// Get is GetWithPriority without the priority.
func (r *TicketRail) Get() (reconcile.Request, bool) {
	req, _, shutdown := r.GetWithPriority()
	return req, shutdown
}

// VIPBonus is what a VIP table adds to its order's priority.
const VIPBonus = 100

// TicketPriority is an order's priority on the rail: its spec.priority,
// plus [VIPBonus] in the "vip" section.
func TicketPriority(o *Order) int {
	if o == nil {
		return 0
	}
	p := o.Spec.Priority
	if o.Spec.Section == "vip" {
		p += VIPBonus
	}
	return p
}
