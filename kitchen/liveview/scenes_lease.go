package liveview

import (
	"context"
	"fmt"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/reconcile/leaderelection"
)

// The Lease scene's timing, in real time: short, so that the handover
// shows within a few seconds.
const (
	leaseDuration = 2 * time.Second
	leaseRenew    = 1500 * time.Millisecond
	leaseRetry    = 300 * time.Millisecond
)

func sceneLease() *scene {
	return &scene{
		ID: "lease", Title: "Two chefs and a Lease handover",
		Question: "Two chefs compete for one Lease. The leader walks out without releasing it. When does the other take over?",
		Choices:  []string{"At once", "Once the Lease has gone unrenewed for its whole duration", "Never: someone must restart it"},
		Answer:   1,
		Explain: "Only the holder of the Lease cooks. The leader renews it every retry period; the other chef reads it " +
			"and keeps the time of the last change it saw. When the Lease has not changed for its duration (2 s " +
			"here; 15 s is client-go's usual), the other chef writes itself in as holder — with the resourceVersion " +
			"it read, so that two chefs taking over at once cannot both win (409 for the slower). A leader that " +
			"stops cleanly releases the Lease, and its successor takes over at once.",
		Tour: readme, Chapter: "Over the wire: a chef of its own, a failover, a real cluster", Docs: []string{tourDoc + "reconcile/leaderelection", tourDoc + "apiserver/builtin Lease"},
		setup: func(ctx context.Context, s *sceneRun) (func(Hold) bool, error) {
			leases := s.v.r.Server.Resource(builtin.LeasesResource).Namespace(s.v.r.Namespace)
			name := fmt.Sprintf("the-pass-%d", s.state.Run)
			elect := func(id string, client leaderelection.LeaseClient, release bool, led chan struct{}) (*leaderelection.LeaderElector, error) {
				return leaderelection.New(leaderelection.Config{Client: client, Namespace: s.v.r.Namespace, Name: name, Identity: id,
					LeaseDuration: leaseDuration, RenewDeadline: leaseRenew, RetryPeriod: leaseRetry, ReleaseOnCancel: release,
					Callbacks: leaderelection.Callbacks{OnStartedLeading: func(ctx context.Context) { close(led); <-ctx.Done() }}})
			}
			ledA, ledB := make(chan struct{}), make(chan struct{})
			a, err := elect("chef-a", leases, false, ledA)
			if err != nil {
				return nil, err
			}
			actx, walkOut := context.WithCancel(ctx)
			s.cleanup(walkOut)
			go a.Run(actx)
			if err := s.until(ctx, "chef-a to lead", closed(ledA)); err != nil {
				return nil, fmt.Errorf("%w (does this front desk serve Leases? restaurant.Config.Events)", err)
			}
			s.say("chef-a holds the Lease %s and renews it every %v", name, leaseRetry)
			key := func(h Hold) bool { return h.What == "lease" && h.Name == "chef-b" }
			s.v.gate.HoldOnly(key)
			b, err := elect("chef-b", gatedLease{LeaseClient: leases, g: s.v.gate, id: "chef-b"}, true, ledB)
			if err != nil {
				return nil, err
			}
			bctx, stopB := context.WithCancel(ctx)
			s.cleanup(stopB)
			go b.Run(bctx)
			s.data = ledB
			walkOut()
			s.say("chef-a walks out without a word at rv %s: no more renewals, and the Lease is not released", s.v.r.Server.ResourceVersion())
			return key, nil
		},
		finish: func(ctx context.Context, s *sceneRun) error {
			s.v.gate.Resume()
			err := s.until(ctx, "chef-b to lead", closed(s.data.(chan struct{})))
			if err == nil {
				s.say("chef-b holds the Lease: it cooks now")
			}
			return err
		},
	}
}

// closed returns a condition that holds once c is closed.
func closed(c chan struct{}) func() bool {
	return func() bool {
		select {
		case <-c:
			return true
		default:
			return false
		}
	}
}
