package compare

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// TestManagerLeaderElectionAndEvents: an unmodified controller-runtime
// Manager with leader election gets elected against the server (its
// client-go clients write the Lease in Kubernetes' protobuf envelope),
// runs its reconciler, and the Events its recorder sends land.
func TestManagerLeaderElectionAndEvents(t *testing.T) {
	env := startBuiltinEnv(t, apiservertest.WidgetKind())
	cfg := &rest.Config{Host: env.Config.Host}

	mgr, err := ctrl.NewManager(cfg, ctrl.Options{Metrics: metricsserver.Options{BindAddress: "0"},
		LeaderElection: true, LeaderElectionID: "painter-lock", LeaderElectionNamespace: "default"})
	require.NoError(t, err)
	// This older recorder writes core/v1 Events; the newer GetEventRecorder
	// writes events.k8s.io/v1 (see TestManagerEventsV1Recorder).
	//lint:ignore SA1019 the older recorder is the one under test here
	recorder := mgr.GetEventRecorderFor("painter")
	reconciled := make(chan string, 10)
	err = ctrl.NewControllerManagedBy(mgr).For(newWidget()).Named("elected-painter").WithOptions(rerunnable).
		Complete(reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			w := newWidget()
			if err := mgr.GetClient().Get(ctx, req.NamespacedName, w); err != nil {
				return reconcile.Result{}, client.IgnoreNotFound(err)
			}
			recorder.Event(w, corev1.EventTypeNormal, "Painted", "painted "+w.GetName())
			reconciled <- req.Name
			return reconcile.Result{}, nil
		}))
	require.NoError(t, err)
	startManager(t, mgr)

	// Deadlines, not timing assertions: each wait ends as soon as what
	// it waits for happens.
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	select {
	case <-mgr.Elected():
	case <-ctx.Done():
		t.Fatal("the manager was never elected")
	}
	lease, err := env.Server.Resource(builtin.LeasesResource).Namespace("default").Get(ctx, "painter-lock", meta.GetOptions{})
	require.NoError(t, err)
	holder := lease.(*builtin.Lease).Spec.HolderIdentity
	require.NotNil(t, holder)
	require.NotEmpty(t, *holder)

	c, err := client.NewWithWatch(cfg, client.Options{})
	require.NoError(t, err)
	w := newWidget()
	w.SetNamespace("default")
	w.SetName("w")
	require.NoError(t, unstructured.SetNestedField(w.Object, "red", "spec", "color"))
	require.NoError(t, c.Create(ctx, w))
	select {
	case name := <-reconciled:
		require.Equal(t, "w", name)
	case <-ctx.Done():
		t.Fatal("the reconciler never ran")
	}

	watch, err := c.Watch(ctx, &corev1.EventList{}, client.InNamespace("default"),
		client.MatchingFields{"reason": "Painted"})
	require.NoError(t, err)
	defer watch.Stop()
	for ev := range watch.ResultChan() {
		e, ok := ev.Object.(*corev1.Event)
		require.True(t, ok, "event %s carries %T", ev.Type, ev.Object)
		require.Equal(t, "w", e.InvolvedObject.Name)
		require.Equal(t, "painted w", e.Message)
		require.Equal(t, "painter", e.Source.Component)
		return
	}
	t.Fatal("the watch ended before the recorder's Event landed")
}
