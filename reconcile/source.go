package reconcile

import (
	"context"
	"fmt"
	"reflect"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/trace"
	"github.com/kitchensync/kitchensync/workqueue"
)

// Informer is what a controller needs from an informer: a way to add and
// remove an event handler. *informer.SharedIndexInformer[T] satisfies it.
type Informer[T meta.Object] interface {
	AddEventHandler(h informer.ResourceEventHandler[T]) (*informer.Registration, error)
	RemoveEventHandler(reg *informer.Registration) error
}

// MapFunc maps an object to the requests its events should cause, for
// [Watches]. It runs on the informer's delivery goroutine and must be
// quick; it must not modify obj.
type MapFunc[T meta.Object] func(ctx context.Context, obj T) []Request

// For makes c reconcile objects of inf's kind: every event on an object
// that passes preds (and c's event filters) enqueues the object's own key.
// Call it (and [Owns], [Watches]) before [Controller.Start]. Like
// controller-runtime's builder For with handler.EnqueueRequestForObject.
//
// With [Options].Freshness, a delete of an object (whatever the
// predicates say) clears what Freshness recorded for it.
func For[T meta.Object](c *Controller, inf Informer[T], preds ...Predicate[T]) error {
	return addSource(c, "For", inf, preds, func(_ context.Context, obj T) []Request {
		return []Request{RequestFor(obj)}
	})
}

// Owns makes c watch children of inf's kind: every event on a child that
// passes preds enqueues the owner named in the child's controller owner
// reference (the one with Controller=true), if that reference names
// owner's group and kind (the version does not matter). The owner is
// looked up in the child's namespace, or in no namespace if owner's kind is
// cluster-scoped. Children without such a reference cause nothing. An update
// enqueues the owners of both the old and the new child, so a change of
// owner wakes both. Pass owner as registered in the scheme (e.g.
// apiservertest.WidgetKind()). Like controller-runtime's builder Owns with
// handler.EnqueueRequestForOwner(..., OnlyControllerOwner()).
func Owns[T meta.Object](c *Controller, inf Informer[T], owner meta.KindInfo, preds ...Predicate[T]) error {
	return addSource(c, "Owns", inf, preds, func(_ context.Context, obj T) []Request {
		return ownerRequest(obj, owner)
	})
}

// Watches makes c watch inf with a mapping of its own: every event on an
// object that passes preds enqueues the requests mapFn returns for it (for
// an update, for the old and the new object, without duplicates). Like
// controller-runtime's builder Watches with handler.EnqueueRequestsFromMapFunc.
func Watches[T meta.Object](c *Controller, inf Informer[T], mapFn MapFunc[T], preds ...Predicate[T]) error {
	if mapFn == nil {
		return fmt.Errorf("reconcile: controller %q: Watches needs a MapFunc", c.name)
	}
	return addSource(c, "Watches", inf, preds, mapFn)
}

func ownerRequest(obj meta.Object, owner meta.KindInfo) []Request {
	m := metaOf(obj)
	if m == nil {
		return nil
	}
	ref := meta.GetControllerOf(obj)
	if ref == nil || ref.Kind != owner.Kind || meta.ParseGroupVersion(ref.APIVersion).Group != owner.Group {
		return nil
	}
	key := NamespacedName{Namespace: m.Namespace, Name: ref.Name}
	if !owner.Namespaced {
		key.Namespace = ""
	}
	return []Request{{NamespacedName: key}}
}

// addSource records a watch for Start; it refuses a nil informer and a
// controller already started.
func addSource[T meta.Object](c *Controller, verb string, inf Informer[T], preds []Predicate[T], mapFn MapFunc[T]) error {
	s := &kindSource[T]{verb: verb, inf: inf, preds: preds, mapFn: mapFn, tracer: c.tracer, ctrl: c.name}
	if verb == "For" {
		s.fresh = c.fresh
	}
	if inf == nil || reflect.ValueOf(inf).Kind() == reflect.Pointer && reflect.ValueOf(inf).IsNil() {
		return fmt.Errorf("reconcile: controller %q: %s needs an informer", c.name, s)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.started {
		return fmt.Errorf("reconcile: controller %q: %s after Start; add watches before starting", c.name, s)
	}
	c.sources = append(c.sources, s)
	return nil
}

// kindSource is a source for one informer of T.
type kindSource[T meta.Object] struct {
	verb   string
	inf    Informer[T]
	preds  []Predicate[T]
	mapFn  MapFunc[T]
	tracer *trace.Tracer // the controller's, for records of dropped events
	ctrl   string        // the controller's name
	fresh  *Freshness    // For's: cleared when an object is deleted
}

func (s *kindSource[T]) String() string {
	return fmt.Sprintf("%s(%v)", s.verb, reflect.TypeFor[T]())
}

func (s *kindSource[T]) start(ctx context.Context, q PriorityWorkQueue,
	filters []Predicate[meta.Object]) (startedSource, error) {
	h := &eventHandler[T]{ctx: ctx, queue: q, mapFn: s.mapFn, preds: s.preds, tracer: s.tracer, ctrl: s.ctrl, fresh: s.fresh}
	for _, f := range filters {
		h.preds = append(h.preds, objectPredicate[T]{f})
	}
	reg, err := s.inf.AddEventHandler(h)
	if err != nil {
		return startedSource{}, err
	}
	return startedSource{
		name:   s.String(),
		synced: reg.Synced(),
		stop:   func() { _ = s.inf.RemoveEventHandler(reg) },
	}, nil
}

// eventHandler turns an informer's notifications into events, filters
// them through the predicates, maps them to requests and queues those —
// at [LowPriority] when they tell nothing new (the initial list, a resync),
// as controller-runtime's handlers do.
type eventHandler[T meta.Object] struct {
	ctx    context.Context
	queue  PriorityWorkQueue
	mapFn  MapFunc[T]
	preds  []Predicate[T]
	tracer *trace.Tracer
	ctrl   string
	fresh  *Freshness // nil unless For's with Options.Freshness
}

func (h *eventHandler[T]) OnAdd(obj T, isInInitialList bool) {
	e := CreateEvent[T]{Object: obj, IsInInitialList: isInInitialList}
	if h.pass("Create", obj, func(p Predicate[T]) bool { return p.Create(e) }) {
		h.enqueue(isInInitialList, h.traceMapped("Create", obj, h.mapFn(h.ctx, obj)))
	}
}

func (h *eventHandler[T]) OnUpdate(oldObj, newObj T) {
	e := UpdateEvent[T]{ObjectOld: oldObj, ObjectNew: newObj}
	if !h.pass("Update", newObj, func(p Predicate[T]) bool { return p.Update(e) }) {
		return
	}
	reqs := h.mapFn(h.ctx, newObj)
	for _, r := range h.mapFn(h.ctx, oldObj) {
		if !containsRequest(reqs, r) {
			reqs = append(reqs, r)
		}
	}
	o, n := metaOf(oldObj), metaOf(newObj)
	resync := o != nil && n != nil && o.ResourceVersion == n.ResourceVersion
	h.enqueue(resync, h.traceMapped("Update", newObj, reqs))
}

func (h *eventHandler[T]) OnDelete(obj T, finalStateUnknown bool) {
	if h.fresh != nil {
		h.fresh.Clear(NamespacedNameOf(obj))
	}
	e := DeleteEvent[T]{Object: obj, DeleteStateUnknown: finalStateUnknown}
	if h.pass("Delete", obj, func(p Predicate[T]) bool { return p.Delete(e) }) {
		h.enqueue(false, h.traceMapped("Delete", obj, h.mapFn(h.ctx, obj)))
	}
}

func (h *eventHandler[T]) enqueue(low bool, reqs []Request) {
	if len(reqs) == 0 {
		return
	}
	if !low {
		for _, r := range reqs {
			h.queue.Add(r)
		}
		return
	}
	p := LowPriority
	h.queue.AddWithOpts(workqueue.AddOpts{Priority: &p}, reqs...)
}

func containsRequest(reqs []Request, r Request) bool {
	for _, x := range reqs {
		if x == r {
			return true
		}
	}
	return false
}

// objectPredicate applies a Predicate over [meta.Object] (an event
// filter of the whole controller) to events of T.
type objectPredicate[T meta.Object] struct{ p Predicate[meta.Object] }

func (o objectPredicate[T]) Create(e CreateEvent[T]) bool {
	return o.p.Create(CreateEvent[meta.Object]{Object: e.Object, IsInInitialList: e.IsInInitialList})
}

func (o objectPredicate[T]) Update(e UpdateEvent[T]) bool {
	return o.p.Update(UpdateEvent[meta.Object]{ObjectOld: e.ObjectOld, ObjectNew: e.ObjectNew})
}

func (o objectPredicate[T]) Delete(e DeleteEvent[T]) bool {
	return o.p.Delete(DeleteEvent[meta.Object]{Object: e.Object, DeleteStateUnknown: e.DeleteStateUnknown})
}

func (o objectPredicate[T]) Generic(e GenericEvent[T]) bool {
	return o.p.Generic(GenericEvent[meta.Object]{Object: e.Object})
}

func (o objectPredicate[T]) inner() any { return o.p }
