package dinner

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
	"github.com/kitchensync/kitchensync/reconcile"
)

// Summary is the end-of-service report of [Run].
type Summary struct {
	Seed                        int64
	Orders                      int
	Served, Rejected, Cancelled int
	// Outcomes maps each order's name to its final phase.
	Outcomes map[string]kitchen.OrderPhase
	// LatencyP50 and LatencyP99 are order-to-table times (placed →
	// served) in kitchen time, rounded to the minute.
	LatencyP50, LatencyP99 time.Duration
	// Length is the service's length in kitchen time, rounded to the
	// minute.
	Length time.Duration
	// PollingRequests is what a kitchen without a runner would have
	// made: every kitchen minute, one list of orders, and for each open
	// order one get of it and one list of its cooks.
	PollingRequests int64
	// Counters are what the machinery did. Unlike the rest of the
	// Summary they can differ by a few between runs of the same seed:
	// events that arrive at the same instant are collapsed on the rail or
	// collide in a write (409 Conflict, then a retry) depending on how the
	// goroutines happened to be scheduled.
	Counters Counters
	// PantryErr is nil when every ingredient is accounted for and no
	// reservation is left over.
	PantryErr error
}

// Counters count the work of a service.
type Counters struct {
	// Reconciles and Requeues count the chef's reconciles (by the chef
	// controller's metrics) and those that asked to be requeued (an error
	// or a RequeueAfter); CookReconciles counts the brigade's.
	Reconciles, Requeues, CookReconciles int64
	// APIRequests is every request made to the API server (the informers'
	// lists and watches included).
	APIRequests int64
	// Chef and Brigade are the two controllers' metrics at the end of the
	// service, with controller-runtime's meanings (reconcile/prommetrics
	// exports them to Prometheus).
	Chef, Brigade reconcile.Metrics
}

// Write prints the summary as a small table: [Summary.WriteOutcomes],
// then the counters of the machinery.
func (s Summary) Write(w io.Writer) {
	s.WriteOutcomes(w)
	fmt.Fprintf(w, "  %-13s %d by the chef (%d requeued), %d by the brigade (the cooks' reconciler)\n", "reconciles", s.Counters.Reconciles, s.Counters.Requeues, s.Counters.CookReconciles)
	fmt.Fprintf(w, "  %-13s %d made; polling every kitchen minute would have made %d\n", "API requests", s.Counters.APIRequests, s.PollingRequests)
}

// WriteOutcomes prints the lines of the summary that a seed fixes in
// virtual time: the service's length, the outcomes, the latencies and the
// pantry's balance — not the [Counters], which vary by a few between runs.
func (s Summary) WriteOutcomes(w io.Writer) {
	pantry := "balanced: no ingredient lost or counted twice"
	if s.PantryErr != nil {
		pantry = "NOT BALANCED: " + s.PantryErr.Error()
	}
	fmt.Fprintf(w, "dinner service (seed %d): %d orders in %.0f kitchen minutes\n", s.Seed, s.Orders, s.Length.Minutes())
	fmt.Fprintf(w, "  %-13s %d\n", "served", s.Served)
	fmt.Fprintf(w, "  %-13s %d\n", "rejected", s.Rejected)
	fmt.Fprintf(w, "  %-13s %d\n", "cancelled", s.Cancelled)
	fmt.Fprintf(w, "  %-13s p50 %.0f min, p99 %.0f min (order placed → served)\n", "latency", s.LatencyP50.Minutes(), s.LatencyP99.Minutes())
	fmt.Fprintf(w, "  %-13s %s\n", "pantry", pantry)
}

// observer watches orders through the runner and records each order's
// first final phase, and when it got there.
type observer struct {
	clock *kitchen.Clock
	want  int
	done  chan struct{}

	mu       sync.Mutex // guards the maps
	placedAt map[string]time.Duration
	finalAt  map[string]time.Duration
	outcome  map[string]kitchen.OrderPhase
}

func newObserver(r *restaurant.Restaurant, want int) *observer {
	return &observer{clock: r.Clock, want: want, done: make(chan struct{}),
		placedAt: map[string]time.Duration{}, finalAt: map[string]time.Duration{}, outcome: map[string]kitchen.OrderPhase{}}
}

func (o *observer) placed(name string, at time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.placedAt[name] = at
}

func (o *observer) OnAdd(order *kitchen.Order, _ bool) { o.see(order, false) }
func (o *observer) OnUpdate(_, order *kitchen.Order)   { o.see(order, false) }
func (o *observer) OnDelete(order *kitchen.Order, _ bool) {
	o.see(order, true)
}

func (o *observer) see(order *kitchen.Order, deleted bool) {
	phase := order.Status.Phase
	if deleted && !phase.Final() {
		phase = kitchen.OrderCancelled // deleted before the chef said anything
	}
	if !phase.Final() {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, ok := o.outcome[order.Name]; ok {
		return
	}
	o.outcome[order.Name] = phase
	o.finalAt[order.Name] = o.clock.Now()
	if len(o.outcome) == o.want {
		close(o.done)
	}
}

// summary adds up the service.
func (o *observer) summary(r *restaurant.Restaurant, cfg Config) Summary {
	o.mu.Lock()
	defer o.mu.Unlock()
	s := Summary{Seed: cfg.Seed, Orders: o.want, Outcomes: map[string]kitchen.OrderPhase{}}
	var latencies []time.Duration
	var end time.Duration
	var open int64
	for name, phase := range o.outcome {
		s.Outcomes[name] = phase
		switch phase {
		case kitchen.OrderServed:
			s.Served++
			latencies = append(latencies, roundMinute(o.finalAt[name]-o.placedAt[name]))
		case kitchen.OrderRejected:
			s.Rejected++
		case kitchen.OrderCancelled:
			s.Cancelled++
		}
		end = max(end, o.finalAt[name])
		open += int64(math.Ceil((o.finalAt[name] - o.placedAt[name]).Minutes()))
	}
	slices.Sort(latencies)
	s.LatencyP50, s.LatencyP99 = percentile(latencies, 50), percentile(latencies, 99)
	s.Length = roundMinute(end)
	s.Counters.Chef, s.Counters.Brigade = r.ChefMetrics(), r.BrigadeMetrics()
	m := s.Counters.Chef.ReconcileTotal
	s.Counters.Reconciles, s.Counters.Requeues = m.Success+m.Error+m.RequeueAfter, m.Error+m.RequeueAfter
	b := s.Counters.Brigade.ReconcileTotal
	s.Counters.CookReconciles = b.Success + b.Error + b.RequeueAfter
	if r.Server != nil { // nil for a remote kitchen: it cannot count the desk's requests
		for _, n := range r.Server.RequestCounts() {
			s.Counters.APIRequests += n
		}
	}
	s.PollingRequests = int64(math.Ceil(end.Minutes())) + 2*open
	s.PantryErr = r.Pantry.Check()
	if s.PantryErr == nil && len(r.Pantry.Holders()) > 0 {
		s.PantryErr = fmt.Errorf("reservations left over: %v", r.Pantry.Holders())
	}
	return s
}

func roundMinute(d time.Duration) time.Duration { return d.Round(time.Minute) }

// percentile returns the nearest-rank percentile of sorted values.
func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(float64(p) / 100 * float64(len(sorted))))
	return sorted[max(rank, 1)-1]
}
