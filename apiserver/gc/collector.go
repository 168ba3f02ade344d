package gc

import (
	"slices"
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Ref locates one stored object: its resource and storage key.
type Ref struct {
	Resource meta.GroupResource
	// Key is "namespace/name", or "name" for a cluster-scoped object.
	Key string
}

// Store is what the collector needs of the API server: the objects, the
// index of owners to dependents, and a way to write. It is owned here, by
// its consumer; the API server implements it.
type Store interface {
	// Get returns the object stored at ref, or nil.
	Get(ref Ref) meta.Object
	// Dependents returns, sorted, the objects whose ownerReferences name
	// uid.
	Dependents(uid string) []Ref
	// Owner finds the owner o names for a dependent in namespace ns (same
	// kind, name and uid; in the cluster scope for cluster-scoped kinds):
	// where it would be stored, the object (nil if there is none), and
	// whether its kind is served at all.
	Owner(ns string, o meta.OwnerReference) (ref Ref, owner meta.Object, served bool)
	// Write reads the object at ref (nil if gone), and writes what
	// decide returns, as one atomic step: if the object changes in
	// between, it reads again and decide runs again.
	Write(ref Ref, decide func(cur meta.Object) Write)
}

// Write is what the collector writes to an object it read. The zero
// Write writes nothing.
type Write struct {
	// Update, when set, is a changed copy of the object to store. An
	// object being deleted that nothing holds any more (no finalizers)
	// goes.
	Update meta.Object
	// Delete, when set, deletes the object with these options.
	Delete *meta.DeleteOptions
	// Collected marks a delete as the collector's own, where no client
	// asked for it (the trace names the garbage collector).
	Collected bool
}

// Work is one piece of work for the collector, found after a commit.
type Work struct {
	Ref Ref
	// OwnerOnly asks only whether Ref, an owner being deleted in the
	// foreground, may go now that one of its dependents has gone.
	OwnerOnly bool
}

// Delay is how long after a Foreground or Orphan delete the collector
// carries out its propagation policy, as kube-controller-manager's
// collector acts a moment after its informers hear of the change: until
// then the owner stays, with its deletionTimestamp and the policy's
// finalizer, and a GET right after the DELETE finds it so.
const Delay = 100 * time.Millisecond

// Collector is the garbage collector. Safe for concurrent use.
//
// Work on an owner held by a propagation finalizer waits [Delay] in a
// queue; a timer then starts one goroutine that drains the queue (the
// work that draining adds too) and ends when it is empty. Nothing runs
// while the queue is empty, and under testing/synctest the drain is
// timed in the bubble's virtual time: sleep past Delay, then
// synctest.Wait, to see it done.
type Collector struct {
	store Store

	mu        sync.Mutex // guards later and scheduled
	later     []Work     // work waiting for the drain
	scheduled bool       // a drain is due or running
}

// New returns a collector working on store.
func New(store Store) *Collector {
	return &Collector{store: store}
}

// Collect does the collector's work on each of work, as the Kubernetes
// garbage collector would:
//
//   - A dependent whose owners are all gone, or waiting in the foreground
//     for their dependents, is deleted (its own finalizers, if any, are
//     honoured, and its own dependents follow when it goes). One that
//     still has a living owner only loses its references to the others.
//   - An owner being deleted in the foreground (finalizer
//     [meta.FinalizerDeleteDependents]) has its dependents deleted, and
//     loses the finalizer once no dependent with blockOwnerDeletion is
//     left.
//   - An owner being deleted with [meta.FinalizerOrphanDependents] has
//     its references removed from every dependent, and then loses the
//     finalizer.
//
// Dependents are collected within the call; the propagation policies,
// whose owners wait with a finalizer, a moment later (see [Delay]).
func (c *Collector) Collect(work []Work) {
	var later []Work
	for _, g := range work {
		if obj := c.store.Get(g.Ref); g.OwnerOnly || obj != nil && WaitsForCollector(obj.GetObjectMeta()) {
			later = append(later, g)
			continue
		}
		c.collect(g)
	}
	if len(later) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.later = append(c.later, later...)
	if !c.scheduled {
		c.scheduled = true
		time.AfterFunc(Delay, c.drain)
	}
}

// drain does the queued work, and the work that doing it queues, until
// none is left.
func (c *Collector) drain() {
	for {
		c.mu.Lock()
		work := c.later
		c.later = nil
		c.scheduled = len(work) > 0
		c.mu.Unlock()
		if len(work) == 0 {
			return
		}
		for _, g := range work {
			c.collect(g)
		}
	}
}

// collect does one piece of work now.
func (c *Collector) collect(g Work) {
	obj := c.store.Get(g.Ref)
	switch {
	case obj == nil:
	case g.OwnerOnly:
		c.releaseForegroundOwner(g.Ref)
	case obj.GetObjectMeta().DeletionTimestamp != nil:
		c.processDeletion(g.Ref, obj.GetObjectMeta())
	default:
		c.store.Write(g.Ref, func(cur meta.Object) Write { return c.attemptToDelete(cur, true) })
	}
}

// processDeletion carries out the propagation finalizers of m, an owner
// being deleted and stored at ref.
func (c *Collector) processDeletion(ref Ref, m *meta.ObjectMeta) {
	switch {
	case slices.Contains(m.Finalizers, meta.FinalizerOrphanDependents):
		for _, dep := range c.store.Dependents(m.UID) {
			c.store.Write(dep, func(cur meta.Object) Write { return withoutOwner(cur, m.UID) })
		}
		c.removeFinalizer(ref, m.UID, meta.FinalizerOrphanDependents)
	case slices.Contains(m.Finalizers, meta.FinalizerDeleteDependents):
		for _, dep := range c.store.Dependents(m.UID) {
			if obj := c.store.Get(dep); obj != nil && obj.GetObjectMeta().DeletionTimestamp == nil {
				c.store.Write(dep, func(cur meta.Object) Write { return c.attemptToDelete(cur, false) })
			}
		}
		c.releaseForegroundOwner(ref)
	}
}

// attemptToDelete decides what becomes of cur, a dependent, given the
// state of its owners; collected marks its delete as the collector's own.
func (c *Collector) attemptToDelete(cur meta.Object, collected bool) Write {
	if cur == nil || cur.GetObjectMeta().DeletionTimestamp != nil {
		return Write{} // gone, or going
	}
	m := cur.GetObjectMeta()
	var solid, gone []meta.OwnerReference
	waiting := false
	for _, o := range m.OwnerReferences {
		_, owner, served := c.store.Owner(m.Namespace, o)
		switch {
		case owner == nil && served:
			gone = append(gone, o) // dangling
		case owner != nil && WaitsForDependents(owner.GetObjectMeta()):
			gone, waiting = append(gone, o), true
		default:
			solid = append(solid, o)
		}
	}
	switch {
	case len(gone) == 0:
		return Write{} // nothing dead: not garbage
	case len(solid) > 0:
		next := cur.DeepCopyObject()
		next.GetObjectMeta().OwnerReferences = solid
		return Write{Update: next}
	case waiting && len(c.store.Dependents(m.UID)) > 0:
		// An owner waits for it in the foreground: its own dependents
		// must go first, so it is deleted in the foreground too.
		fg := meta.DeletePropagationForeground
		return Write{Delete: &meta.DeleteOptions{PropagationPolicy: &fg}, Collected: collected}
	}
	return Write{Delete: &meta.DeleteOptions{}, Collected: collected}
}

// withoutOwner drops the references to owner uid from cur, a dependent of
// an owner deleted with orphan propagation.
func withoutOwner(cur meta.Object, uid string) Write {
	if cur == nil {
		return Write{}
	}
	next := cur.DeepCopyObject()
	nm := next.GetObjectMeta()
	nm.OwnerReferences = slices.DeleteFunc(nm.OwnerReferences, func(o meta.OwnerReference) bool { return o.UID == uid })
	if len(nm.OwnerReferences) == len(cur.GetObjectMeta().OwnerReferences) {
		return Write{}
	}
	if len(nm.OwnerReferences) == 0 {
		nm.OwnerReferences = nil
	}
	return Write{Update: next}
}

// releaseForegroundOwner removes the foreground finalizer from the owner
// at ref once no dependent that blocks its deletion is left.
func (c *Collector) releaseForegroundOwner(ref Ref) {
	obj := c.store.Get(ref)
	if obj == nil || !WaitsForDependents(obj.GetObjectMeta()) || c.hasBlockingDependents(obj.GetObjectMeta().UID) {
		return
	}
	c.removeFinalizer(ref, obj.GetObjectMeta().UID, meta.FinalizerDeleteDependents)
}

// removeFinalizer removes finalizer f from the object at ref if it is
// still the object with the given uid; without finalizers left, the
// object, being deleted, goes.
func (c *Collector) removeFinalizer(ref Ref, uid, f string) {
	c.store.Write(ref, func(cur meta.Object) Write {
		if cur == nil || cur.GetObjectMeta().UID != uid || !slices.Contains(cur.GetObjectMeta().Finalizers, f) {
			return Write{}
		}
		next := cur.DeepCopyObject()
		nm := next.GetObjectMeta()
		nm.Finalizers = slices.DeleteFunc(nm.Finalizers, func(x string) bool { return x == f })
		if len(nm.Finalizers) == 0 {
			nm.Finalizers = nil
		}
		return Write{Update: next}
	})
}

// hasBlockingDependents reports whether a dependent of owner uid has a
// reference to it with blockOwnerDeletion set.
func (c *Collector) hasBlockingDependents(uid string) bool {
	for _, ref := range c.store.Dependents(uid) {
		obj := c.store.Get(ref)
		if obj == nil {
			continue
		}
		for _, o := range obj.GetObjectMeta().OwnerReferences {
			if o.UID == uid && o.BlockOwnerDeletion != nil && *o.BlockOwnerDeletion {
				return true
			}
		}
	}
	return false
}

// WaitsForDependents reports whether m is being deleted in the
// foreground, waiting for its dependents.
func WaitsForDependents(m *meta.ObjectMeta) bool {
	return m.DeletionTimestamp != nil && slices.Contains(m.Finalizers, meta.FinalizerDeleteDependents)
}

// WaitsForCollector reports whether m is being deleted and holds one of
// the collector's finalizers: its propagation policy is still to be
// carried out.
func WaitsForCollector(m *meta.ObjectMeta) bool {
	return m.DeletionTimestamp != nil && HasPropagationFinalizer(m)
}

// HasPropagationFinalizer reports whether m holds one of the collector's
// finalizers.
func HasPropagationFinalizer(m *meta.ObjectMeta) bool {
	return slices.Contains(m.Finalizers, meta.FinalizerDeleteDependents) || slices.Contains(m.Finalizers, meta.FinalizerOrphanDependents)
}
