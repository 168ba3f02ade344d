package compare

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Short lease timings for the handover tests: controller-runtime passes
// them to client-go's elector unchanged. The renew deadline leaves the
// leader room to renew on a loaded machine; the lease duration is what a
// successor waits after the last renewal it saw.
var (
	handoverLeaseDuration = 3 * time.Second
	handoverRenewDeadline = 2 * time.Second
	handoverRetryPeriod   = 250 * time.Millisecond
)

// TestManagerLeaseHandover: two unmodified controller-runtime Managers
// compete for one Lease. The first is elected; when it stops, the second
// takes over, and the Lease's history shows it. With
// LeaderElectionReleaseOnCancel the first hands the Lease back (holder
// cleared) and the second takes it at its next retry; without, the
// second waits until the lease has expired: its acquireTime is at least a
// lease duration after the first holder's last renewal.
//
// Every wait is on an event (a manager's Elected channel, the Lease's
// watch), bounded only by the test's deadline.
func TestManagerLeaseHandover(t *testing.T) {
	for _, tc := range []struct {
		name    string
		release bool
	}{
		{name: "lease expires", release: false},
		{name: "leader releases", release: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testManagerLeaseHandover(t, tc.release)
		})
	}
}

func testManagerLeaseHandover(t *testing.T, release bool) {
	env := startBuiltinEnv(t)
	cfg := &rest.Config{Host: env.Config.Host}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	leases := env.Server.Resource(builtin.LeasesResource).Namespace("default")
	history, err := leases.Watch(ctx, meta.ListOptions{})
	require.NoError(t, err)
	defer history.Stop()

	first := newElectingManager(t, cfg, release)
	stopFirst := runManager(first)
	awaitElected(ctx, t, first, "first")
	firstHolder := nextHolder(ctx, t, history, func(l *builtin.Lease) bool { return holderOf(l) != "" })
	second := newElectingManager(t, cfg, release)
	stopSecond := runManager(second)
	t.Cleanup(func() { require.NoError(t, stopSecond()) })
	select {
	case <-second.Elected():
		t.Fatal("the second manager was elected while the first held the lease")
	default:
	}

	lastRenewal := firstHolder.Spec.RenewTime.Time
	require.NoError(t, stopFirst())
	awaitElected(ctx, t, second, "second")
	var holders []string
	taken := nextHolder(ctx, t, history, func(l *builtin.Lease) bool {
		if holderOf(l) == holderOf(firstHolder) {
			lastRenewal = l.Spec.RenewTime.Time
			return false
		}
		holders = append(holders, holderOf(l))
		return holderOf(l) != ""
	})

	require.NotEqual(t, holderOf(firstHolder), holderOf(taken))
	require.NotNil(t, taken.Spec.LeaseTransitions)
	require.Equal(t, int32(1), *taken.Spec.LeaseTransitions, "one change of holder")
	require.Equal(t, int32(handoverLeaseDuration/time.Second), *taken.Spec.LeaseDurationSeconds)
	if release {
		// client-go's release writes an empty holder, which the
		// successor may take at once.
		require.Equal(t, []string{"", holderOf(taken)}, holders)
		return
	}
	require.Equal(t, []string{holderOf(taken)}, holders, "the holder changes without a release")
	waited := taken.Spec.AcquireTime.Sub(lastRenewal)
	require.GreaterOrEqual(t, waited, handoverLeaseDuration,
		"the second manager took the lease %s after the first's last renewal", waited)
}

func newElectingManager(t *testing.T, cfg *rest.Config, release bool) ctrl.Manager {
	t.Helper()
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Metrics:                       metricsserver.Options{BindAddress: "0"},
		LeaderElection:                true,
		LeaderElectionID:              "handover-lock",
		LeaderElectionNamespace:       "default",
		LeaderElectionReleaseOnCancel: release,
		LeaseDuration:                 &handoverLeaseDuration,
		RenewDeadline:                 &handoverRenewDeadline,
		RetryPeriod:                   &handoverRetryPeriod,
	})
	require.NoError(t, err)
	return mgr
}

// runManager starts mgr and returns the function that stops it and
// reports what Start returned.
func runManager(mgr ctrl.Manager) func() error {
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	return func() error {
		stop()
		return <-done
	}
}

func awaitElected(ctx context.Context, t *testing.T, mgr ctrl.Manager, which string) {
	t.Helper()
	select {
	case <-mgr.Elected():
	case <-ctx.Done():
		t.Fatalf("the %s manager was never elected", which)
	}
}

// nextHolder reads the Lease's watch until done accepts a state of it,
// and returns that state.
func nextHolder(ctx context.Context, t *testing.T, w meta.WatchInterface, done func(*builtin.Lease) bool) *builtin.Lease {
	t.Helper()
	for {
		select {
		case ev, ok := <-w.ResultChan():
			require.True(t, ok, "the Lease watch ended")
			l, isLease := ev.Object.(*builtin.Lease)
			require.True(t, isLease, "watch event %s carries %T", ev.Type, ev.Object)
			if done(l) {
				return l
			}
		case <-ctx.Done():
			t.Fatal("the Lease never reached the awaited state")
		}
	}
}

func holderOf(l *builtin.Lease) string {
	if l.Spec.HolderIdentity == nil {
		return ""
	}
	return *l.Spec.HolderIdentity
}
