package reconcile

import (
	"maps"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// CreateEvent says an object appeared in the cache. IsInInitialList is true
// for the objects of the informer's first list (and for everything cached
// when a handler is added late), false for objects created afterwards.
type CreateEvent[T meta.Object] struct {
	Object          T
	IsInInitialList bool
}

// UpdateEvent says a cached object changed, or was re-delivered by a resync
// (then ObjectOld and ObjectNew have the same resourceVersion).
type UpdateEvent[T meta.Object] struct {
	ObjectOld T
	ObjectNew T
}

// DeleteEvent says an object left the cache. DeleteStateUnknown is true
// when the delete was noticed by a relist rather than watched, so Object is
// the last state the cache knew, not the final one (a tombstone).
type DeleteEvent[T meta.Object] struct {
	Object             T
	DeleteStateUnknown bool
}

// GenericEvent is an event from outside the API server (a timer, an external
// system) about an object.
type GenericEvent[T meta.Object] struct {
	Object T
}

// Predicate filters events before they become requests: an event is
// enqueued only if the predicate returns true for it. Like
// controller-runtime's predicate.TypedPredicate. Predicates run on the
// informer's delivery goroutine: they must be quick and must not modify the
// objects, which belong to the cache.
type Predicate[T meta.Object] interface {
	Create(CreateEvent[T]) bool
	Update(UpdateEvent[T]) bool
	Delete(DeleteEvent[T]) bool
	Generic(GenericEvent[T]) bool
}

// Funcs is a [Predicate] built from functions; a nil function lets every
// event of its type through.
type Funcs[T meta.Object] struct {
	CreateFunc  func(CreateEvent[T]) bool
	UpdateFunc  func(UpdateEvent[T]) bool
	DeleteFunc  func(DeleteEvent[T]) bool
	GenericFunc func(GenericEvent[T]) bool
}

// Create calls CreateFunc, or returns true if it is nil.
func (f Funcs[T]) Create(e CreateEvent[T]) bool { return f.CreateFunc == nil || f.CreateFunc(e) }

// Update calls UpdateFunc, or returns true if it is nil.
func (f Funcs[T]) Update(e UpdateEvent[T]) bool { return f.UpdateFunc == nil || f.UpdateFunc(e) }

// Delete calls DeleteFunc, or returns true if it is nil.
func (f Funcs[T]) Delete(e DeleteEvent[T]) bool { return f.DeleteFunc == nil || f.DeleteFunc(e) }

// Generic calls GenericFunc, or returns true if it is nil.
func (f Funcs[T]) Generic(e GenericEvent[T]) bool {
	return f.GenericFunc == nil || f.GenericFunc(e)
}

// NewPredicateFuncs returns a [Predicate] that asks filter about the object
// of each event (the new object for updates).
func NewPredicateFuncs[T meta.Object](filter func(obj T) bool) Funcs[T] {
	return Funcs[T]{
		CreateFunc:  func(e CreateEvent[T]) bool { return filter(e.Object) },
		UpdateFunc:  func(e UpdateEvent[T]) bool { return filter(e.ObjectNew) },
		DeleteFunc:  func(e DeleteEvent[T]) bool { return filter(e.Object) },
		GenericFunc: func(e GenericEvent[T]) bool { return filter(e.Object) },
	}
}

// updateChanged lets creates, deletes and generic events through and
// updates only when changed(old, new) says so; an update with a missing
// object is dropped.
func updateChanged[T meta.Object](e UpdateEvent[T], changed func(o, n *meta.ObjectMeta) bool) bool {
	o, n := metaOf(e.ObjectOld), metaOf(e.ObjectNew)
	if o == nil || n == nil {
		return false
	}
	return changed(o, n)
}

// ResourceVersionChangedPredicate drops updates whose resourceVersion did
// not change — the periodic resyncs, which re-deliver what the cache already
// had. Creates, deletes and generic events pass. The zero value is ready to
// use.
type ResourceVersionChangedPredicate[T meta.Object] struct{ Funcs[T] }

// Update reports whether the resourceVersion changed.
func (ResourceVersionChangedPredicate[T]) Update(e UpdateEvent[T]) bool {
	return updateChanged(e, func(o, n *meta.ObjectMeta) bool {
		return o.ResourceVersion != n.ResourceVersion
	})
}

// GenerationChangedPredicate drops updates that did not change
// metadata.generation: status writes, label and annotation edits, resyncs.
// Only spec changes bump the generation (and the start of a deletion, which
// the server marks with a bump too, as Kubernetes does), so a controller that
// writes its own status uses it to avoid waking itself up. Beware: it drops
// other metadata-only changes, such as a new finalizer or label — Or it with
// another predicate if the reconciler needs those. Creates, deletes and
// generic events pass. The zero value is ready to use.
type GenerationChangedPredicate[T meta.Object] struct{ Funcs[T] }

// Update reports whether metadata.generation changed.
func (GenerationChangedPredicate[T]) Update(e UpdateEvent[T]) bool {
	return updateChanged(e, func(o, n *meta.ObjectMeta) bool {
		return o.Generation != n.Generation
	})
}

// LabelChangedPredicate lets through only updates that changed the labels.
// Creates, deletes and generic events pass. The zero value is ready to use.
type LabelChangedPredicate[T meta.Object] struct{ Funcs[T] }

// Update reports whether the labels changed.
func (LabelChangedPredicate[T]) Update(e UpdateEvent[T]) bool {
	return updateChanged(e, func(o, n *meta.ObjectMeta) bool {
		return !maps.Equal(o.Labels, n.Labels)
	})
}

// AnnotationChangedPredicate lets through only updates that changed the
// annotations. Creates, deletes and generic events pass. The zero value is
// ready to use.
type AnnotationChangedPredicate[T meta.Object] struct{ Funcs[T] }

// Update reports whether the annotations changed.
func (AnnotationChangedPredicate[T]) Update(e UpdateEvent[T]) bool {
	return updateChanged(e, func(o, n *meta.ObjectMeta) bool {
		return !maps.Equal(o.Annotations, n.Annotations)
	})
}

// And returns a [Predicate] that passes an event only if every one of
// preds does (and always, if preds is empty).
func And[T meta.Object](preds ...Predicate[T]) Predicate[T] {
	return Funcs[T]{
		CreateFunc:  func(e CreateEvent[T]) bool { return all(preds, func(p Predicate[T]) bool { return p.Create(e) }) },
		UpdateFunc:  func(e UpdateEvent[T]) bool { return all(preds, func(p Predicate[T]) bool { return p.Update(e) }) },
		DeleteFunc:  func(e DeleteEvent[T]) bool { return all(preds, func(p Predicate[T]) bool { return p.Delete(e) }) },
		GenericFunc: func(e GenericEvent[T]) bool { return all(preds, func(p Predicate[T]) bool { return p.Generic(e) }) },
	}
}

// Or returns a [Predicate] that passes an event if any one of preds does
// (and never, if preds is empty).
func Or[T meta.Object](preds ...Predicate[T]) Predicate[T] {
	return Funcs[T]{
		CreateFunc:  func(e CreateEvent[T]) bool { return anyOf(preds, func(p Predicate[T]) bool { return p.Create(e) }) },
		UpdateFunc:  func(e UpdateEvent[T]) bool { return anyOf(preds, func(p Predicate[T]) bool { return p.Update(e) }) },
		DeleteFunc:  func(e DeleteEvent[T]) bool { return anyOf(preds, func(p Predicate[T]) bool { return p.Delete(e) }) },
		GenericFunc: func(e GenericEvent[T]) bool { return anyOf(preds, func(p Predicate[T]) bool { return p.Generic(e) }) },
	}
}

// Not returns a [Predicate] that passes exactly the events pred drops.
func Not[T meta.Object](pred Predicate[T]) Predicate[T] {
	return Funcs[T]{
		CreateFunc:  func(e CreateEvent[T]) bool { return !pred.Create(e) },
		UpdateFunc:  func(e UpdateEvent[T]) bool { return !pred.Update(e) },
		DeleteFunc:  func(e DeleteEvent[T]) bool { return !pred.Delete(e) },
		GenericFunc: func(e GenericEvent[T]) bool { return !pred.Generic(e) },
	}
}

func all[T meta.Object](preds []Predicate[T], f func(Predicate[T]) bool) bool {
	for _, p := range preds {
		if !f(p) {
			return false
		}
	}
	return true
}

func anyOf[T meta.Object](preds []Predicate[T], f func(Predicate[T]) bool) bool {
	for _, p := range preds {
		if f(p) {
			return true
		}
	}
	return false
}
