package builtin_test

import (
	"context"
	"maps"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/namespaces"
)

// newBuiltinServer serves every built-in kind, with namespace "default".
func newBuiltinServer(t *testing.T) *apiserver.Server {
	t.Helper()
	s := meta.NewScheme()
	if err := s.Register(builtin.NamespaceKind(), builtin.EventKind(), builtin.LeaseKind()); err != nil {
		t.Fatal(err)
	}
	srv := apiserver.NewServer(s, apiserver.Options{})
	ns := client.New[*builtin.Namespace](srv)
	if _, err := ns.Create(context.Background(), builtin.NewNamespace("default"), meta.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	return srv
}

// As on kube-apiserver (each registry strategy's AllowUnconditionalUpdate):
// an update without resourceVersion replaces a Namespace or an Event,
// whatever its resourceVersion, and is 422 Invalid for a Lease. A wrong uid
// is a failed precondition, 409, checked first.
func TestUnconditionalUpdate(t *testing.T) {
	ctx := context.Background()
	srv := newBuiltinServer(t)

	nsc := client.New[*builtin.Namespace](srv)
	team, err := nsc.Create(ctx, builtin.NewNamespace("team"), meta.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	update := team.DeepCopyObject().(*builtin.Namespace)
	update.ResourceVersion, update.Labels = "", map[string]string{"tier": "a"}
	got, err := nsc.Update(ctx, update, meta.UpdateOptions{})
	if err != nil {
		t.Fatalf("namespace update without resourceVersion: %v", err)
	}
	if got.Labels["tier"] != "a" || got.ResourceVersion == team.ResourceVersion {
		t.Errorf("namespace after update: labels %v, resourceVersion %s (was %s)", got.Labels, got.ResourceVersion, team.ResourceVersion)
	}
	// A namespace's status update takes metadata from the request too
	// (Kubernetes' namespaceStatusStrategy keeps only spec as stored).
	status := got.DeepCopyObject().(*builtin.Namespace)
	status.ResourceVersion, status.Labels, status.Spec.Finalizers = "", nil, nil
	got, err = nsc.UpdateStatus(ctx, status, meta.UpdateOptions{})
	if err != nil {
		t.Fatalf("namespace status update without resourceVersion: %v", err)
	}
	if want := map[string]string{namespaces.LabelMetadataName: "team"}; !maps.Equal(got.Labels, want) || len(got.Spec.Finalizers) != 1 {
		t.Errorf("namespace after status update: labels %v (want %v), finalizers %v (want kept)", got.Labels, want, got.Spec.Finalizers)
	}
	update.UID = "not-the-uid"
	_, err = nsc.Update(ctx, update, meta.UpdateOptions{})
	want := `Operation cannot be fulfilled on namespaces "team": StorageError: invalid object, Code: 4, Key: /registry/namespaces/team, ` +
		`ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: not-the-uid, UID in object meta: ` + string(team.UID)
	if !meta.IsConflict(err) || err.Error() != want {
		t.Errorf("update with a wrong uid = %v, want 409 %s", err, want)
	}

	events := client.New[*builtin.Event](srv).Namespace("default")
	ev, err := events.Create(ctx, &builtin.Event{ObjectMeta: meta.ObjectMeta{Name: "e"},
		InvolvedObject: builtin.ObjectReference{Kind: "Order", Name: "o"}, Message: "first"}, meta.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ev.ResourceVersion, ev.Message = "", "second"
	if got, err := events.Update(ctx, ev, meta.UpdateOptions{}); err != nil || got.Message != "second" {
		t.Errorf("event update without resourceVersion = %v, %v; want the message second", got, err)
	}

	leases := client.New[*builtin.Lease](srv).Namespace("default")
	l, err := leases.Create(ctx, &builtin.Lease{ObjectMeta: meta.ObjectMeta{Name: "l"}}, meta.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	l.ResourceVersion = ""
	_, err = leases.Update(ctx, l, meta.UpdateOptions{})
	want = `leases.coordination.k8s.io "l" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update`
	if !meta.IsInvalid(err) || err.Error() != want {
		t.Errorf("lease update without resourceVersion = %v, want 422 %s", err, want)
	}
}

// Namespace, Event and Lease keep no metadata.generation, on create or
// when spec changes, as on kube-apiserver.
func TestBuiltinKindsHaveNoGeneration(t *testing.T) {
	ctx := context.Background()
	srv := newBuiltinServer(t)
	leases := client.New[*builtin.Lease](srv).Namespace("default")
	l, err := leases.Create(ctx, &builtin.Lease{ObjectMeta: meta.ObjectMeta{Name: "l"}}, meta.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	l.Spec.HolderIdentity = ptr("a")
	updated, err := leases.Update(ctx, l, meta.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	events := client.New[*builtin.Event](srv).Namespace("default")
	ev, err := events.Create(ctx, &builtin.Event{ObjectMeta: meta.ObjectMeta{Name: "e"},
		InvolvedObject: builtin.ObjectReference{Kind: "Order", Name: "o"}}, meta.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ns, err := client.New[*builtin.Namespace](srv).Get(ctx, "default", meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for what, gen := range map[string]int64{"lease": l.Generation, "updated lease": updated.Generation,
		"event": ev.Generation, "namespace": ns.Generation} {
		if gen != 0 {
			t.Errorf("%s: generation %d, want none", what, gen)
		}
	}

	// A generation the client sends is stored at create and kept
	// through updates, whatever they send.
	sent, err := leases.Create(ctx, &builtin.Lease{ObjectMeta: meta.ObjectMeta{Name: "sent", Generation: 5}}, meta.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sent.Generation, sent.Spec.HolderIdentity = 7, ptr("b")
	kept, err := leases.Update(ctx, sent, meta.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if kept.Generation != 5 {
		t.Errorf("lease created with generation 5, updated sending 7: generation %d, want 5", kept.Generation)
	}
}
