package builtin_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// As on kube-apiserver (each registry strategy's AllowCreateOnUpdate): an
// update of a Lease or an Event that does not exist creates it, its
// resourceVersion ignored, reported as created; the next update is an
// update.
func TestCreateOnUpdate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		srv := newBuiltinServer(t)
		leases := srv.Resource(meta.GroupVersionResource{Group: "coordination.k8s.io", Version: "v1", Resource: "leases"}).Namespace("default")
		in := &builtin.Lease{ObjectMeta: meta.ObjectMeta{Name: "l", ResourceVersion: "42"},
			Spec: builtin.LeaseSpec{HolderIdentity: ptr("a")}}
		got, created, err := leases.UpdateObject(ctx, in, meta.UpdateOptions{})
		if err != nil || !created {
			t.Fatalf("update of a missing lease = %v, created %v; want it created", err, created)
		}
		stored, err := leases.Get(ctx, "l", meta.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := &builtin.Lease{
			TypeMeta: meta.TypeMeta{APIVersion: "coordination.k8s.io/v1", Kind: "Lease"},
			ObjectMeta: meta.ObjectMeta{Name: "l", Namespace: "default", UID: stored.GetObjectMeta().UID,
				ResourceVersion: stored.GetObjectMeta().ResourceVersion, CreationTimestamp: meta.NewTime(time.Now())},
			Spec: builtin.LeaseSpec{HolderIdentity: ptr("a")},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("created lease (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(got, stored); diff != "" || stored.GetObjectMeta().ResourceVersion == "42" {
			t.Errorf("stored lease differs from the answer (-answer +stored):\n%s", diff)
		}
		again := stored.DeepCopyObject().(*builtin.Lease)
		again.Spec.HolderIdentity = ptr("b")
		if _, created, err = leases.UpdateObject(ctx, again, meta.UpdateOptions{}); err != nil || created {
			t.Errorf("second update = %v, created %v; want an update", err, created)
		}
		events := client.New[*builtin.Event](srv).Namespace("default")
		ev := &builtin.Event{ObjectMeta: meta.ObjectMeta{Name: "e"}, InvolvedObject: builtin.ObjectReference{Kind: "Order", Name: "o"}}
		if _, err := events.Update(ctx, ev, meta.UpdateOptions{}); err != nil {
			t.Errorf("update of a missing event = %v, want it created", err)
		}
	})
}

// An update that would create is checked as a create is: a uid is a
// failed precondition, the namespace must exist, a dry run stores
// nothing; kinds that do not allow it (Namespace, custom kinds) answer
// 404 NotFound.
func TestCreateOnUpdateRefused(t *testing.T) {
	ctx := context.Background()
	srv := newBuiltinServer(t)
	if err := srv.Scheme().Register(apiservertest.WidgetKind()); err != nil {
		t.Fatal(err)
	}
	leases := client.New[*builtin.Lease](srv)
	lease := func(ns, name, uid string) *builtin.Lease {
		return &builtin.Lease{ObjectMeta: meta.ObjectMeta{Namespace: ns, Name: name, UID: uid}}
	}
	_, errUID := leases.Update(ctx, lease("default", "u", "abc"), meta.UpdateOptions{})
	_, errNS := leases.Update(ctx, lease("nosuch", "l", ""), meta.UpdateOptions{})
	_, errDry := leases.Update(ctx, lease("default", "dry", ""), meta.UpdateOptions{DryRun: true})
	_, errGetDry := leases.Namespace("default").Get(ctx, "dry", meta.GetOptions{})
	_, errNamespace := client.New[*builtin.Namespace](srv).Update(ctx, builtin.NewNamespace("team"), meta.UpdateOptions{})
	_, errWidget := client.New[*apiservertest.Widget](srv).Namespace("default").Update(ctx,
		&apiservertest.Widget{ObjectMeta: meta.ObjectMeta{Name: "w"}}, meta.UpdateOptions{})
	got := map[string]string{"uid": errString(errUID), "namespace": errString(errNS), "dry run": errString(errDry),
		"get after dry run": errString(errGetDry), "Namespace": errString(errNamespace), "Widget": errString(errWidget)}
	want := map[string]string{
		"uid": `Operation cannot be fulfilled on leases.coordination.k8s.io "u": StorageError: invalid object, Code: 4, ` +
			`Key: /registry/leases/default/u, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: abc, UID in object meta: `,
		"namespace":         `namespaces "nosuch" not found`,
		"dry run":           "",
		"get after dry run": `leases.coordination.k8s.io "dry" not found`,
		"Namespace":         `namespaces "team" not found`,
		"Widget":            `widgets.test.kitchensync.io "w" not found`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
