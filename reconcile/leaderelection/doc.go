// Package leaderelection runs code in only one of several copies of a
// program at a time, by holding a coordination.k8s.io/v1 Lease
// ([builtin.Lease]) with client-go's leader-election semantics.
//
// In the kitchen, two chefs may stand ready, but only the one wearing the
// hat runs the pass. The hat hangs on a hook (the Lease); the wearer shows
// it every RetryPeriod (renews it). If the hook's record has not changed
// for LeaseDuration, as a waiting chef sees it on his own clock, the hat
// is taken to be free and he puts it on. A chef who cannot show his hat
// within RenewDeadline takes it off himself: he stops cooking before
// anyone else could start.
//
// # Semantics
//
//   - Acquire: create the Lease, or update it when it has no holder or its
//     record has not changed for LeaseDuration on the candidate's clock
//     (never comparing clocks across machines); the update is guarded by
//     resourceVersion, so two candidates cannot both win.
//   - Renew: the leader updates renewTime every RetryPeriod; if no renewal
//     succeeds for RenewDeadline, it stops leading (OnStoppedLeading) and
//     [LeaderElector.Run] returns. RenewDeadline < LeaseDuration is what
//     keeps two leaders from overlapping.
//   - Transitions: leaseTransitions counts changes of holder; acquireTime
//     is when the current holder took it.
//   - Release: with ReleaseOnCancel, a leader whose context ends clears
//     holderIdentity (leaseDurationSeconds 1), so a successor need not wait.
//
// The lock talks to the API through [LeaseClient], which
// *apiserver.ResourceClient (in process) and *rest.ResourceClient (over
// HTTP) both satisfy, so the same elector runs beside the server or in
// another process. Like client-go, a candidate retries acquiring after
// RetryPeriod with up to 1.2× jitter.
//
// # Controllers that wait their turn
//
// A controller can stand by warm: with reconcile.Options.Elected it
// starts its informers and syncs its caches at once but runs no worker
// until the channel is closed. Close it in OnStartedLeading and end the
// controller's context when leadership ends (OnStartedLeading's context),
// as controller-runtime's manager does. examples/chef runs a whole
// kitchen per term of leadership instead.
package leaderelection
