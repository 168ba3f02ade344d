package liveview

import (
	"cmp"
	"encoding/json"
	"maps"
	"slices"
	"time"

	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/trace"
)

// frame is what the page receives several times a second: the whole
// state of the pipeline (small), and the events since the last frame.
type frame struct {
	At        int64             `json:"at"`
	RV        string            `json:"rv"`
	MinuteMs  float64           `json:"minuteMs"`
	SlowMs    int64             `json:"slowMs"`
	Traced    []trace.Component `json:"traced"` // the components heard from
	Tracer    bool              `json:"tracer"` // the kitchen has a tracer at all
	Gate      GateState         `json:"gate"`
	Scene     *sceneState       `json:"scene,omitempty"`
	Orders    []orderView       `json:"orders"`
	Pipe      pipeline          `json:"pipe"`
	Notes     []event           `json:"notes"`
	Events    []event           `json:"events"`
	Coalesced int               `json:"coalesced"`
	Dropped   uint64            `json:"dropped"`
	Counters  counters          `json:"counters"`
	Chart     []sample          `json:"chart"`
}

// pipeline is the state of each stage the page draws.
type pipeline struct {
	Commits    []commit    `json:"commits"` // the API server's newest writes
	Counts     stageCounts `json:"counts"`
	Reflectors []reflector `json:"reflectors"`
	Queue      string      `json:"queue"` // the informers' queue kind
	Fifo       []fifoEntry `json:"fifo"`  // the first pending keys
	FifoLen    int         `json:"fifoLen"`
	Cache      int         `json:"cache"` // orders in the indexer
	Index      []indexRow  `json:"index"` // the indexer's section index
	Rail       railCounts  `json:"rail"`
	Tickets    []ticket    `json:"tickets"` // the first tickets, as the chef takes them
	Bucket     string      `json:"bucket"`
	Workers    []worker    `json:"workers"`
	Stations   []station   `json:"stations"`
}

type fifoEntry struct {
	Key    string   `json:"key"`
	Deltas []string `json:"deltas"`
}

// indexRow is one value of an index and the orders filed under it.
type indexRow struct {
	Value string   `json:"value"`
	Count int      `json:"count"`
	Names []string `json:"names"`
}

// railCounts count the tickets on the rail by state.
type railCounts struct {
	Queued      int `json:"queued"` // ready: the next Get takes one
	Token       int `json:"token"`  // new, waiting for the token bucket
	Delayed     int `json:"delayed"`
	RateLimited int `json:"rateLimited"`
	Processing  int `json:"processing"`
	Dirty       int `json:"dirty"` // processing and added again
}

type station struct {
	Name  string      `json:"name"`
	Busy  int         `json:"busy"`
	Cooks []cookEntry `json:"cooks"`
}

type cookEntry struct {
	Name  string `json:"name"`
	Order string `json:"order"`
	Dish  string `json:"dish"`
	Phase string `json:"phase"`
}

// counters are the numbers at the top of the page.
type counters struct {
	APIRequests int64   `json:"apiRequests"`
	Polling     int64   `json:"polling"`
	Reconciles  int64   `json:"reconciles"`
	Errors      int64   `json:"errors"`
	Placed      int     `json:"placed"`
	Served      int     `json:"served"`
	P50         float64 `json:"p50"` // kitchen minutes, placed → served
	P99         float64 `json:"p99"`
}

// sample is one point of the chart.
type sample struct {
	At          int64   `json:"at"`
	Depth       int     `json:"depth"`
	Backlog     int     `json:"backlog"`     // tickets not yet ready: token bucket, delays, backoff
	ReconcileMs float64 `json:"reconcileMs"` // mean over the last interval
}

// Limits on what one frame lists (the counts are always whole).
const (
	frameOrders   = 160 // open orders
	frameFinished = 16  // recently finished orders
	frameFifo     = 10
	frameTickets  = 14
)

// frame returns the current state; with events, it takes the events
// gathered since the last frame.
func (v *View) frame(events bool) frame {
	f := frame{At: time.Since(v.m.start).Milliseconds(), RV: v.r.Server.ResourceVersion(),
		MinuteMs: float64(v.r.Clock.Minute()) / float64(time.Millisecond), Tracer: v.r.Tracer != nil,
		Dropped: v.feed.Dropped(), Gate: v.gate.State(), Scene: v.scenes.state()}
	f.Pipe.Stations = v.stations()
	f.Pipe.Cache, f.Pipe.Index = v.index()
	f.Pipe.Queue = queueName(v.r.Runner.Orders.QueueKind())
	f.Pipe.Bucket = v.bucket()
	v.m.fill(&f)
	f.Pipe.Rail.Queued = v.r.Rail.Len()
	if events {
		f.Events, f.Coalesced = v.m.takeEvents()
	}
	v.mu.Lock()
	f.SlowMs = v.slow.Milliseconds()
	f.Counters.Polling = int64(v.polling)
	f.Chart = slices.Clone(v.chart)
	v.mu.Unlock()
	for _, n := range v.r.Server.RequestCounts() {
		f.Counters.APIRequests += n
	}
	m := v.r.ChefMetrics()
	t := m.ReconcileTotal
	f.Counters.Reconciles, f.Counters.Errors = t.Success+t.Error+t.RequeueAfter, m.ReconcileErrors
	return f
}

// encode returns f as JSON.
func encode(f frame) []byte { return mustJSON(f) }

// mustJSON returns v, made of plain values, as JSON.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil { // only plain values: cannot happen
		panic(err)
	}
	return b
}

// fill copies the model's stages into f.
func (m *model) fill(f *frame) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	f.Traced = slices.Sorted(maps.Keys(m.traced))
	for _, k := range slices.Sorted(maps.Keys(m.watches)) {
		f.Pipe.Reflectors = append(f.Pipe.Reflectors, *m.watches[k])
	}
	f.Pipe.FifoLen = len(m.fifoOrder)
	for _, k := range m.fifoOrder[:min(len(m.fifoOrder), frameFifo)] {
		f.Pipe.Fifo = append(f.Pipe.Fifo, fifoEntry{Key: k, Deltas: m.fifo[k]})
	}
	f.Pipe.Counts = m.counts
	f.Pipe.Commits = slices.Clone(m.commits)
	f.Notes = slices.Clone(m.notes)
	tickets := m.railState(f, now)
	f.Pipe.Tickets = tickets[:min(len(tickets), frameTickets)]
	for _, w := range slices.Sorted(maps.Keys(m.workers)) {
		c := *m.workers[w]
		c.For = now.Sub(c.since).Milliseconds()
		f.Pipe.Workers = append(f.Pipe.Workers, c)
	}
	f.Orders = m.frameOrders(f.Gate)
	f.Counters.Placed = m.placed
	f.Counters.Served = len(m.latencies)
	f.Counters.P50, f.Counters.P99 = percentile(m.latencies, 50), percentile(m.latencies, 99)
}

// railState counts the tickets by state and returns them in the order
// the chef will take them. It must be called with mu held.
func (m *model) railState(f *frame, now time.Time) []ticket {
	var out []ticket
	for _, t := range m.tickets {
		c := *t
		if c.State != "queued" && c.State != "processing" && !c.due.IsZero() {
			c.DueIn = max(0, c.due.Sub(now).Milliseconds())
		}
		r := &f.Pipe.Rail
		switch c.State {
		case "token":
			r.Token++
		case "delayed":
			r.Delayed++
		case "rate-limited":
			r.RateLimited++
		case "processing":
			r.Processing++
		}
		if c.Dirty {
			r.Dirty++
		}
		out = append(out, c)
	}
	slices.SortFunc(out, ticketOrder)
	return out
}

// stateRank orders the rail's groups: processing, then ready tickets,
// then those that must wait.
var stateRank = map[string]int{"processing": 0, "queued": 1, "token": 2, "delayed": 3, "rate-limited": 4}

// ticketOrder sorts the rail as the chef will take it: ready tickets by
// priority (VIP first) then arrival, then the waiting ones by due time.
func ticketOrder(a, b ticket) int {
	if c := cmp.Compare(stateRank[a.State], stateRank[b.State]); c != 0 {
		return c
	}
	if a.State == "queued" {
		return cmp.Or(cmp.Compare(b.Priority, a.Priority), cmp.Compare(a.added, b.added))
	}
	return cmp.Or(cmp.Compare(a.DueIn, b.DueIn), cmp.Compare(a.Key, b.Key))
}

// frameOrders lists the orders the page shows, in the order it heard of
// them (so that rows never jump): the open ones, and the latest finished.
// Each has its stage now. It must be called with mu held.
func (m *model) frameOrders(g GateState) []orderView {
	var open, done []*orderView
	for _, o := range m.orders {
		if o.finished() {
			done = append(done, o)
		} else {
			open = append(open, o)
		}
	}
	byN := func(a, b *orderView) int { return cmp.Compare(a.N, b.N) }
	slices.SortFunc(open, byN)
	slices.SortFunc(done, byN)
	open = open[max(0, len(open)-frameOrders):]
	done = done[max(0, len(done)-frameFinished):]
	all := append(done, open...)
	slices.SortFunc(all, byN)
	held := map[string]string{}
	for _, h := range g.Waiting {
		key := h.Key
		if h.What == "timer" {
			key = m.ownerOf(key)
		}
		held[key] = h.Stage
	}
	cooking := map[string]int{}
	for _, owner := range m.cookOwner {
		cooking[owner]++
	}
	out := make([]orderView, 0, len(all))
	for _, o := range all {
		c := *o
		c.Stages = slices.Clone(o.Stages) // visit sorts the model's in place
		c.At = m.at(o, held, cooking)
		out = append(out, c)
	}
	return out
}

// at is the stage an order is at now: where the gate holds it, where a
// worker or the rail has it, where the runner's queue has it, off the
// pipeline once finished, at the stations while it has cooks (cooking,
// or waiting for a free station); else where it was last seen. It must
// be called with mu held.
func (m *model) at(o *orderView, held map[string]string, cooking map[string]int) string {
	if s, ok := held[o.Key]; ok {
		return s
	}
	for _, w := range m.workers {
		if w.Key == o.Key {
			return stageReconciler
		}
	}
	if t := m.tickets[o.Key]; t != nil {
		if t.State == "processing" {
			return stageWorkers
		}
		return stageRail
	}
	if _, ok := m.fifo["orders "+o.Key]; ok {
		return stageQueue
	}
	switch {
	case o.finished():
		return stageDone
	case o.Phase == string(kitchen.OrderCooking) || cooking[o.Key] > 0:
		return stageStations // its cooks are at work, or waiting for a station
	}
	return o.last
}

// openOrders counts the orders still being worked on.
func (m *model) openOrders() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, o := range m.orders {
		if !o.finished() {
			n++
		}
	}
	return n
}

// percentile returns the p-th percentile of ds in kitchen minutes (0 when
// empty), by the nearest-rank method.
func percentile(ds []time.Duration, p int) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(ds))
	i := max(0, (len(s)*p+99)/100-1)
	return s[i].Minutes()
}
