package builtin_test

import (
	"context"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// With Namespace registered, a namespace must exist before anything is
// created in it, as on a cluster; without it, any name will do.
func TestNamespacesAreRealOnlyWhenRegistered(t *testing.T) {
	ctx := context.Background()
	lease := func(ns string) *builtin.Lease {
		return &builtin.Lease{ObjectMeta: meta.ObjectMeta{Namespace: ns, Name: "l"}}
	}
	plain := meta.NewScheme()
	if err := builtin.Register(plain); err != nil {
		t.Fatal(err)
	}
	leases := client.New[*builtin.Lease](apiserver.NewServer(plain, apiserver.Options{}))
	if _, err := leases.Create(ctx, lease("anywhere"), meta.CreateOptions{}); err != nil {
		t.Errorf("without Namespace registered: %v", err)
	}

	s := meta.NewScheme()
	if err := s.Register(builtin.LeaseKind(), builtin.NamespaceKind()); err != nil {
		t.Fatal(err)
	}
	srv := apiserver.NewServer(s, apiserver.Options{})
	leases = client.New[*builtin.Lease](srv)
	_, err := leases.Create(ctx, lease("nosuchns"), meta.CreateOptions{})
	if want := `namespaces "nosuchns" not found`; !meta.IsNotFound(err) || err.Error() != want {
		t.Errorf("create in a missing namespace = %v, want 404 %s", err, want)
	}
	_, err = leases.Create(ctx, lease("nosuchns"), meta.CreateOptions{DryRun: true})
	if !meta.IsNotFound(err) {
		t.Errorf("dry-run create in a missing namespace = %v, want 404", err)
	}
	nsc := client.New[*builtin.Namespace](srv)
	if _, err := nsc.Create(ctx, builtin.NewNamespace("team"), meta.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := leases.Create(ctx, lease("team"), meta.CreateOptions{}); err != nil {
		t.Errorf("create in an existing namespace: %v", err)
	}
	list, _, err := nsc.List(ctx, meta.ListOptions{FieldSelector: "status.phase=Active"})
	if err != nil || len(list) != 1 {
		t.Errorf("active namespaces: %v, %v", list, err)
	}
}
