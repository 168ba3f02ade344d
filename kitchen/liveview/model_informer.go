package liveview

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/trace"
)

// orderEvents is the page's own handler on the runner's orders informer:
// it learns each order's state as the runner's cache has it, so that the
// page knows phases, finalizers and YAML even without a trace.
type orderEvents struct{ m *model }

func (h orderEvents) OnAdd(o *kitchen.Order, _ bool) { h.m.orderChanged(nil, o) }
func (h orderEvents) OnUpdate(old, o *kitchen.Order) { h.m.orderChanged(old, o) }
func (h orderEvents) OnDelete(o *kitchen.Order, finalStateUnknown bool) {
	h.m.orderGone(o, finalStateUnknown)
}

// cookEvents learns which order each cook belongs to, and tells the
// cooks' progress and their garbage collection.
type cookEvents struct{ m *model }

func (h cookEvents) OnAdd(c *kitchen.Cook, _ bool) { h.m.cookChanged(nil, c) }
func (h cookEvents) OnUpdate(old, c *kitchen.Cook) { h.m.cookChanged(old, c) }
func (h cookEvents) OnDelete(c *kitchen.Cook, _ bool) {
	h.m.cookGone(c)
}

// orderChanged files what changed between old (nil when new) and o.
func (m *model) orderChanged(old, o *kitchen.Order) {
	m.mu.Lock()
	defer m.mu.Unlock()
	key := joinKey(o.Namespace, o.Name)
	v := m.order(key)
	v.update(o)
	if old == nil || old.ResourceVersion != o.ResourceVersion {
		v.visit(stageAPIServer)
		v.visit(stageIndexer)
	}
	if !m.traced[trace.Controller] && old != nil && o.Status.ObservedGeneration > 0 {
		// No trace of the chef: its status write shows the order went
		// through the rail to the chef.
		v.visit(stageRail)
		v.visit(stageReconciler)
	}
	for _, ev := range orderNews(old, o) {
		ev.Order, ev.Key, ev.RV = key, key, o.ResourceVersion
		m.emit(ev)
	}
	if old != nil && old.Status.Phase != kitchen.OrderServed && o.Status.Phase == kitchen.OrderServed {
		m.latencies = append(m.latencies, m.clock.Kitchen(time.Since(v.seen)))
		if len(m.latencies) > maxLatencies {
			m.latencies = slices.Delete(m.latencies, 0, len(m.latencies)-maxLatencies)
		}
	}
}

// orderNews lists what a learner wants to see in a change of an order:
// new, a new phase, a finalizer put on or taken off, a deletion started.
func orderNews(old, o *kitchen.Order) []event {
	if old == nil {
		return []event{{Stage: stageIndexer, Text: fmt.Sprintf("in the runner's cache (rv %s)", o.ResourceVersion)}}
	}
	var evs []event
	for _, f := range o.Finalizers {
		if !slices.Contains(old.Finalizers, f) {
			evs = append(evs, event{Stage: stageIndexer, Class: "finalizer", Text: "finalizer " + f + " added"})
		}
	}
	for _, f := range old.Finalizers {
		if !slices.Contains(o.Finalizers, f) {
			evs = append(evs, event{Stage: stageIndexer, Class: "finalizer", Text: "finalizer " + f + " removed"})
		}
	}
	if old.DeletionTimestamp == nil && o.DeletionTimestamp != nil {
		evs = append(evs, event{Stage: stageIndexer, Class: "finalizer deleting",
			Text: "deletion started: held by finalizers " + strings.Join(o.Finalizers, ", ")})
	}
	if phaseOrPending(old.Status.Phase) != phaseOrPending(o.Status.Phase) {
		evs = append(evs, event{Stage: stageIndexer, Class: "phase-change phase-" + string(o.Status.Phase),
			Text: fmt.Sprintf("%s → %s", phaseOrPending(old.Status.Phase), o.Status.Phase)})
	}
	return evs
}

// orderGone files an order's deletion; finalStateUnknown when the
// runner learnt it from a relist that no longer had the order (a
// tombstone), not from a watch event.
func (m *model) orderGone(o *kitchen.Order, finalStateUnknown bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	key := joinKey(o.Namespace, o.Name)
	v := m.order(key)
	v.update(o)
	v.Gone = true
	ev := event{Stage: stageIndexer, Order: key, Key: key, RV: o.ResourceVersion, Class: "deleted",
		Text: "last finalizer removed: " + o.Name + " is deleted"}
	if finalStateUnknown {
		ev.Class = "deleted tombstone"
		ev.Text = "tombstone: the relist no longer has " + o.Name + "; the handlers get DeletedFinalStateUnknown with the last state the cache had (rv " + o.ResourceVersion + ")"
	} else if o.DeletionTimestamp == nil {
		ev.Text = o.Name + " deleted"
	}
	m.emit(ev)
	for _, ev := range v.afterGone {
		m.emit(ev)
	}
	v.afterGone = nil
}

// cookChanged files a cook's owner and its progress.
func (m *model) cookChanged(old, c *kitchen.Cook) {
	m.mu.Lock()
	defer m.mu.Unlock()
	key := joinKey(c.Namespace, c.Name)
	owner := ""
	if ref := meta.GetControllerOf(c); ref != nil {
		owner = joinKey(c.Namespace, ref.Name)
		m.cookOwner[key] = owner
	}
	if old != nil && old.Status.Phase == c.Status.Phase {
		return
	}
	if m.orders[owner] == nil {
		owner = ""
	}
	m.emit(event{Stage: stageStations, Order: owner, Key: key, RV: c.ResourceVersion, Class: "cook",
		Text: fmt.Sprintf("cook %s %s at the %s", c.Name, cookPhase(c.Status.Phase), c.Spec.Station)})
}

// cookGone files a cook's deletion: by the garbage collector or by the
// chef, as the server's trace said (see [collected]); without a trace, by
// the garbage collector when its order is going or gone.
func (m *model) cookGone(c *kitchen.Cook) {
	key := joinKey(c.Namespace, c.Name)
	byCollector, known := m.gc.take(key)
	m.mu.Lock()
	defer m.mu.Unlock()
	owner := m.ownerOf(key)
	delete(m.cookOwner, key)
	o := m.orders[owner]
	if o == nil {
		owner = ""
	}
	if !known {
		byCollector = o != nil && (o.Deleting || o.Gone)
	}
	ev := event{Stage: stageStations, Order: owner, Key: key, RV: c.ResourceVersion, Text: "cook " + c.Name + " deleted by the chef"}
	if !byCollector {
		m.emit(ev)
		return
	}
	// The garbage collector deletes a cook only once its order is gone;
	// the runner's orders informer may not have said so yet.
	ev.Class = "gc"
	ev.Text = "garbage collector deleted cook " + c.Name + " (its owner is gone)"
	if o == nil {
		m.emit(ev)
		return
	}
	ev.Text = "garbage collector deleted cook " + c.Name + " (its owner " + o.Name + " is gone)"
	if o.Gone {
		m.emit(ev)
	} else {
		o.afterGone = append(o.afterGone, ev)
	}
}

// update copies what the page shows of o.
func (v *orderView) update(o *kitchen.Order) {
	v.obj = o
	v.Phase = string(phaseOrPending(o.Status.Phase))
	v.RV = o.ResourceVersion
	v.Section, v.Table, v.Priority = o.Spec.Section, o.Spec.Table, kitchen.TicketPriority(o)
	v.Deleting = o.DeletionTimestamp != nil
	v.Finalizers = slices.Clone(o.Finalizers)
	parts := make([]string, len(o.Spec.Items))
	for i, it := range o.Spec.Items {
		parts[i] = fmt.Sprintf("%d× %s", it.Quantity, it.Dish)
		if len(it.Extras) > 0 {
			parts[i] += " + " + strings.Join(it.Extras, ", ")
		}
	}
	v.Items = strings.Join(parts, "; ")
}

func phaseOrPending(p kitchen.OrderPhase) kitchen.OrderPhase {
	if p == "" {
		return kitchen.OrderPending
	}
	return p
}

func cookPhase(p kitchen.CookPhase) string {
	if p == "" {
		return "assigned"
	}
	return strings.ToLower(string(p))
}
