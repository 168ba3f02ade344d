package compare

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	eventsv1client "k8s.io/client-go/kubernetes/typed/events/v1"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
)

// TestManagerEventsV1Recorder: controller-runtime's newer recorder,
// mgr.GetEventRecorder, writes events.k8s.io/v1 Events with client-go's
// tools/events (its typed EventsV1 client, in Kubernetes' protobuf
// envelope). The Event lands: a watch of events.k8s.io/v1 sees it in
// that form, and the same object reads in core/v1, as kubectl get events
// and kubectl describe list it.
func TestManagerEventsV1Recorder(t *testing.T) {
	env := startBuiltinEnv(t, apiservertest.WidgetKind())
	cfg := &rest.Config{Host: env.Config.Host}

	mgr, err := ctrl.NewManager(cfg, ctrl.Options{Metrics: metricsserver.Options{BindAddress: "0"}})
	require.NoError(t, err)
	recorder := mgr.GetEventRecorder("kitchensync.io/painter")
	err = ctrl.NewControllerManagedBy(mgr).For(newWidget()).Named("events-v1-painter").WithOptions(rerunnable).
		Complete(reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			w := newWidget()
			if err := mgr.GetClient().Get(ctx, req.NamespacedName, w); err != nil {
				return reconcile.Result{}, client.IgnoreNotFound(err)
			}
			recorder.Eventf(w, nil, corev1.EventTypeNormal, "Painted", "Paint", "painted %s", w.GetName())
			return reconcile.Result{}, nil
		}))
	require.NoError(t, err)
	startManager(t, mgr)

	// A deadline, not a timing assertion: the watch returns as soon as
	// the Event lands.
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	c, err := client.NewWithWatch(cfg, client.Options{})
	require.NoError(t, err)
	watch, err := c.Watch(ctx, &eventsv1.EventList{}, client.InNamespace("default"),
		client.MatchingFields{"reason": "Painted", "regarding.name": "w"})
	require.NoError(t, err)
	defer watch.Stop()
	w := newWidget()
	w.SetNamespace("default")
	w.SetName("w")
	require.NoError(t, unstructured.SetNestedField(w.Object, "red", "spec", "color"))
	require.NoError(t, c.Create(ctx, w))

	var got *eventsv1.Event
	for ev := range watch.ResultChan() {
		e, ok := ev.Object.(*eventsv1.Event)
		require.True(t, ok, "event %s carries %T", ev.Type, ev.Object)
		got = e
		break
	}
	require.NotNil(t, got, "the watch ended before the recorder's Event landed")
	require.Equal(t, "painted w", got.Note)
	require.Equal(t, "Paint", got.Action)
	require.Equal(t, "kitchensync.io/painter", got.ReportingController)
	require.Equal(t, w.GetUID(), got.Regarding.UID)
	require.False(t, got.EventTime.IsZero())

	// client-go's typed client reads the same Event in protobuf.
	typed, err := eventsv1client.NewForConfig(cfg)
	require.NoError(t, err)
	list, err := typed.Events("default").List(ctx, metav1.ListOptions{FieldSelector: "regarding.name=w"})
	require.NoError(t, err)
	require.Len(t, list.Items, 1)
	require.Equal(t, got.UID, list.Items[0].UID)
	require.Equal(t, "painted w", list.Items[0].Note)

	var core corev1.Event
	require.NoError(t, c.Get(ctx, client.ObjectKey{Namespace: "default", Name: got.Name}, &core))
	require.Equal(t, got.UID, core.UID)
	require.Equal(t, got.ResourceVersion, core.ResourceVersion)
	require.Equal(t, "painted w", core.Message)
	require.Equal(t, "kitchensync.io/painter", core.ReportingController)
	require.Equal(t, "w", core.InvolvedObject.Name)
}
