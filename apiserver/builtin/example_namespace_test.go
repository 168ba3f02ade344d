package builtin_test

import (
	"context"
	"fmt"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/namespaces"
)

// Namespaces made real: a new namespace is Active and carries the
// namespace controller's finalizer; deleting it answers it Terminating;
// the server's namespace controller deletes what is in it, then removes
// its finalizer, and the namespace goes. A watch shows each step.
func ExampleNamespaceKind() {
	ctx := context.Background()
	scheme := meta.NewScheme()
	if err := scheme.Register(builtin.LeaseKind(), builtin.NamespaceKind()); err != nil {
		panic(err)
	}
	srv := apiserver.NewServer(scheme, apiserver.Options{})
	nss := client.New[*builtin.Namespace](srv)
	leases := client.New[*builtin.Lease](srv)

	_, err := leases.Create(ctx, &builtin.Lease{ObjectMeta: meta.ObjectMeta{Namespace: "dinner", Name: "chef"}}, meta.CreateOptions{})
	fmt.Println("before the namespace:", err)
	ns, _ := nss.Create(ctx, builtin.NewNamespace("dinner"), meta.CreateOptions{})
	fmt.Println("created:", ns.Status.Phase, ns.Spec.Finalizers)
	_, _ = leases.Create(ctx, &builtin.Lease{ObjectMeta: meta.ObjectMeta{Namespace: "dinner", Name: "chef"}}, meta.CreateOptions{})

	w, _ := srv.Resource(builtin.LeasesResource).Watch(ctx, meta.ListOptions{ResourceVersion: srv.ResourceVersion()})
	defer w.Stop()
	obj, _, _ := srv.Resource(namespaces.Resource).DeleteObject(ctx, "dinner", meta.DeleteOptions{})
	fmt.Println("delete answered:", obj.(*builtin.Namespace).Status.Phase)
	ev := <-w.ResultChan()
	fmt.Println("the namespace controller:", ev.Type, ev.Object.GetObjectMeta().Name)
	_, err = nss.Get(ctx, "dinner", meta.GetOptions{})
	fmt.Println("afterwards:", err)
	// Output:
	// before the namespace: namespaces "dinner" not found
	// created: Active [kubernetes]
	// delete answered: Terminating
	// the namespace controller: DELETED chef
	// afterwards: namespaces "dinner" not found
}
