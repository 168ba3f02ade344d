package liveview

import (
	"regexp"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/trace"
)

// The lanes of the page, in the order an order crosses them.
const (
	laneWaiter = "waiter"
	laneDesk   = "desk"
	laneRunner = "runner"
	laneRail   = "rail"
	laneChef   = "chef"
	laneCooks  = "cooks"
)

// laneOrder ranks the lanes, to keep an order's journey in flow order.
var laneOrder = []string{laneWaiter, laneDesk, laneRunner, laneRail, laneChef, laneCooks}

// Limits that keep the model's memory bounded however long it runs.
const (
	maxEventsPerFrame = 160 // a burst beyond this is coalesced: only the newest are sent
	maxHistory        = 120 // events kept per order
	maxOrders         = 500 // orders remembered, the oldest finished ones forgotten first
	maxLatencies      = 1000
)

// event is one thing the page shows moving: a trace record, or a change
// the runner's informers reported, placed in a lane.
type event struct {
	Seq   uint64 `json:"seq"`
	At    int64  `json:"at"` // milliseconds since the view opened
	Lane  string `json:"lane"`
	Order string `json:"order,omitempty"` // the order it concerns ("namespace/name")
	Key   string `json:"key,omitempty"`   // the object or queue item
	RV    string `json:"rv,omitempty"`
	Text  string `json:"text"`
	Class string `json:"class,omitempty"` // "gc", "finalizer", "relist", "error", "phase", ...
}

// orderView is what the page knows of one order.
type orderView struct {
	Key        string   `json:"key"`
	Name       string   `json:"name"`
	Phase      string   `json:"phase"`
	RV         string   `json:"rv"`
	Section    string   `json:"section"`
	Table      int      `json:"table"`
	Items      string   `json:"items"`
	Priority   int      `json:"priority"`
	Deleting   bool     `json:"deleting"`
	Gone       bool     `json:"gone"`
	Finalizers []string `json:"finalizers"`
	Lanes      []string `json:"lanes"` // visited, in flow order
	Current    string   `json:"current"`

	seen      time.Time      // when the page first heard of it
	afterGone []event        // told once the order is gone (the garbage collector's work)
	obj       *kitchen.Order // last known state, for its YAML
	history   []event
}

// visit records that the order reached lane.
func (o *orderView) visit(lane string) {
	o.Current = lane
	if slices.Contains(o.Lanes, lane) {
		return
	}
	o.Lanes = append(o.Lanes, lane)
	slices.SortFunc(o.Lanes, func(a, b string) int {
		return slices.Index(laneOrder, a) - slices.Index(laneOrder, b)
	})
}

// ticket is a ticket on the rail as the trace told it.
type ticket struct {
	Key      string `json:"key"`
	State    string `json:"state"` // "waiting", "delayed", "rate-limited", "again"
	Priority int    `json:"priority"`
	DueIn    int64  `json:"dueIn,omitempty"` // ms until a delayed ticket is ready
	due      time.Time
	added    uint64 // order of arrival, for FIFO within a priority
}

// reflector is what the trace told of one informer's reflector.
type reflector struct {
	Resource string `json:"resource"`
	Lists    int    `json:"lists"`   // lists made (the first, then relists)
	Watches  int    `json:"watches"` // watches started
	Now      string `json:"now"`     // its last action
}

// worker is a chef worker busy with a reconcile.
type worker struct {
	Worker int    `json:"worker"`
	Key    string `json:"key"`
	For    int64  `json:"for"` // ms since it started
	since  time.Time
}

// model is the live view's state: everything the trace and the runner's
// informers have told, kept small. It is safe for concurrent use.
type model struct {
	start time.Time
	clock *kitchen.Clock

	mu        sync.Mutex // guards everything below
	seq       uint64
	pending   []event // since the last frame
	coalesced int     // events left out of frames so far
	orders    map[string]*orderView
	cookOwner map[string]string   // cook key → order key
	gc        collected           // which cooks the garbage collector deleted (its own lock)
	fifo      map[string][]string // informer/key → pending deltas
	tickets   map[string]*ticket
	workers   map[int]*worker
	watches   map[string]*reflector // by resource
	recTimes  []time.Duration       // reconcile durations since the last sample
	latencies []time.Duration       // placed → served, kitchen time
	placed    int
	traced    map[trace.Component]bool // components heard from: their lanes need no inference
}

func newModel(clock *kitchen.Clock) *model {
	return &model{
		start: time.Now(), clock: clock,
		orders: map[string]*orderView{}, cookOwner: map[string]string{},
		fifo: map[string][]string{}, tickets: map[string]*ticket{},
		workers: map[int]*worker{}, watches: map[string]*reflector{}, traced: map[trace.Component]bool{},
	}
}

// emit queues ev for the next frame and files it in its order's history.
// It must be called with mu held.
func (m *model) emit(ev event) {
	m.seq++
	ev.Seq = m.seq
	ev.At = time.Since(m.start).Milliseconds()
	m.pending = append(m.pending, ev)
	if len(m.pending) > 4*maxEventsPerFrame { // nobody is reading: keep the newest
		n := len(m.pending) - maxEventsPerFrame
		m.coalesced += n
		m.pending = slices.Delete(m.pending, 0, n)
	}
	if o := m.orders[ev.Order]; o != nil {
		o.visit(ev.Lane)
		o.history = insertByRV(o.history, ev)
		if len(o.history) > maxHistory {
			o.history = slices.Delete(o.history, 0, len(o.history)-maxHistory)
		}
	}
}

// insertByRV appends ev to history, but before the events with a higher
// resourceVersion: the runner's informers for orders and cooks each
// deliver in order, but not in order with each other.
func insertByRV(history []event, ev event) []event {
	rv, err := strconv.ParseUint(ev.RV, 10, 64)
	i := len(history)
	for err == nil && i > 0 {
		prev, perr := strconv.ParseUint(history[i-1].RV, 10, 64)
		if perr != nil || prev <= rv {
			break
		}
		i--
	}
	return slices.Insert(history, i, ev)
}

// order returns the view of the order key, creating it if new. It must
// be called with mu held.
func (m *model) order(key string) *orderView {
	if o := m.orders[key]; o != nil {
		return o
	}
	_, name := splitKey(key)
	o := &orderView{Key: key, Name: name, Phase: "New", seen: time.Now()}
	m.orders[key] = o
	m.forgetOld()
	return o
}

// forgetOld drops the oldest finished orders beyond maxOrders.
func (m *model) forgetOld() {
	if len(m.orders) <= maxOrders {
		return
	}
	var done []*orderView
	for _, o := range m.orders {
		if o.Gone || kitchen.OrderPhase(o.Phase).Final() {
			done = append(done, o)
		}
	}
	slices.SortFunc(done, func(a, b *orderView) int { return a.seen.Compare(b.seen) })
	for _, o := range done[:min(len(done), len(m.orders)-maxOrders)] {
		delete(m.orders, o.Key)
	}
}

// takeEvents returns the events since the last call, at most
// maxEventsPerFrame (the newest), and how many were coalesced away.
func (m *model) takeEvents() ([]event, int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	evs := m.pending
	m.pending = nil
	if n := len(evs) - maxEventsPerFrame; n > 0 {
		m.coalesced += n
		evs = evs[n:]
	}
	return evs, m.coalesced
}

// cookName is how the chef names a cook: order, item, generation.
var cookName = regexp.MustCompile(`^(.+)-\d+-g\d+$`)

// ownerOf returns the order a cook key belongs to, or "".
func (m *model) ownerOf(cookKey string) string {
	if o, ok := m.cookOwner[cookKey]; ok {
		return o
	}
	ns, name := splitKey(cookKey)
	if s := cookName.FindStringSubmatch(name); s != nil {
		return joinKey(ns, s[1])
	}
	return ""
}

func splitKey(key string) (ns, name string) {
	for i := range len(key) {
		if key[i] == '/' {
			return key[:i], key[i+1:]
		}
	}
	return "", key
}

func joinKey(ns, name string) string {
	if ns == "" {
		return name
	}
	return ns + "/" + name
}
