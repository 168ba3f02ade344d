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
// state of every lane (small), and the events since the last frame.
type frame struct {
	At        int64             `json:"at"`
	RV        string            `json:"rv"`
	MinuteMs  float64           `json:"minuteMs"`
	SlowMs    int64             `json:"slowMs"`
	Traced    []trace.Component `json:"traced"` // the components heard from
	Orders    []orderView       `json:"orders"`
	Fifo      []fifoEntry       `json:"fifo"`
	Cache     []cacheEntry      `json:"cache"`
	Watches   []reflector       `json:"watches"`
	Tickets   []ticket          `json:"tickets"`
	Depth     int               `json:"depth"`
	Workers   []worker          `json:"workers"`
	Stations  []station         `json:"stations"`
	Events    []event           `json:"events"`
	Coalesced int               `json:"coalesced"`
	Dropped   uint64            `json:"dropped"`
	Counters  counters          `json:"counters"`
	Chart     []sample          `json:"chart"`
}

type fifoEntry struct {
	Key    string   `json:"key"`
	Deltas []string `json:"deltas"`
}

type cacheEntry struct {
	Key   string `json:"key"`
	RV    string `json:"rv"`
	Phase string `json:"phase"`
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
	ReconcileMs float64 `json:"reconcileMs"` // mean over the last interval
}

// frame returns the current state; with events, it takes the events
// gathered since the last frame.
func (v *View) frame(events bool) frame {
	f := frame{At: time.Since(v.m.start).Milliseconds(), RV: v.r.Server.ResourceVersion(),
		MinuteMs: float64(v.r.Clock.Minute()) / float64(time.Millisecond), Depth: v.r.Rail.Len(),
		Dropped: v.feed.Dropped(), Cache: v.cache(), Stations: v.stations()}
	v.m.fill(&f)
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
func encode(f frame) []byte {
	b, err := json.Marshal(f)
	if err != nil { // only plain values: cannot happen
		panic(err)
	}
	return b
}

// fill copies the model's lanes into f.
func (m *model) fill(f *frame) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	f.Traced = slices.Sorted(maps.Keys(m.traced))
	for _, k := range slices.Sorted(maps.Keys(m.watches)) {
		f.Watches = append(f.Watches, *m.watches[k])
	}
	for _, k := range slices.Sorted(maps.Keys(m.fifo)) {
		f.Fifo = append(f.Fifo, fifoEntry{Key: k, Deltas: m.fifo[k]})
	}
	for _, t := range m.tickets {
		c := *t
		if !c.due.IsZero() {
			c.DueIn = max(0, c.due.Sub(now).Milliseconds())
		}
		f.Tickets = append(f.Tickets, c)
	}
	slices.SortFunc(f.Tickets, ticketOrder)
	for _, w := range slices.Sorted(maps.Keys(m.workers)) {
		c := *m.workers[w]
		c.For = now.Sub(c.since).Milliseconds()
		f.Workers = append(f.Workers, c)
	}
	f.Orders = m.recentOrders()
	f.Counters.Placed = m.placed
	f.Counters.Served = len(m.latencies)
	f.Counters.P50, f.Counters.P99 = percentile(m.latencies, 50), percentile(m.latencies, 99)
}

// ticketOrder sorts the rail as the chef will take it: waiting tickets by
// priority (VIP first) then arrival, then the delayed ones by due time.
func ticketOrder(a, b ticket) int {
	aw, bw := a.State == "waiting", b.State == "waiting"
	switch {
	case aw != bw:
		if aw {
			return -1
		}
		return 1
	case aw:
		return cmp.Or(cmp.Compare(b.Priority, a.Priority), cmp.Compare(a.added, b.added))
	}
	return cmp.Or(cmp.Compare(a.DueIn, b.DueIn), cmp.Compare(a.Key, b.Key))
}

// recentOrders lists the orders the page shows: open ones first, then the
// latest finished, newest first within each, at most 60.
func (m *model) recentOrders() []orderView {
	all := slices.Collect(maps.Values(m.orders))
	slices.SortFunc(all, func(a, b *orderView) int {
		if af, bf := a.finished(), b.finished(); af != bf {
			if af {
				return 1
			}
			return -1
		}
		return b.seen.Compare(a.seen)
	})
	out := make([]orderView, 0, min(len(all), 60))
	for _, o := range all[:min(len(all), 60)] {
		out = append(out, *o)
	}
	return out
}

func (o *orderView) finished() bool { return o.Gone || kitchen.OrderPhase(o.Phase).Final() }

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

// cache lists the orders in the runner's cache.
func (v *View) cache() []cacheEntry {
	var out []cacheEntry
	for _, o := range v.r.Runner.Orders.GetIndexer().List() {
		out = append(out, cacheEntry{Key: joinKey(o.Namespace, o.Name), RV: o.ResourceVersion,
			Phase: string(phaseOrPending(o.Status.Phase))})
	}
	slices.SortFunc(out, func(a, b cacheEntry) int { return cmp.Compare(a.Key, b.Key) })
	return out
}

// stations lists the cooks in the runner's cache by station.
func (v *View) stations() []station {
	busy := v.r.Stations.Busy()
	byName := map[string]*station{}
	for name := range kitchen.DefaultStations() {
		byName[name] = &station{Name: name, Cooks: []cookEntry{}}
	}
	for _, c := range v.r.Runner.Cooks.GetIndexer().List() {
		s := byName[c.Spec.Station]
		if s == nil {
			s = &station{Name: c.Spec.Station, Cooks: []cookEntry{}}
			byName[c.Spec.Station] = s
		}
		if c.Status.Phase == kitchen.CookDone || c.Status.Phase == kitchen.CookStopped {
			continue
		}
		s.Cooks = append(s.Cooks, cookEntry{Name: c.Name, Order: c.Spec.Order, Dish: c.Spec.Dish, Phase: cookPhase(c.Status.Phase)})
	}
	out := make([]station, 0, len(byName))
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		s := byName[name]
		s.Busy = busy[name]
		slices.SortFunc(s.Cooks, func(a, b cookEntry) int { return cmp.Compare(a.Name, b.Name) })
		out = append(out, *s)
	}
	return out
}

// sample adds a point to the chart: the rail's depth and the chef's mean
// reconcile time since the last point (from its metrics, so it needs no
// trace).
func (v *View) sample() {
	h := v.r.ChefMetrics().ReconcileTime
	v.mu.Lock()
	defer v.mu.Unlock()
	s := sample{At: time.Since(v.m.start).Milliseconds(), Depth: v.r.Rail.Len()}
	if n := float64(h.Count) - v.lastHist[0]; n > 0 {
		s.ReconcileMs = (h.Sum - v.lastHist[1]) / n * 1000
	}
	v.lastHist = [2]float64{float64(h.Count), h.Sum}
	v.chart = append(v.chart, s)
	if len(v.chart) > chartPoints {
		v.chart = slices.Delete(v.chart, 0, len(v.chart)-chartPoints)
	}
}
