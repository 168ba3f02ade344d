package informer

import (
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// ResourceEventHandler is what a [SharedIndexInformer] calls when its cache
// changes, like client-go's cache.ResourceEventHandler but typed: a handler
// for orders receives *Order, never interface{}.
//
// Each handler is called from its own goroutine, one notification at a
// time, in the order the cache changed. The objects are the cached ones,
// shared with every other handler and reader: never mutate them (copy with
// [meta.DeepCopy] first). A handler should be quick — typically it
// puts a key on a workqueue — but a slow one delays only itself: its
// notifications wait in its own unbounded buffer.
type ResourceEventHandler[T meta.Object] interface {
	// OnAdd is called when an object enters the cache. isInInitialList is
	// true for the objects of the informer's first list (and, for a
	// handler added while the informer runs, for everything already
	// cached when it was added); false for objects created later.
	OnAdd(obj T, isInInitialList bool)
	// OnUpdate is called when a cached object changes, on a resync, and
	// after a relist for every object that did not change (as in
	// client-go). In the last two cases oldObj and newObj have the same
	// resourceVersion (often they are the same pointer): nothing changed,
	// so tolerate them — compare resourceVersions to skip them, or make
	// the work they trigger idempotent. A handler sees the relist ones
	// whenever it is marked resyncing: always for an informer without a
	// resync period, otherwise until the first resync check and then while
	// its own resync is due (see the package doc, "Resync").
	OnUpdate(oldObj, newObj T)
	// OnDelete is called when an object leaves the cache, with its last
	// known state. finalStateUnknown is true when the informer did not see
	// the delete itself — the watch was down and a relist no longer found
	// the object — so obj is the last state the cache had, which may be
	// older than the state the object was deleted in. This is client-go's
	// DeletedFinalStateUnknown tombstone, handed over typed so that no
	// handler has to type-assert it.
	OnDelete(obj T, finalStateUnknown bool)
}

// ResourceEventHandlerFuncs adapts functions to a [ResourceEventHandler];
// a nil function ignores its notifications.
type ResourceEventHandlerFuncs[T meta.Object] struct {
	AddFunc    func(obj T, isInInitialList bool)
	UpdateFunc func(oldObj, newObj T)
	DeleteFunc func(obj T, finalStateUnknown bool)
}

// OnAdd calls AddFunc if it is set.
func (f ResourceEventHandlerFuncs[T]) OnAdd(obj T, isInInitialList bool) {
	if f.AddFunc != nil {
		f.AddFunc(obj, isInInitialList)
	}
}

// OnUpdate calls UpdateFunc if it is set.
func (f ResourceEventHandlerFuncs[T]) OnUpdate(oldObj, newObj T) {
	if f.UpdateFunc != nil {
		f.UpdateFunc(oldObj, newObj)
	}
}

// OnDelete calls DeleteFunc if it is set.
func (f ResourceEventHandlerFuncs[T]) OnDelete(obj T, finalStateUnknown bool) {
	if f.DeleteFunc != nil {
		f.DeleteFunc(obj, finalStateUnknown)
	}
}

// FilteringResourceEventHandler passes on only the objects FilterFunc
// accepts, like client-go's handler of the same name. An update that makes
// an object pass becomes OnAdd (isInInitialList false); one that makes it
// stop passing becomes OnDelete (finalStateUnknown false), so that Handler
// sees a consistent stream for the filtered subset.
type FilteringResourceEventHandler[T meta.Object] struct {
	FilterFunc func(obj T) bool
	Handler    ResourceEventHandler[T]
}

// OnAdd passes obj on if it passes the filter.
func (f FilteringResourceEventHandler[T]) OnAdd(obj T, isInInitialList bool) {
	if f.FilterFunc(obj) {
		f.Handler.OnAdd(obj, isInInitialList)
	}
}

// OnUpdate passes on an update, an add or a delete, depending on which of
// the two objects pass the filter.
func (f FilteringResourceEventHandler[T]) OnUpdate(oldObj, newObj T) {
	oldOK, newOK := f.FilterFunc(oldObj), f.FilterFunc(newObj)
	switch {
	case oldOK && newOK:
		f.Handler.OnUpdate(oldObj, newObj)
	case !oldOK && newOK:
		f.Handler.OnAdd(newObj, false)
	case oldOK && !newOK:
		f.Handler.OnDelete(oldObj, false)
	}
}

// OnDelete passes obj on if it passes the filter.
func (f FilteringResourceEventHandler[T]) OnDelete(obj T, finalStateUnknown bool) {
	if f.FilterFunc(obj) {
		f.Handler.OnDelete(obj, finalStateUnknown)
	}
}
