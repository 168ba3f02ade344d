package builtin_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"testing/synctest"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/namespaces"
)

// nsFixture is a server with real namespaces and Leases to put in them,
// and a namespace "team" holding the given Leases.
type nsFixture struct {
	ctx        context.Context
	srv        *apiserver.Server
	namespaces *client.Client[*builtin.Namespace]
	leases     *client.Client[*builtin.Lease]
}

func newNSFixture(t *testing.T, opts apiserver.Options, leases ...*builtin.Lease) *nsFixture {
	t.Helper()
	s := meta.NewScheme()
	if err := s.Register(builtin.LeaseKind(), builtin.NamespaceKind()); err != nil {
		t.Fatal(err)
	}
	srv := apiserver.NewServer(s, opts)
	t.Cleanup(srv.CloseWatches)
	f := &nsFixture{ctx: t.Context(), srv: srv,
		namespaces: client.New[*builtin.Namespace](srv), leases: client.New[*builtin.Lease](srv)}
	for _, ns := range []string{"team", "other"} {
		if _, err := f.namespaces.Create(f.ctx, builtin.NewNamespace(ns), meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range leases {
		if _, err := f.leases.Create(f.ctx, l, meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func lease(ns, name string, finalizers ...string) *builtin.Lease {
	return &builtin.Lease{ObjectMeta: meta.ObjectMeta{Namespace: ns, Name: name, Finalizers: finalizers}}
}

// watchAll watches namespaces and leases from now on; the returned
// function reads what has arrived, as one sequence in resourceVersion
// order: "TYPE resource/key rv=N (phase)".
func (f *nsFixture) watchAll(t *testing.T) func() []string {
	t.Helper()
	rv := f.srv.ResourceVersion()
	var watches []meta.WatchInterface
	for _, gvr := range []meta.GroupVersionResource{namespaces.Resource, builtin.LeasesResource} {
		w, err := f.srv.Resource(gvr).Watch(f.ctx, meta.ListOptions{ResourceVersion: rv})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(w.Stop)
		watches = append(watches, w)
	}
	return func() []string {
		synctest.Wait()
		type line struct {
			rv   int
			text string
		}
		var lines []line
		for _, w := range watches {
			for len(w.ResultChan()) > 0 {
				ev := <-w.ResultChan()
				m := ev.Object.GetObjectMeta()
				text := fmt.Sprintf("%s %s rv=%s", ev.Type, key(m), m.ResourceVersion)
				if ns, ok := ev.Object.(*builtin.Namespace); ok {
					text = fmt.Sprintf("%s %s %v", text, ns.Status.Phase, ns.Spec.Finalizers) + conditionsTrue(ns)
				}
				n, _ := strconv.Atoi(m.ResourceVersion)
				lines = append(lines, line{n, text})
			}
		}
		slices.SortStableFunc(lines, func(a, b line) int { return cmp.Compare(a.rv, b.rv) })
		var out []string
		for _, l := range lines {
			out = append(out, l.text)
		}
		return out
	}
}

// conditionsTrue sums up a namespace's status.conditions: how many, and
// the types of those that are True ("" when it has none).
func conditionsTrue(ns *builtin.Namespace) string {
	if len(ns.Status.Conditions) == 0 {
		return ""
	}
	var types []string
	for _, c := range ns.Status.Conditions {
		if c.Status == meta.ConditionTrue {
			types = append(types, c.Type)
		}
	}
	return fmt.Sprintf(" conditions=%d true=%v", len(ns.Status.Conditions), types)
}

func key(m *meta.ObjectMeta) string {
	if m.Namespace == "" {
		return "namespaces/" + m.Name
	}
	return "leases/" + m.Namespace + "/" + m.Name
}

// The namespace controller empties a deleted namespace, then removes its
// finalizer, and the namespace goes; the DELETE answers the namespace as
// it marked it, Terminating.
func TestNamespaceControllerEmptiesAndFinalizes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newNSFixture(t, apiserver.Options{}, lease("team", "b"), lease("team", "a"), lease("other", "c"))
		events := f.watchAll(t)
		res := f.srv.Resource(namespaces.Resource)
		obj, gone, err := res.DeleteObject(f.ctx, "team", meta.DeleteOptions{})
		if err != nil || gone {
			t.Fatalf("delete team: gone %v, %v", gone, err)
		}
		ns := obj.(*builtin.Namespace)
		if ns.Status.Phase != "Terminating" || ns.DeletionTimestamp == nil || ns.DeletionGracePeriodSeconds != nil {
			t.Errorf("delete answered %+v, want Terminating with a deletionTimestamp and no grace period", ns)
		}
		want := []string{
			"MODIFIED namespaces/team rv=7 Terminating [kubernetes]",
			"DELETED leases/team/a rv=8",
			"DELETED leases/team/b rv=9",
			"MODIFIED namespaces/team rv=10 Terminating [kubernetes] conditions=5 true=[]",
			"DELETED namespaces/team rv=11 Terminating [kubernetes] conditions=5 true=[]",
		}
		if diff := gocmp.Diff(want, events()); diff != "" {
			t.Errorf("events (-want +got):\n%s", diff)
		}
		if _, err := f.namespaces.Get(f.ctx, "team", meta.GetOptions{}); !meta.IsNotFound(err) {
			t.Errorf("get team after: %v, want 404", err)
		}
		if _, err := f.leases.Namespace("other").Get(f.ctx, "c", meta.GetOptions{}); err != nil {
			t.Errorf("another namespace's lease: %v", err)
		}
	})
}

// An object held by a finalizer holds its namespace, Terminating, in
// which nothing new may be created; the namespace goes when the object
// does.
func TestNamespaceWaitsForFinalizersAndRefusesCreates(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newNSFixture(t, apiserver.Options{}, lease("team", "held", "example.com/hold"), lease("team", "free"))
		events := f.watchAll(t)
		if err := f.namespaces.Delete(f.ctx, "team", meta.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		want := []string{
			"MODIFIED namespaces/team rv=6 Terminating [kubernetes]",
			"DELETED leases/team/free rv=7",
			"MODIFIED leases/team/held rv=8",
			"MODIFIED namespaces/team rv=9 Terminating [kubernetes] conditions=5 true=[NamespaceContentRemaining NamespaceFinalizersRemaining]",
		}
		if diff := gocmp.Diff(want, events()); diff != "" {
			t.Errorf("events while held (-want +got):\n%s", diff)
		}

		_, err := f.leases.Create(f.ctx, lease("team", "new"), meta.CreateOptions{})
		const msg = `leases.coordination.k8s.io "new" is forbidden: unable to create new content in namespace team because it is being terminated`
		if !meta.IsForbidden(err) || err.Error() != msg {
			t.Errorf("create in a terminating namespace = %v, want 403 %s", err, msg)
		}
		var se *meta.StatusError
		if errors.As(err, &se) {
			wantCauses := []meta.StatusCause{{Type: namespaces.CauseTypeNamespaceTerminating,
				Message: "namespace team is being terminated", Field: "metadata.namespace"}}
			if diff := gocmp.Diff(wantCauses, se.ErrStatus.Details.Causes); diff != "" {
				t.Errorf("causes (-want +got):\n%s", diff)
			}
		}

		held, err := f.leases.Namespace("team").Get(f.ctx, "held", meta.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		held.Finalizers = nil
		if _, err := f.leases.Update(f.ctx, held, meta.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		want = []string{
			"DELETED leases/team/held rv=10",
			"MODIFIED namespaces/team rv=11 Terminating [kubernetes] conditions=5 true=[]",
			"DELETED namespaces/team rv=12 Terminating [kubernetes] conditions=5 true=[]",
		}
		if diff := gocmp.Diff(want, events()); diff != "" {
			t.Errorf("events once released (-want +got):\n%s", diff)
		}
	})
}

// Without the namespace controller, as on a kube-apiserver without
// kube-controller-manager, a deleted namespace stays Terminating until
// its finalizer is removed through the finalize subresource; its contents
// stay behind. Create sets the phase and the finalizer whatever the body
// says, and an update cannot change spec.finalizers.
func TestNamespaceWithoutControllerWaitsForFinalize(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newNSFixture(t, apiserver.Options{DisableNamespaceController: true}, lease("team", "a"))
		in := builtin.NewNamespace("extra")
		in.Spec.Finalizers = []string{"example.com/hold"}
		in.Status.Phase = "Terminating"
		ns, err := f.namespaces.Create(f.ctx, in, meta.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := builtin.NamespaceSpec{Finalizers: []string{"example.com/hold", "kubernetes"}}
		if diff := gocmp.Diff(want, ns.Spec); ns.Status.Phase != "Active" || ns.Generation != 0 || diff != "" {
			t.Errorf("created phase %q generation %d, spec (-want +got):\n%s", ns.Status.Phase, ns.Generation, diff)
		}
		if got := ns.Labels["kubernetes.io/metadata.name"]; got != "extra" {
			t.Errorf("name label = %q", got)
		}
		ns.Spec.Finalizers = nil
		if ns, err = f.namespaces.Update(f.ctx, ns, meta.UpdateOptions{}); err != nil || len(ns.Spec.Finalizers) != 2 {
			t.Errorf("update clearing spec.finalizers: %v, %v; want them kept", ns.Spec.Finalizers, err)
		}

		events := f.watchAll(t)
		if err := f.namespaces.Delete(f.ctx, "team", meta.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		team, err := f.namespaces.Get(f.ctx, "team", meta.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		team.Spec.Finalizers = nil
		res := f.srv.Resource(namespaces.Resource)
		if _, err := res.Finalize(f.ctx, team, meta.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		want2 := []string{
			"MODIFIED namespaces/team rv=6 Terminating [kubernetes]",
			"DELETED namespaces/team rv=7 Terminating [kubernetes]",
		}
		if diff := gocmp.Diff(want2, events()); diff != "" {
			t.Errorf("events (-want +got):\n%s", diff)
		}
		if _, err := f.leases.Namespace("team").Get(f.ctx, "a", meta.GetOptions{}); err != nil {
			t.Errorf("the lease left behind: %v", err)
		}
		if _, err := f.srv.Resource(builtin.LeasesResource).Finalize(f.ctx, lease("team", "a"), meta.UpdateOptions{}); !meta.IsNotFound(err) {
			t.Errorf("finalize of a lease = %v, want 404", err)
		}
	})
}

// "default", "kube-public" and "kube-system" may not be deleted.
func TestImmortalNamespaces(t *testing.T) {
	f := newNSFixture(t, apiserver.Options{})
	if _, err := f.namespaces.Create(f.ctx, builtin.NewNamespace("default"), meta.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	err := f.namespaces.Delete(f.ctx, "default", meta.DeleteOptions{})
	if want := `namespaces "default" is forbidden: this namespace may not be deleted`; !meta.IsForbidden(err) || err.Error() != want {
		t.Errorf("delete default = %v, want 403 %s", err, want)
	}
}
