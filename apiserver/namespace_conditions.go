package apiserver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/trace"
)

// The status.conditions the namespace controller writes on a namespace
// being deleted, with Kubernetes' names (core/v1 NamespaceConditionType).
const (
	NamespaceDeletionDiscoveryFailure = "NamespaceDeletionDiscoveryFailure"
	NamespaceDeletionGVParsingFailure = "NamespaceDeletionGroupVersionParsingFailure"
	NamespaceDeletionContentFailure   = "NamespaceDeletionContentFailure"
	NamespaceContentRemaining         = "NamespaceContentRemaining"
	NamespaceFinalizersRemaining      = "NamespaceFinalizersRemaining"
)

// namespaceConditions are the conditions of a namespace whose content the
// controller has just deleted, in kube-controller-manager's order and
// words (pkg/controller/namespace/deletion): discovery, group versions
// and deletes cannot fail here, so the first three are always False;
// NamespaceContentRemaining and NamespaceFinalizersRemaining are True
// while objects remain, held by finalizers, counted per resource and per
// finalizer ("widgets.test.kitchensync.io has 1 resource instances",
// "example.com/hold in 1 resource instances"; a core resource reads
// "events. has ...", as on a cluster).
func namespaceConditions(remaining []*entry, resources []meta.GroupResource) []meta.Condition {
	conds := []meta.Condition{
		{Type: NamespaceDeletionDiscoveryFailure, Status: meta.ConditionFalse, Reason: "ResourcesDiscovered", Message: "All resources successfully discovered"},
		{Type: NamespaceDeletionGVParsingFailure, Status: meta.ConditionFalse, Reason: "ParsedGroupVersions", Message: "All legacy kube types successfully parsed"},
		{Type: NamespaceDeletionContentFailure, Status: meta.ConditionFalse, Reason: "ContentDeleted", Message: "All content successfully deleted, may be waiting on finalization"},
		{Type: NamespaceContentRemaining, Status: meta.ConditionFalse, Reason: "ContentRemoved", Message: "All content successfully removed"},
		{Type: NamespaceFinalizersRemaining, Status: meta.ConditionFalse, Reason: "ContentRemoved", Message: "All content successfully removed"},
	}
	perResource, perFinalizer := map[meta.GroupResource]int{}, map[string]int{}
	for i, e := range remaining {
		perResource[resources[i]]++
		for _, f := range e.obj.GetObjectMeta().Finalizers {
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

// writeNamespaceConditions is the namespace controller's status update of
// the namespace at ref (if it is still the one with uid) after deleting
// its content: the conditions namespaceConditions makes of what remains,
// set as [meta.SetStatusCondition] sets them (a transition time moves only
// with its status), written only if they changed.
func (s *Server) writeNamespaceConditions(ref objectRef, uid string, remaining []objectRef) {
	var entries []*entry
	var resources []meta.GroupResource
	for _, r := range remaining {
		if e := s.lookup(r); e != nil {
			entries, resources = append(entries, e), append(resources, r.gr)
		}
	}
	want := namespaceConditions(entries, resources)
	s.mutate(ref.gr, ref.key, func(old *entry) (change, error) {
		if old == nil || old.obj.GetObjectMeta().UID != uid {
			return change{obj: old}, nil
		}
		next := old.obj.DeepCopyObject()
		ns := next.(NamespaceObject)
		conds := slices.Clone(ns.NamespaceConditions())
		changed := false
		for _, c := range want {
			changed = meta.SetStatusCondition(&conds, c) || changed
		}
		if !changed {
			return change{obj: old}, nil
		}
		ns.SetNamespaceConditions(conds)
		e, err := s.newEntry(next)
		return change{typ: meta.EventModified, obj: e, by: trace.NamespaceController}, err
	})
}
