package bakery

import (
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/store"
	"github.com/kitchensync/kitchensync/workqueue"
)

// frontDesk is the predicate through which the informer's events reach the
// controller: the front desk (前台) reads every change in its ledger and
// rings the kitchen's bell for those that matter — new orders, changed
// specs (a new generation), cancellations, resyncs — and not for the
// bakers' own status writes. It narrates each one, on the informer's
// delivery goroutine, before the ticket reaches the queue, so its lines
// come before the baker's.
type frontDesk struct {
	reconcile.Funcs[*Cake]
	journal *Journal
	who     string
}

// Create narrates a new order (or one from the first list) and passes it.
func (f frontDesk) Create(e reconcile.CreateEvent[*Cake]) bool {
	c := e.Object
	if e.IsInInitialList {
		f.journal.Say(f.who, key(c), "listed", "ledger: order %s (from the list, generation %d)", c.Name, c.Generation)
	} else {
		f.journal.Say(f.who, key(c), "noticed", "new order %s (generation %d) → ring the kitchen", c.Name, c.Generation)
	}
	return true
}

// Update passes and narrates cancellations, spec changes and resyncs, and
// drops the bakers' own writes.
func (f frontDesk) Update(e reconcile.UpdateEvent[*Cake]) bool {
	o, n := e.ObjectOld, e.ObjectNew
	switch {
	case o.DeletionTimestamp == nil && n.DeletionTimestamp != nil:
		f.journal.Say(f.who, key(n), "cancel-noticed", "order %s cancelled (deletionTimestamp set; the finalizer holds it)", n.Name)
	case o.Generation != n.Generation:
		f.journal.Say(f.who, key(n), "changed", "order %s changed (generation %d → %d) → ring the kitchen", n.Name, o.Generation, n.Generation)
	case o.ResourceVersion == n.ResourceVersion:
		f.journal.Say(f.who, key(n), "resync", "resync: check order %s against the kitchen", n.Name)
	default:
		return false // the bakers' own writes: status, finalizers
	}
	return true
}

// Delete narrates an order leaving the ledger and passes it.
func (f frontDesk) Delete(e reconcile.DeleteEvent[*Cake]) bool {
	f.journal.Say(f.who, key(e.Object), "gone", "order %s gone from the ledger", e.Object.Name)
	return true
}

func key(c *Cake) string { return c.Namespace + "/" + c.Name }

// rack is the controller's queue (工作队列): controller-runtime's priority
// queue, with each new ticket's priority read from its order's
// spec.priority — a VIP's 1000 goes before a regular 100. Requeues keep the
// priority the controller gives them.
type rack struct {
	*workqueue.PriorityQueue[reconcile.Request]
	cache   *store.Indexer[*Cake]
	journal *Journal
	who     string
}

func (r rack) priority(req reconcile.Request) int {
	if c, ok, _ := r.cache.GetByKey(req.String()); ok {
		return c.Spec.EffectivePriority()
	}
	return PriorityRegular
}

// Add puts a ticket on the rack at its order's priority.
func (r rack) Add(req reconcile.Request) {
	r.AddWithOpts(workqueue.AddOpts{}, req)
}

// AddWithOpts gives tickets that are not requeues their order's priority.
func (r rack) AddWithOpts(o workqueue.AddOpts, reqs ...reconcile.Request) {
	if o.RateLimited || o.After > 0 {
		r.PriorityQueue.AddWithOpts(o, reqs...)
		return
	}
	for _, req := range reqs {
		p := r.priority(req)
		if p > PriorityRegular {
			r.journal.Say(r.who, req.String(), "vip", "%s has priority %d → goes to the front of the rack", req.Name, p)
		}
		r.PriorityQueue.AddWithOpts(workqueue.AddOpts{After: o.After, Priority: &p}, req)
	}
}

// backoff is the controller's rate limiter: per-order exponential backoff
// starting at 5 shop minutes, narrated, and recorded so that scenes can
// show the delays.
type backoff struct {
	inner   workqueue.RateLimiter[reconcile.Request]
	clock   *Clock
	journal *Journal
	who     string

	mu     sync.Mutex // guards delays
	delays map[string][]time.Duration
}

func newBackoff(clock *Clock, journal *Journal, who string) *backoff {
	return &backoff{
		inner:   workqueue.NewItemExponentialFailureRateLimiter[reconcile.Request](clock.Real(5*time.Minute), clock.Real(16*time.Hour)),
		clock:   clock,
		journal: journal,
		who:     who,
		delays:  map[string][]time.Duration{},
	}
}

// When asks the exponential limiter for the delay, narrates and records it.
func (b *backoff) When(req reconcile.Request) time.Duration {
	d := b.inner.When(req)
	shop := b.clock.Kitchen(d).Round(time.Minute)
	b.mu.Lock()
	b.delays[req.String()] = append(b.delays[req.String()], shop)
	n := len(b.delays[req.String()])
	b.mu.Unlock()
	b.journal.Say(b.who, req.String(), "retry", "%s back on the rack in %s (rate limiter, retry #%d)", req.Name, FormatShop(shop), n)
	return d
}

// Forget resets req's backoff.
func (b *backoff) Forget(req reconcile.Request) { b.inner.Forget(req) }

// NumRequeues returns how often req failed since its last Forget.
func (b *backoff) NumRequeues(req reconcile.Request) int { return b.inner.NumRequeues(req) }

// Delays returns the backoff delays handed out for key, in shop time.
func (b *backoff) Delays(key string) []time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]time.Duration(nil), b.delays[key]...)
}
