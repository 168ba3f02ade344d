package builtin_test

import (
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/namespaces"
)

// namespaceConditions are the five conditions the namespace controller
// writes, all False (all content removed) at time at, except those in
// override.
func namespaceConditions(at time.Time, override ...meta.Condition) []meta.Condition {
	conds := []meta.Condition{
		{Type: namespaces.NamespaceDeletionDiscoveryFailure, Status: meta.ConditionFalse, Reason: "ResourcesDiscovered", Message: "All resources successfully discovered"},
		{Type: namespaces.NamespaceDeletionGVParsingFailure, Status: meta.ConditionFalse, Reason: "ParsedGroupVersions", Message: "All legacy kube types successfully parsed"},
		{Type: namespaces.NamespaceDeletionContentFailure, Status: meta.ConditionFalse, Reason: "ContentDeleted", Message: "All content successfully deleted, may be waiting on finalization"},
		{Type: namespaces.NamespaceContentRemaining, Status: meta.ConditionFalse, Reason: "ContentRemoved", Message: "All content successfully removed"},
		{Type: namespaces.NamespaceFinalizersRemaining, Status: meta.ConditionFalse, Reason: "ContentRemoved", Message: "All content successfully removed"},
	}
	for i := range conds {
		conds[i].LastTransitionTime = meta.NewTime(at)
		for _, o := range override {
			if o.Type == conds[i].Type {
				conds[i] = o
			}
		}
	}
	return conds
}

// While objects held by finalizers remain, the namespace controller says
// so in the namespace's conditions, as kube-controller-manager's does:
// what remains per resource, and per finalizer. A condition's transition
// time moves only when its status does. Once the content is gone, all
// five are False; a namespace held by a finalizer of its own keeps them.
func TestNamespaceConditions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newNSFixture(t, apiserver.Options{}, lease("team", "a", "example.com/hold"),
			lease("team", "b", "example.com/hold", "example.com/audit"), lease("team", "c"))
		ns := builtin.NewNamespace("held")
		ns.Spec.Finalizers = []string{"example.com/ns"}
		if _, err := f.namespaces.Create(f.ctx, ns, meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if err := f.namespaces.Delete(f.ctx, "team", meta.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		remaining := func(leases, hold int, audit bool, at time.Time) []meta.Condition {
			msg := "Some finalizers are remaining: "
			if audit {
				msg += "example.com/audit in 1 resource instances, "
			}
			return namespaceConditions(start,
				meta.Condition{Type: namespaces.NamespaceContentRemaining, Status: meta.ConditionTrue, LastTransitionTime: meta.NewTime(at),
					Reason: "SomeResourcesRemain", Message: "Some resources are remaining: leases.coordination.k8s.io has " + strconv.Itoa(leases) + " resource instances"},
				meta.Condition{Type: namespaces.NamespaceFinalizersRemaining, Status: meta.ConditionTrue, LastTransitionTime: meta.NewTime(at),
					Reason: "SomeFinalizerRemain", Message: msg + "example.com/hold in " + strconv.Itoa(hold) + " resource instances"})
		}
		f.wantConditions(t, "team", remaining(2, 2, true, start))

		time.Sleep(time.Minute)
		f.release(t, "b")
		f.wantConditions(t, "team", remaining(1, 1, false, start))

		time.Sleep(time.Minute)
		f.release(t, "a")
		if _, err := f.namespaces.Get(f.ctx, "team", meta.GetOptions{}); !meta.IsNotFound(err) {
			t.Errorf("team once empty: %v, want 404", err)
		}
		if err := f.namespaces.Delete(f.ctx, "held", meta.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		f.wantConditions(t, "held", namespaceConditions(time.Now()))
	})
}

// wantConditions compares namespace name's status.conditions with want.
func (f *nsFixture) wantConditions(t *testing.T, name string, want []meta.Condition) {
	t.Helper()
	ns, err := f.namespaces.Get(f.ctx, name, meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := gocmp.Diff(want, ns.Status.Conditions); diff != "" {
		t.Errorf("%s conditions (-want +got):\n%s", name, diff)
	}
}

// release removes the finalizers of lease team/name.
func (f *nsFixture) release(t *testing.T, name string) {
	t.Helper()
	l, err := f.leases.Namespace("team").Get(f.ctx, name, meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	l.Finalizers = nil
	if _, err := f.leases.Update(f.ctx, l, meta.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}
