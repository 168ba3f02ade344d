package liveview

import (
	"strings"

	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/trace"
)

// chefController is the name the kitchen gives its chef controller; the
// brigade's queue and controller belong to the cooks' stations.
const chefController = "chef"

// applyRecord files one trace record: it updates the stages' state and
// queues an event for the page.
func (m *model) applyRecord(rec trace.Record) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.traced[rec.Component] = true
	if onlooker(rec) || rec.Kind == "Event" || rec.Kind == "Lease" && rec.Component != trace.APIServer {
		// The view's own handlers, other onlookers and the chef's notes
		// (Event objects, for kubectl describe) are not hand-offs of an
		// order: count the notes, show the rest nowhere.
		if rec.Kind == "Event" && rec.Component == trace.APIServer {
			m.counts.Notes++
		}
		return
	}
	stage := stageOf(rec)
	orderKey := m.orderKeyOf(rec)
	switch stage {
	case stageAPIServer:
		m.applyServer(rec)
	case stageReflector, stageQueue, stageIndexer, stageHandlers:
		m.applyRunner(rec)
	case stageRail, stageWorkers:
		m.applyRail(rec)
	case stageReconciler:
		m.applyChef(rec)
	}
	if orderKey != "" && m.orders[orderKey] == nil {
		if rec.Component != trace.APIServer || rec.Action != trace.Created || rec.Kind != "Order" {
			orderKey = "" // an order the page never saw created: no journey
		} else {
			m.order(orderKey)
		}
	}
	if o := m.orders[orderKey]; o != nil && stage == stageReconciler && rec.Action == trace.ReconcileStarted {
		o.visit(stageWorkers) // the chef only works tickets a worker took off the rail
	}
	ev := event{Stage: stage, Order: orderKey, Key: rec.Key, RV: rec.ResourceVersion,
		Text: describe(rec), Class: classOf(rec)}
	if rec.Action == trace.StaleSkipped {
		ev.Text, ev.RV, ev.Class = m.staleSkip(rec.Key)
	}
	if lasting(rec) {
		m.noteLocked(ev)
		return
	}
	m.emit(ev)
}

// onlooker reports whether rec is a call of a handler that is not the
// kitchen's: the view's own (added after the chef's on orders, and after
// the chef's and the brigade's on cooks).
func onlooker(rec trace.Record) bool {
	if rec.Action != trace.HandlerCalled {
		return false
	}
	return rec.Worker > 2 || rec.Worker > 1 && shortResource(rec.Name) != "cooks"
}

// lasting reports whether rec is worth a note that stays in view: the
// events of the relist lessons.
func lasting(rec trace.Record) bool {
	switch rec.Action {
	case trace.WatchesClosed, trace.Compacted, trace.Expired:
		return true
	case trace.Listed:
		return rec.Err == nil
	}
	return false
}

// stageOf places a record at the stage of the part that acted.
func stageOf(rec trace.Record) string {
	switch rec.Component {
	case trace.APIServer:
		return stageAPIServer
	case trace.Reflector:
		return stageReflector
	case trace.RealFIFO, trace.DeltaFIFO:
		return stageQueue
	case trace.Informer:
		if rec.Action == trace.CacheUpdated {
			return stageIndexer
		}
		return stageHandlers
	case trace.Workqueue:
		if rec.Name != kitchen.RailName {
			return stageStations
		}
		if rec.Action == trace.Got || rec.Action == trace.Done {
			return stageWorkers
		}
		return stageRail
	case trace.Controller:
		switch {
		case rec.Name != chefController:
			return stageStations
		case rec.Action == trace.Dropped:
			return stageHandlers
		}
		return stageReconciler
	}
	return stageAPIServer
}

// orderKeyOf returns the order a record concerns: the order itself, or
// the order owning the cook it is about. It must be called with mu held.
func (m *model) orderKeyOf(rec trace.Record) string {
	if rec.Key == "" {
		return ""
	}
	if rec.Kind == "Order" || m.orders[rec.Key] != nil {
		return rec.Key
	}
	if rec.Kind == "Cook" || rec.Name == "brigade" || strings.Contains(rec.Name, "cooks") {
		return m.ownerOf(rec.Key)
	}
	if rec.Name == kitchen.RailName || rec.Name == chefController {
		return rec.Key
	}
	return ""
}

// applyServer keeps the API server's resourceVersion log. It must be
// called with mu held.
func (m *model) applyServer(rec trace.Record) {
	switch rec.Action {
	case trace.Created, trace.Updated, trace.Deleted:
		m.counts.Commits++
		m.wrote(rec)
		_, name := splitKey(rec.Key)
		m.commits = append(m.commits, commit{RV: rec.ResourceVersion, Kind: rec.Kind, Name: name, Action: string(rec.Action)})
		if len(m.commits) > maxCommits {
			m.commits = m.commits[len(m.commits)-maxCommits:]
		}
	case trace.Conflict:
		m.counts.Conflicts++
	case trace.WatchesClosed:
		for _, w := range m.watches {
			w.cut()
		}
	}
}

// applyRunner keeps the reflectors' states, the queue's pending deltas
// and the informer's counts. It must be called with mu held.
func (m *model) applyRunner(rec trace.Record) {
	res := shortResource(rec.Name)
	switch rec.Action {
	case trace.DeltaRecorded:
		id := res + " " + rec.Key
		if rec.Key == "" {
			id = res + " (all)"
		}
		if _, ok := m.fifo[id]; !ok {
			m.fifoOrder = append(m.fifoOrder, id)
		}
		m.fifo[id] = append(m.fifo[id], deltaText(rec))
		m.reflector(res).Events++
		m.counts.Events++
	case trace.DeltaPopped:
		id := res + " " + rec.Key
		if rec.Key == "" {
			id = res + " (all)"
		}
		if d := m.fifo[id]; len(d) > max(rec.Count, 1) {
			m.fifo[id] = d[max(rec.Count, 1):]
		} else {
			delete(m.fifo, id)
			m.fifoOrder = slicesDelete(m.fifoOrder, id)
		}
	case trace.CacheUpdated:
		m.counts.Cached++
		m.cached(res, rec.ResourceVersion)
	case trace.HandlerCalled:
		m.counts.Handled++
	case trace.Listed, trace.WatchStarted, trace.WatchEnded, trace.Expired:
		m.reflector(res).heard(rec)
	}
}

func deltaText(rec trace.Record) string {
	s := rec.DeltaType
	if rec.Count > 0 {
		s += " ×" + itoa(rec.Count)
	}
	if rec.ResourceVersion != "" {
		s += " rv " + rec.ResourceVersion
	}
	return s
}

// reflector returns the state of the reflector of res, creating it.
func (m *model) reflector(res string) *reflector {
	w := m.watches[res]
	if w == nil {
		w = &reflector{Resource: res}
		m.watches[res] = w
	}
	return w
}

// applyRail keeps the tickets on the rail and the workers' hands. It must
// be called with mu held.
func (m *model) applyRail(rec trace.Record) {
	t := m.tickets[rec.Key]
	if t == nil {
		t = &ticket{Key: rec.Key, added: rec.Seq}
	}
	switch rec.Action {
	case trace.Added, trace.Requeued:
		m.counts.Pinned++
		t.State, t.Priority, t.Dirty, t.due = "queued", rec.Priority, false, rec.Time
	case trace.Merged:
		m.counts.MergedAll++
		t.Merged++
		t.Priority = max(t.Priority, rec.Priority)
		if t.State == "" {
			t.State = "queued"
		}
	case trace.Deferred:
		t.Dirty = true
		if t.State == "" {
			t.State = "processing"
		}
	case trace.Delayed, trace.RateLimited:
		t.State, t.Priority = string(rec.Action), rec.Priority
		if rec.Action == trace.Delayed && !m.took[rec.Key] {
			t.State = "token" // a new ticket waiting for the token bucket
		}
		t.due = rec.Time.Add(rec.Duration)
	case trace.Got:
		m.counts.Taken++
		m.took[rec.Key] = true
		t.State, t.Dirty, t.Merged, t.due = "processing", false, 0, rec.Time
	case trace.Done:
		if t.State == "processing" && !t.Dirty {
			delete(m.tickets, rec.Key)
		}
		return
	default:
		return
	}
	m.tickets[rec.Key] = t
}

// applyChef keeps what each chef worker is reconciling. It must be called
// with mu held.
func (m *model) applyChef(rec trace.Record) {
	switch rec.Action {
	case trace.ReconcileStarted:
		m.workers[rec.Worker] = &worker{Worker: rec.Worker, Key: rec.Key, since: rec.Time}
	case trace.ReconcileFinished:
		m.counts.Reconciled++
		delete(m.workers, rec.Worker)
		m.recTimes = append(m.recTimes, rec.Duration)
	}
}

func slicesDelete(s []string, x string) []string {
	for i, v := range s {
		if v == x {
			return append(s[:i], s[i+1:]...)
		}
	}
	return s
}
