package liveview

import (
	"cmp"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/trace"
)

// The stages of the pipeline the page draws, in the order an order
// crosses them: the waiter writes to the API server, whose watch feeds the
// runner's reflector, queue (a RealFIFO, or a DeltaFIFO), indexer (the
// cache) and handlers; they pin tickets on the rail, a worker takes each
// to the reconciler (the chef), which writes back to the API server and
// sends cooks to their stations.
const (
	stageWaiter     = "waiter"
	stageAPIServer  = "apiserver"
	stageWatch      = "watch"
	stageReflector  = "reflector"
	stageQueue      = "queue"
	stageIndexer    = "indexer"
	stageHandlers   = "handlers"
	stageRail       = "rail"
	stageWorkers    = "workers"
	stageReconciler = "reconciler"
	stageStations   = "stations"
	stageDone       = "done" // served, cancelled or gone: off the pipeline
)

// stageOrder ranks the stages: an order's history sorts the events of one
// resourceVersion by it.
var stageOrder = []string{stageWaiter, stageAPIServer, stageWatch, stageReflector, stageQueue, stageIndexer,
	stageHandlers, stageRail, stageWorkers, stageReconciler, stageStations, stageDone}

func rankOf(stage string) int { return slices.Index(stageOrder, stage) }

// Limits that keep the model's memory bounded however long it runs.
const (
	maxEventsPerFrame = 160 // a burst beyond this is coalesced: only the newest are sent
	maxHistory        = 400 // events kept per order: the first historyHead and the newest
	historyHead       = 100
	maxOrders         = 500 // orders remembered, the oldest finished ones forgotten first
	maxLatencies      = 1000
	maxCommits        = 8 // the API server's resourceVersion log the page shows
)

// event is one thing the page shows moving: a trace record, a change the
// runner's informers reported, or a note, placed at a stage.
type event struct {
	Seq   uint64 `json:"seq"`
	At    int64  `json:"at"` // milliseconds since the view opened
	Stage string `json:"stage"`
	Order string `json:"order,omitempty"` // the order it concerns ("namespace/name")
	Key   string `json:"key,omitempty"`   // the object or queue item
	RV    string `json:"rv,omitempty"`
	Text  string `json:"text"`
	Class string `json:"class,omitempty"` // "gc", "finalizer", "relist", "error", "phase", ...
	// Cause is the resourceVersion the event follows from: its own, or
	// the order's newest known when it has none. An order's history is
	// sorted by Cause, then by stage, then by Seq: the cause-and-effect
	// order, whichever source told the view first.
	Cause uint64 `json:"cause,omitempty"`
}

// causalLess orders two events of one order's history.
func causalLess(a, b event) int {
	return cmp.Or(cmp.Compare(a.Cause, b.Cause), cmp.Compare(rankOf(a.Stage), rankOf(b.Stage)), cmp.Compare(a.Seq, b.Seq))
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
	Stages     []string `json:"stages"` // visited, in pipeline order
	// At is the stage the order is at now (see model.at).
	At string `json:"at"`
	// N numbers the orders in the order the page heard of them.
	N uint64 `json:"n"`
	// Last is the number (Seq) of its newest event: a page whose history
	// of it stops short lost some to a full frame.
	Last uint64 `json:"last"`

	last      string // the stage of its newest event
	cause     uint64 // the newest resourceVersion of it (or its cooks) seen
	seen      time.Time
	afterGone []event // told once the order is gone (the garbage collector's work)
	// The newest writes of it and of its cooks at the API server, and
	// that cook's key (see model_stale.go).
	wroteOrder, wroteCooks uint64
	wroteCook              string
	obj                    *kitchen.Order // last known state, for its YAML
	history                []event
	left                   int // events left out of the middle of history
}

// visit records that the order reached stage.
func (o *orderView) visit(stage string) {
	o.last = stage
	if slices.Contains(o.Stages, stage) {
		return
	}
	o.Stages = append(o.Stages, stage)
	slices.SortFunc(o.Stages, func(a, b string) int { return rankOf(a) - rankOf(b) })
}

// file adds ev to the order's history in causal order, keeping the first
// historyHead events and the newest.
func (o *orderView) file(ev event) {
	i, _ := slices.BinarySearchFunc(o.history, ev, causalLess)
	o.history = slices.Insert(o.history, i, ev)
	if len(o.history) > maxHistory {
		n := len(o.history) - maxHistory
		o.history = slices.Delete(o.history, historyHead, historyHead+n)
		o.left += n
	}
}

// ticket is a ticket on the rail as the trace told it.
type ticket struct {
	Key      string `json:"key"`
	State    string `json:"state"` // "queued", "delayed", "token", "rate-limited", "processing"
	Priority int    `json:"priority"`
	Dirty    bool   `json:"dirty,omitempty"`  // added again while a worker has it
	Merged   int    `json:"merged,omitempty"` // adds collapsed into it
	DueIn    int64  `json:"dueIn,omitempty"`  // ms until a delayed ticket is ready
	due      time.Time
	added    uint64 // order of arrival, for FIFO within a priority
}

// reflector is what the trace told of one informer's reflector and its
// watch.
type reflector struct {
	Resource string `json:"resource"`
	Lists    int    `json:"lists"`   // lists made (the first, then relists)
	Watches  int    `json:"watches"` // watches started
	Now      string `json:"now"`     // its last action, with the rv
	Watching bool   `json:"watching"`
	State    string `json:"state"`          // reflWatching, reflCut, ...: what it does now
	From     string `json:"from,omitempty"` // the rv its watch started from
	Events   int    `json:"events"`         // watch events it queued

	since time.Time // when its watch started
}

// worker is a chef worker busy with a reconcile.
type worker struct {
	Worker int    `json:"worker"`
	Key    string `json:"key"`
	For    int64  `json:"for"` // ms since it started
	since  time.Time
}

// commit is one write of the API server's resourceVersion log.
type commit struct {
	RV     string `json:"rv"`
	Kind   string `json:"kind"`
	Name   string `json:"name"`
	Action string `json:"action"`
}

// model is the live view's state: everything the trace and the runner's
// informers have told, kept small. It is safe for concurrent use.
type model struct {
	start time.Time
	clock *kitchen.Clock

	mu        sync.Mutex // guards everything below
	seq       uint64
	n         uint64  // orders heard of
	pending   []event // since the last frame
	coalesced int     // events left out of frames so far
	orders    map[string]*orderView
	cookOwner map[string]string   // cook key → order key
	gc        collected           // which cooks the garbage collector deleted (its own lock)
	fifo      map[string][]string // informer/key → pending deltas
	fifoOrder []string            // the keys of fifo, in the order they were queued
	tickets   map[string]*ticket
	workers   map[int]*worker
	watches   map[string]*reflector // by resource
	commits   []commit              // the newest writes
	notes     []event               // lasting notes: watches cut, history compacted, 410
	took      map[string]bool       // tickets a worker has taken at least once
	counts    stageCounts
	recTimes  []time.Duration // reconcile durations since the last sample
	latencies []time.Duration // placed → served, kitchen time
	placed    int
	traced    map[trace.Component]bool // components heard from
	classes   map[string]int           // events filed, by class
	cacheRV   map[string]uint64        // the runner's caches, by resource: the newest rv each took in (see model_stale.go)
}

// stageCounts are the hand-offs counted at each stage since the view
// opened.
type stageCounts struct {
	Commits    int `json:"commits"`
	Events     int `json:"events"` // watch events queued
	Cached     int `json:"cached"` // cache updates
	Handled    int `json:"handled"`
	Dropped    int `json:"dropped"` // events a predicate dropped
	Pinned     int `json:"pinned"`  // tickets added
	MergedAll  int `json:"merged"`
	Taken      int `json:"taken"`
	Reconciled int `json:"reconciled"`
	Conflicts  int `json:"conflicts"`
	Notes      int `json:"notes"`      // Event objects written (kubectl describe's notes)
	StaleSkips int `json:"staleSkips"` // tickets the chef skipped: his caches lagged his writes
}

func newModel(clock *kitchen.Clock) *model {
	return &model{
		start: time.Now(), clock: clock,
		orders: map[string]*orderView{}, cookOwner: map[string]string{},
		fifo: map[string][]string{}, tickets: map[string]*ticket{}, took: map[string]bool{},
		workers: map[int]*worker{}, watches: map[string]*reflector{}, traced: map[trace.Component]bool{},
	}
}

// emit queues ev for the next frame and files it in its order's history.
// It must be called with mu held.
func (m *model) emit(ev event) {
	m.seq++
	ev.Seq = m.seq
	ev.At = time.Since(m.start).Milliseconds()
	o := m.orders[ev.Order]
	if rv, err := strconv.ParseUint(ev.RV, 10, 64); err == nil {
		ev.Cause = rv
		if o != nil {
			o.cause = max(o.cause, rv)
		}
	} else if o != nil {
		ev.Cause = o.cause
	}
	m.countClasses(ev)
	m.pending = append(m.pending, ev)
	if len(m.pending) > 4*maxEventsPerFrame { // nobody is reading: keep the newest
		n := len(m.pending) - maxEventsPerFrame
		m.coalesced += n
		m.pending = slices.Delete(m.pending, 0, n)
	}
	if o != nil {
		o.visit(ev.Stage)
		o.file(ev)
		o.Last = ev.Seq
	}
}

// note files a lasting note (watches cut, history compacted, a relist):
// the page keeps the newest few in view. It must be called with mu held.
func (m *model) noteLocked(ev event) {
	m.emit(ev)
	ev.Seq, ev.At = m.seq, time.Since(m.start).Milliseconds()
	m.notes = append(m.notes, ev)
	if len(m.notes) > 6 {
		m.notes = slices.Delete(m.notes, 0, len(m.notes)-6)
	}
}

// order returns the view of the order key, creating it if new. It must
// be called with mu held.
func (m *model) order(key string) *orderView {
	if o := m.orders[key]; o != nil {
		return o
	}
	_, name := splitKey(key)
	m.n++
	o := &orderView{Key: key, Name: name, Phase: "New", seen: time.Now(), N: m.n}
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
		if o.finished() {
			done = append(done, o)
		}
	}
	slices.SortFunc(done, func(a, b *orderView) int { return cmp.Compare(a.N, b.N) })
	for _, o := range done[:min(len(done), len(m.orders)-maxOrders)] {
		delete(m.orders, o.Key)
		delete(m.took, o.Key)
	}
}

func (o *orderView) finished() bool { return o.Gone || kitchen.OrderPhase(o.Phase).Final() }

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
