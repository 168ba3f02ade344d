package namespaces

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Ref locates one stored object: its resource and storage key.
type Ref struct {
	Resource meta.GroupResource
	// Key is "namespace/name", or "name" for a cluster-scoped object (a
	// namespace's key is its name).
	Key string
}

// Store is what the namespace controller needs of the API server: the
// objects, the contents of a namespace, and a way to write. It is owned
// here, by its consumer; the API server implements it.
type Store interface {
	// Get returns the object stored at ref, or nil.
	Get(ref Ref) meta.Object
	// Contents returns, sorted by resource and key, every object stored
	// in namespace ns.
	Contents(ns string) []Ref
	// Write reads the object at ref (nil if gone), and writes what
	// decide returns, as one atomic step: if the object changes in
	// between, it reads again and decide runs again.
	Write(ref Ref, decide func(cur meta.Object) Write)
}

// Write is what the controller writes to an object it read. The zero
// Write writes nothing. Every write is signed by the namespace
// controller, for the trace.
type Write struct {
	// Delete, when set, deletes the object with these options.
	Delete *meta.DeleteOptions
	// Update, when set, is a changed copy of the object to store.
	Update meta.Object
	// Finalize, when set, sets a namespace's spec.finalizers, through
	// the finalize subresource: a namespace being deleted that nothing
	// holds any more goes.
	Finalize []string
}

// Controller is the namespace controller, like kube-controller-manager's
// (pkg/controller/namespace): when a namespace is being deleted and still
// holds [FinalizerKubernetes], [Controller.Sync] deletes every object in
// it (background propagation, as the real one asks), waits for those held
// by finalizers, and once nothing is left removes its finalizer, after
// which the namespace goes. After each pass it writes the namespace's
// status.conditions, as the real controller does: all five False once the
// content is gone (just before the namespace goes, so the DELETED event
// carries them); [NamespaceContentRemaining] and
// [NamespaceFinalizersRemaining] True, naming what remains and the
// finalizers holding it, while objects wait for their finalizers.
//
// Simplified: it deletes object by object, resources in the order of
// their names (group, then resource) and objects in the order of their
// names, where the real controller sends one deletecollection per
// resource in discovery's order.
type Controller struct {
	store Store
}

// NewController returns a namespace controller working on store.
func NewController(store Store) *Controller {
	return &Controller{store: store}
}

// Sync is the controller's work on namespace name: delete what is in it,
// and remove the finalizer once it is empty. A namespace that does not
// await the controller ([AwaitsController]) is left alone.
func (c *Controller) Sync(name string) {
	ref := Ref{Resource.GroupResource(), name}
	ns := c.store.Get(ref)
	if !AwaitsController(ns) {
		return
	}
	for _, obj := range c.store.Contents(name) {
		c.store.Write(obj, deleteContent)
	}
	uid := ns.GetObjectMeta().UID
	remaining := c.store.Contents(name)
	c.writeConditions(ref, uid, remaining)
	if len(remaining) > 0 {
		return // held by finalizers: the delete of the last one brings it back here
	}
	c.store.Write(ref, func(cur meta.Object) Write {
		if cur == nil || cur.GetObjectMeta().UID != uid {
			return Write{}
		}
		fins := slices.DeleteFunc(slices.Clone(cur.(Object).NamespaceFinalizers()),
			func(f string) bool { return f == FinalizerKubernetes })
		if fins == nil {
			fins = []string{}
		}
		return Write{Finalize: fins}
	})
}

// AwaitsController reports whether obj is a namespace being deleted that
// still holds [FinalizerKubernetes].
func AwaitsController(obj meta.Object) bool {
	ns, ok := obj.(Object)
	if !ok || obj.GetObjectMeta().DeletionTimestamp == nil {
		return false
	}
	return slices.Contains(ns.NamespaceFinalizers(), FinalizerKubernetes)
}

// deleteContent is the controller's delete of cur, an object in a
// namespace being deleted: with background propagation, unless it is
// being deleted already.
func deleteContent(cur meta.Object) Write {
	if cur == nil || cur.GetObjectMeta().DeletionTimestamp != nil {
		return Write{}
	}
	bg := meta.DeletePropagationBackground
	return Write{Delete: &meta.DeleteOptions{PropagationPolicy: &bg}}
}

// writeConditions is the controller's status update of the namespace at
// ref (if it is still the one with uid) after deleting its content: the
// conditions of what remains, set as [meta.SetStatusCondition] sets them
// (a transition time moves only with its status), written only if they
// changed.
func (c *Controller) writeConditions(ref Ref, uid string, remaining []Ref) {
	var objs []meta.Object
	var resources []meta.GroupResource
	for _, r := range remaining {
		if obj := c.store.Get(r); obj != nil {
			objs, resources = append(objs, obj), append(resources, r.Resource)
		}
	}
	want := conditions(objs, resources)
	c.store.Write(ref, func(cur meta.Object) Write {
		if cur == nil || cur.GetObjectMeta().UID != uid {
			return Write{}
		}
		next := cur.DeepCopyObject()
		ns := next.(Object)
		conds := slices.Clone(ns.NamespaceConditions())
		changed := false
		for _, c := range want {
			changed = meta.SetStatusCondition(&conds, c) || changed
		}
		if !changed {
			return Write{}
		}
		ns.SetNamespaceConditions(conds)
		return Write{Update: next}
	})
}

// The status.conditions the namespace controller writes on a namespace
// being deleted, with Kubernetes' names (core/v1 NamespaceConditionType).
const (
	NamespaceDeletionDiscoveryFailure = "NamespaceDeletionDiscoveryFailure"
	NamespaceDeletionGVParsingFailure = "NamespaceDeletionGroupVersionParsingFailure"
	NamespaceDeletionContentFailure   = "NamespaceDeletionContentFailure"
	NamespaceContentRemaining         = "NamespaceContentRemaining"
	NamespaceFinalizersRemaining      = "NamespaceFinalizersRemaining"
)

// conditions are the conditions of a namespace whose content the
// controller has just deleted, in kube-controller-manager's order and
// words (pkg/controller/namespace/deletion): discovery, group versions
// and deletes cannot fail here, so the first three are always False;
// NamespaceContentRemaining and NamespaceFinalizersRemaining are True
// while objects remain, held by finalizers, counted per resource and per
// finalizer ("widgets.test.kitchensync.io has 1 resource instances",
// "example.com/hold in 1 resource instances"; a core resource reads
// "events. has ...", as on a cluster).
func conditions(remaining []meta.Object, resources []meta.GroupResource) []meta.Condition {
	conds := []meta.Condition{
		{Type: NamespaceDeletionDiscoveryFailure, Status: meta.ConditionFalse, Reason: "ResourcesDiscovered", Message: "All resources successfully discovered"},
		{Type: NamespaceDeletionGVParsingFailure, Status: meta.ConditionFalse, Reason: "ParsedGroupVersions", Message: "All legacy kube types successfully parsed"},
		{Type: NamespaceDeletionContentFailure, Status: meta.ConditionFalse, Reason: "ContentDeleted", Message: "All content successfully deleted, may be waiting on finalization"},
		{Type: NamespaceContentRemaining, Status: meta.ConditionFalse, Reason: "ContentRemoved", Message: "All content successfully removed"},
		{Type: NamespaceFinalizersRemaining, Status: meta.ConditionFalse, Reason: "ContentRemoved", Message: "All content successfully removed"},
	}
	perResource, perFinalizer := map[meta.GroupResource]int{}, map[string]int{}
	for i, obj := range remaining {
		perResource[resources[i]]++
		for _, f := range obj.GetObjectMeta().Finalizers {
			perFinalizer[f]++
		}
	}
	if len(perResource) > 0 {
		conds[3] = meta.Condition{Type: NamespaceContentRemaining, Status: meta.ConditionTrue, Reason: "SomeResourcesRemain",
			Message: "Some resources are remaining: " + counted(perResource, func(gr meta.GroupResource, n int) string {
				return fmt.Sprintf("%s.%s has %d resource instances", gr.Resource, gr.Group, n)
			})}
	}
	if len(perFinalizer) > 0 {
		conds[4] = meta.Condition{Type: NamespaceFinalizersRemaining, Status: meta.ConditionTrue, Reason: "SomeFinalizerRemain",
			Message: "Some finalizers are remaining: " + counted(perFinalizer, func(f string, n int) string {
				return fmt.Sprintf("%s in %d resource instances", f, n)
			})}
	}
	return conds
}

// counted describes each key of m with its count, sorted, comma-separated.
func counted[K comparable](m map[K]int, describe func(K, int) string) string {
	parts := make([]string, 0, len(m))
	for k, n := range m {
		parts = append(parts, describe(k, n))
	}
	slices.Sort(parts)
	return strings.Join(parts, ", ")
}
