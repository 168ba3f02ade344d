package leaderelection_test

import (
	"context"
	"fmt"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/reconcile/leaderelection"
)

// A lone candidate takes the lease at once, leads, and on cancel releases
// it for the next one.
func Example() {
	scheme := meta.NewScheme()
	if err := builtin.Register(scheme); err != nil {
		panic(err)
	}
	srv := apiserver.NewServer(scheme, apiserver.Options{})
	leases := srv.Resource(builtin.LeasesResource).Namespace("kitchen")

	ctx, cancel := context.WithCancel(context.Background())
	le, err := leaderelection.New(leaderelection.Config{
		Client: leases, Namespace: "kitchen", Name: "chef", Identity: "chef-a",
		LeaseDuration: 15 * time.Second, RenewDeadline: 10 * time.Second, RetryPeriod: 2 * time.Second,
		ReleaseOnCancel: true,
		Callbacks: leaderelection.Callbacks{
			OnNewLeader:      func(id string) { fmt.Println("new leader:", id) },
			OnStartedLeading: func(context.Context) { fmt.Println("cooking"); cancel() },
			OnStoppedLeading: func() { fmt.Println("stopped") },
		},
	})
	if err != nil {
		panic(err)
	}
	le.Run(ctx)

	got, _ := leases.Get(context.Background(), "chef", meta.GetOptions{})
	spec := got.(*builtin.Lease).Spec
	fmt.Printf("holder %q, leaseDurationSeconds %d, leaseTransitions %d\n", *spec.HolderIdentity, *spec.LeaseDurationSeconds, *spec.LeaseTransitions)
	// Output:
	// new leader: chef-a
	// cooking
	// stopped
	// holder "", leaseDurationSeconds 1, leaseTransitions 0
}
