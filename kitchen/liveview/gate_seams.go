package liveview

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/reconcile/leaderelection"
)

// Pace sets the seams of cfg through which the kitchen's hand-offs pass
// the gate: the runner lists, watches and receives each watch event
// through it (cfg.InformerOptions), each controller's worker hands the
// ticket it took to the reconciler through it (cfg.Queue, wrapping any
// Queue cfg had) and the cooks' timers ring through it (cfg.Timers,
// wrapping any Timers cfg had). Call it before [restaurant.Open]. A nil
// Gate leaves cfg alone.
func (g *Gate) Pace(cfg *restaurant.Config) {
	if g == nil {
		return
	}
	wrap := func(gvr meta.GroupVersionResource, lw informer.ListerWatcher) informer.ListerWatcher {
		return gatedLW{lw: lw, g: g, resource: gvr.Resource}
	}
	cfg.InformerOptions = append(slices.Clip(cfg.InformerOptions), informer.WithListerWatcher(wrap))
	inner := cfg.Queue
	cfg.Queue = func(name string, q reconcile.PriorityWorkQueue) reconcile.PriorityWorkQueue {
		if inner != nil {
			q = inner(name, q)
		}
		return gatedQueue{PriorityWorkQueue: q, g: g, name: name}
	}
	cfg.Timers = gatedTimers{g: g, next: cfg.Timers}
}

// gatedLW is a ListerWatcher whose lists, watch starts and watch events
// pass the gate.
type gatedLW struct {
	lw       informer.ListerWatcher
	g        *Gate
	resource string
}

func (l gatedLW) List(ctx context.Context, opts meta.ListOptions) (*meta.List, error) {
	h := Hold{Stage: stageReflector, What: "list", Name: l.resource, RV: opts.ResourceVersion,
		Text: fmt.Sprintf("%s reflector: LIST %s", l.resource, fromRV(opts.ResourceVersion))}
	if !l.g.pass(ctx.Done(), h) {
		return nil, ctx.Err()
	}
	return l.lw.List(ctx, opts)
}

func fromRV(rv string) string {
	if rv == "" || rv == "0" {
		return "(the latest)"
	}
	return "at rv " + rv
}

func (l gatedLW) Watch(ctx context.Context, opts meta.ListOptions) (meta.WatchInterface, error) {
	h := Hold{Stage: stageReflector, What: "watch", Name: l.resource, RV: opts.ResourceVersion,
		Text: fmt.Sprintf("%s reflector: WATCH from rv %s", l.resource, opts.ResourceVersion)}
	if !l.g.pass(ctx.Done(), h) {
		return nil, ctx.Err()
	}
	w, err := l.lw.Watch(ctx, opts)
	if err != nil {
		return nil, err
	}
	return informer.HoldWatch(w, func(e meta.Event, stopped <-chan struct{}) bool {
		h, ok := eventHold(e, l.resource)
		return !ok || l.g.pass(stopped, h)
	}), nil
}

// eventHold is the hand-off of a watch event; bookmarks and errors are
// not held (they still wait behind the events before them).
func eventHold(e meta.Event, resource string) (Hold, bool) {
	switch e.Type {
	case meta.EventAdded, meta.EventModified, meta.EventDeleted:
	default:
		return Hold{}, false
	}
	m := e.Object.GetObjectMeta()
	key := joinKey(m.Namespace, m.Name)
	return Hold{Stage: stageWatch, What: "event", Name: resource, Key: key, RV: m.ResourceVersion,
		Text: fmt.Sprintf("%s watch: %s %s rv %s → reflector", resource, e.Type, m.Name, m.ResourceVersion)}, true
}

// gatedQueue is a controller's queue whose worker hands each ticket it
// takes to the reconciler only once the gate lets it.
type gatedQueue struct {
	reconcile.PriorityWorkQueue
	g    *Gate
	name string
}

func (q gatedQueue) GetWithPriority() (reconcile.Request, int, bool) {
	req, p, shutdown := q.PriorityWorkQueue.GetWithPriority()
	if shutdown {
		return req, p, shutdown
	}
	who := "the chef"
	if q.name != kitchen.RailName {
		who = q.name
	}
	q.g.pass(nil, Hold{Stage: stageWorkers, What: "take", Name: q.name, Key: req.String(),
		Text: fmt.Sprintf("%s: a worker took %s off the %s → reconcile", who, req.Name, q.name)})
	return req, p, shutdown
}

func (q gatedQueue) Get() (reconcile.Request, bool) {
	req, _, shutdown := q.GetWithPriority()
	return req, shutdown
}

// gatedTimers rings the cooks' timers through the gate.
type gatedTimers struct {
	g    *Gate
	next kitchen.Timers
}

func (t gatedTimers) AfterFunc(d time.Duration, key string, f func()) *time.Timer {
	gated := func() {
		t.g.pass(nil, Hold{Stage: stageStations, What: "timer", Name: "cooks", Key: key,
			Text: "cook " + key + ": timer rings → the brigade"})
		f()
	}
	if t.next != nil {
		return t.next.AfterFunc(d, key, gated)
	}
	return time.AfterFunc(d, gated)
}

// gatedLease is a Lease client whose writes pass the gate: a candidate
// taking the Lease over, or a leader renewing it.
type gatedLease struct {
	leaderelection.LeaseClient
	g  *Gate
	id string
}

func (l gatedLease) Update(ctx context.Context, obj meta.Object, opts meta.UpdateOptions) (meta.Object, error) {
	m := obj.GetObjectMeta()
	h := Hold{Stage: stageAPIServer, What: "lease", Name: l.id, Key: joinKey(m.Namespace, m.Name), RV: m.ResourceVersion,
		Text: fmt.Sprintf("%s: write the Lease %s (rv %s)", l.id, m.Name, m.ResourceVersion)}
	if !l.g.pass(ctx.Done(), h) {
		return nil, ctx.Err()
	}
	return l.LeaseClient.Update(ctx, obj, opts)
}
