package liveview

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/trace"
)

// railQueue and chefController are the names the kitchen gives its
// ticket rail and its chef controller; the brigade's queue and controller
// belong to the cooks' lane.
const (
	railQueue      = "ticket-rail"
	chefController = "chef"
)

// applyRecord files one trace record: it updates the lanes' state and
// queues an event for the page.
func (m *model) applyRecord(rec trace.Record) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.traced[rec.Component] = true
	if rec.Action == trace.HandlerCalled && rec.Worker > 1 {
		return // the view's own handlers, and other onlookers: not the kitchen's hand-off
	}
	lane := laneOf(rec)
	orderKey := m.orderKeyOf(rec)
	if o := m.orders[orderKey]; o != nil && lane == laneChef && rec.Action == trace.ReconcileStarted {
		o.visit(laneRail) // the chef only works tickets it took off the rail
	}
	switch lane {
	case laneRunner:
		m.applyRunner(rec)
	case laneRail:
		m.applyRail(rec)
	case laneChef:
		m.applyChef(rec)
	}
	if orderKey != "" && m.orders[orderKey] == nil {
		if rec.Component != trace.APIServer || rec.Action != trace.Created {
			orderKey = "" // an order the page never saw created: no journey
		} else {
			m.order(orderKey)
		}
	}
	ev := event{Lane: lane, Order: orderKey, Key: rec.Key, RV: rec.ResourceVersion,
		Text: describe(rec), Class: classOf(rec)}
	m.emit(ev)
}

// laneOf places a record in the lane of the part that acted.
func laneOf(rec trace.Record) string {
	switch rec.Component {
	case trace.APIServer:
		return laneDesk
	case trace.Reflector, trace.DeltaFIFO, trace.Informer:
		return laneRunner
	case trace.Workqueue:
		if rec.Name == railQueue {
			return laneRail
		}
		return laneCooks
	case trace.Controller:
		if rec.Name == chefController {
			return laneChef
		}
		return laneCooks
	}
	return laneDesk
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
	if rec.Name == railQueue || rec.Name == chefController {
		return rec.Key
	}
	return ""
}

// applyRunner keeps the DeltaFIFO's pending deltas and the reflectors'
// states. It must be called with mu held.
func (m *model) applyRunner(rec trace.Record) {
	id := shortResource(rec.Name) + " " + rec.Key
	switch rec.Action {
	case trace.DeltaRecorded:
		m.fifo[id] = append(m.fifo[id], rec.DeltaType+" rv "+rec.ResourceVersion)
	case trace.DeltaPopped:
		delete(m.fifo, id)
	case trace.Listed, trace.WatchStarted, trace.WatchEnded, trace.Expired:
		res := shortResource(rec.Name)
		w := m.watches[res]
		if w == nil {
			w = &reflector{Resource: res}
			m.watches[res] = w
		}
		switch {
		case rec.Err != nil:
		case rec.Action == trace.Listed:
			w.Lists++
		case rec.Action == trace.WatchStarted:
			w.Watches++
		}
		w.Now = describe(rec)
	}
}

// applyRail keeps the tickets on the rail. It must be called with mu
// held.
func (m *model) applyRail(rec trace.Record) {
	t := m.tickets[rec.Key]
	if t == nil {
		t = &ticket{Key: rec.Key, added: rec.Seq}
	}
	switch rec.Action {
	case trace.Added, trace.Requeued:
		t.State, t.Priority = "waiting", rec.Priority
	case trace.Merged:
		t.Priority = max(t.Priority, rec.Priority)
		if t.State == "" {
			t.State = "waiting"
		}
	case trace.Deferred:
		t.State = "again"
	case trace.Delayed, trace.RateLimited:
		t.State, t.Priority = string(rec.Action), rec.Priority
		t.due = rec.Time.Add(rec.Duration)
	case trace.Got:
		delete(m.tickets, rec.Key)
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
		delete(m.workers, rec.Worker)
		m.recTimes = append(m.recTimes, rec.Duration)
	}
}

// phrases say each action in a learner's words; describe adds the
// details. The object's key is not repeated: the page shows it beside.
var phrases = map[trace.Action]string{
	trace.Created: "stored", trace.Updated: "updated", trace.Deleted: "deleted",
	trace.WatchesClosed: "watches cut", trace.Compacted: "history compacted",
	trace.Listed: "LIST", trace.WatchStarted: "WATCH", trace.WatchEnded: "watch ended", trace.Expired: "410 Expired: relist",
	trace.DeltaRecorded: "DeltaFIFO ← delta", trace.DeltaPopped: "DeltaFIFO → popped", trace.CacheUpdated: "cache ←",
	trace.HandlerCalled: "handler", trace.Added: "ticket pinned", trace.Merged: "merged with the waiting ticket",
	trace.Deferred: "again after the worker is done", trace.Delayed: "delayed", trace.RateLimited: "backoff",
	trace.Got: "taken by a worker", trace.Done: "done", trace.Requeued: "back on the rail",
	trace.Dropped: "dropped by a predicate", trace.ReconcileStarted: "reconcile", trace.ReconcileFinished: "reconciled:",
}

// describe says what a record means, in a few words.
func describe(rec trace.Record) string {
	var b strings.Builder
	b.WriteString(cmp.Or(phrases[rec.Action], string(rec.Action)))
	switch rec.Action {
	case trace.Listed:
		fmt.Fprintf(&b, " %s: %d at rv %s", shortResource(rec.Name), rec.Count, rec.ResourceVersion)
	case trace.WatchStarted:
		fmt.Fprintf(&b, " %s from rv %s", shortResource(rec.Name), rec.ResourceVersion)
	case trace.WatchEnded, trace.Expired:
		fmt.Fprintf(&b, " (%s at rv %s)", shortResource(rec.Name), rec.ResourceVersion)
	case trace.WatchesClosed:
		fmt.Fprintf(&b, ": %d", rec.Count)
	case trace.Delayed, trace.RateLimited:
		fmt.Fprintf(&b, " %s", rec.Duration.Round(time.Millisecond))
	case trace.Added, trace.Merged:
		fmt.Fprintf(&b, " (priority %d, depth %d)", rec.Priority, rec.Depth)
	case trace.DeltaPopped:
		fmt.Fprintf(&b, " %d deltas", rec.Count)
	case trace.ReconcileStarted:
		fmt.Fprintf(&b, " by worker %d", rec.Worker)
	case trace.ReconcileFinished:
		fmt.Fprintf(&b, " %s in %s", rec.Result, rec.Duration.Round(time.Microsecond))
	default:
		if rec.DeltaType != "" {
			b.WriteString(" " + rec.DeltaType)
		}
	}
	if rec.Kind == "Cook" || rec.Name == "brigade" {
		_, name := splitKey(rec.Key)
		b.WriteString(" [cook " + name + "]")
	}
	if rec.Detail != "" {
		b.WriteString(" (" + rec.Detail + ")")
	}
	if rec.Err != nil {
		b.WriteString(": " + rec.Err.Error())
	}
	return b.String()
}

// classOf picks the page's style for a record.
func classOf(rec trace.Record) string {
	switch {
	case rec.Err != nil || rec.Result == trace.ResultError:
		return "error"
	case rec.Action == trace.Listed || rec.Action == trace.Expired:
		return "relist"
	case rec.Action == trace.WatchEnded || rec.Action == trace.WatchStarted || rec.Action == trace.WatchesClosed:
		return "watch"
	case rec.Component == trace.APIServer && rec.Action == trace.Deleted:
		return "deleted-object"
	}
	return ""
}

// shortResource turns an informer's name ("orders.menu.example.com", or
// a GroupVersionResource's string) into its resource ("orders").
func shortResource(name string) string {
	if i := strings.LastIndex(name, "Resource="); i >= 0 {
		return name[i+len("Resource="):]
	}
	if i := strings.IndexByte(name, '.'); i > 0 {
		return name[:i]
	}
	return name
}
