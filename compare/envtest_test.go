package compare

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/envtest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

var widgetGVK = schema.GroupVersionKind{Group: apiservertest.Group, Version: apiservertest.Version, Kind: "Widget"}

func newWidget() *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(widgetGVK)
	return u
}

// TestEnvtestControllerRuntime tests a controller-runtime reconciler the
// way its users test against envtest, with kitchensync's envtest instead:
// no etcd, no kube-apiserver binary. An unmodified Manager runs a
// reconciler that writes each widget's status; the test creates a widget
// and watches until the reconciler has written it.
func TestEnvtestControllerRuntime(t *testing.T) {
	env := envtest.Start(t, envtest.Options{Kinds: []meta.KindInfo{apiservertest.WidgetKind()}})
	cfg := &rest.Config{Host: env.Config.Host}

	mgr, err := ctrl.NewManager(cfg, ctrl.Options{Metrics: metricsserver.Options{BindAddress: "0"}})
	require.NoError(t, err)
	err = ctrl.NewControllerManagedBy(mgr).For(newWidget()).Named("painter").WithOptions(rerunnable).
		Complete(reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			w := newWidget()
			if err := mgr.GetClient().Get(ctx, req.NamespacedName, w); err != nil {
				return reconcile.Result{}, client.IgnoreNotFound(err)
			}
			color, _, _ := unstructured.NestedString(w.Object, "spec", "color")
			if err := unstructured.SetNestedField(w.Object, "painted "+color, "status", "phase"); err != nil {
				return reconcile.Result{}, err
			}
			return reconcile.Result{}, mgr.GetClient().Status().Update(ctx, w)
		}))
	require.NoError(t, err)
	startManager(t, mgr)

	// A deadline, not a timing assertion: the watch below returns as
	// soon as the status is written.
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	c, err := client.NewWithWatch(cfg, client.Options{})
	require.NoError(t, err)
	w := newWidget()
	w.SetNamespace("default")
	w.SetName("w")
	require.NoError(t, unstructured.SetNestedField(w.Object, "red", "spec", "color"))
	require.NoError(t, c.Create(ctx, w))

	list := &unstructured.UnstructuredList{}
	list.SetGroupVersionKind(widgetGVK.GroupVersion().WithKind("WidgetList"))
	watch, err := c.Watch(ctx, list, client.InNamespace("default"), client.MatchingFields{"metadata.name": "w"})
	require.NoError(t, err)
	defer watch.Stop()
	var phase string
	for ev := range watch.ResultChan() {
		u, ok := ev.Object.(*unstructured.Unstructured)
		require.True(t, ok, "event %s carries %T", ev.Type, ev.Object)
		if phase, _, _ = unstructured.NestedString(u.Object, "status", "phase"); phase != "" {
			break
		}
	}
	require.Equal(t, "painted red", phase)
}

// rerunnable lets a test build its named controller again when -count
// runs it again in the same process: controller-runtime remembers every
// controller name for the life of the process and refuses a second one.
var rerunnable = controller.Options{SkipNameValidation: ptr.To(true)}

// startManager runs mgr until the test ends, and waits for it to stop
// before the server's cleanup runs.
func startManager(t *testing.T, mgr ctrl.Manager) {
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	t.Cleanup(func() {
		stop()
		require.NoError(t, <-done)
	})
}

// startBuiltinEnv starts a test environment whose scheme has the built-in
// kinds (Event in both versions, Lease, Namespace) and kinds beside them.
func startBuiltinEnv(t *testing.T, kinds ...meta.KindInfo) *envtest.Environment {
	t.Helper()
	scheme := meta.NewScheme()
	require.NoError(t, builtin.Register(scheme))
	return envtest.Start(t, envtest.Options{Scheme: scheme, Kinds: kinds})
}
