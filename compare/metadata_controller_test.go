package compare

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	crclient "sigs.k8s.io/controller-runtime/pkg/client"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/envtest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// TestControllerRuntimeOnlyMetadata runs a controller-runtime controller
// that watches widgets with builder.OnlyMetadata: its cache holds
// PartialObjectMetadata from a metadata informer, and its reconciler
// reads from that cache and marks each widget with an annotation through
// the metadata client. Every widget is marked, those created after the
// server dropped every watch too, and the informer never takes the whole
// state again after its first sync: every watch event decodes.
func TestControllerRuntimeOnlyMetadata(t *testing.T) {
	quietClientGo()
	env := envtest.Start(t, envtest.Options{Kinds: []meta.KindInfo{apiservertest.WidgetKind()}})
	syncs := &syncCounter{ok: map[string]map[string]bool{}}
	cfg := &rest.Config{Host: env.Config.Host, WrapTransport: func(rt http.RoundTripper) http.RoundTripper { return syncs.wrap(rt) }}
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{Metrics: metricsserver.Options{BindAddress: "0"}})
	require.NoError(t, err)

	var mu sync.Mutex
	reconciled := map[string]int{}
	err = ctrl.NewControllerManagedBy(mgr).For(newWidget(), builder.OnlyMetadata).Named("marker").WithOptions(rerunnable).
		Complete(reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			w := &metav1.PartialObjectMetadata{}
			w.SetGroupVersionKind(widgetGVK)
			if err := mgr.GetClient().Get(ctx, req.NamespacedName, w); err != nil {
				return reconcile.Result{}, crclient.IgnoreNotFound(err)
			}
			mu.Lock()
			reconciled[req.Name]++
			mu.Unlock()
			if w.Annotations["marked"] == "yes" {
				return reconcile.Result{}, nil
			}
			patch := crclient.MergeFrom(w.DeepCopy())
			w.SetAnnotations(map[string]string{"marked": "yes"})
			return reconcile.Result{}, mgr.GetClient().Patch(ctx, w, patch)
		}))
	require.NoError(t, err)
	startManager(t, mgr)

	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	require.True(t, mgr.GetCache().WaitForCacheSync(ctx))
	widgets := client.New[*apiservertest.Widget](env.Server).Namespace("default")
	create := func(name string) {
		_, err := widgets.Create(ctx, apiservertest.NewWidget("default", name), meta.CreateOptions{})
		require.NoError(t, err)
	}
	marked := func(names ...string) {
		t.Helper()
		w, err := widgets.Watch(ctx, meta.ListOptions{})
		require.NoError(t, err)
		defer w.Stop()
		seen := map[string]bool{}
		for ev := range w.ResultChan() {
			seen[ev.Object.GetObjectMeta().Name] = ev.Object.GetObjectMeta().Annotations["marked"] == "yes"
			if !slices.ContainsFunc(names, func(n string) bool { return !seen[n] }) {
				return
			}
		}
		t.Fatalf("widgets marked: %v, want all of %v", seen, names)
	}
	for i := range 3 {
		create(fmt.Sprintf("a%d", i))
	}
	marked("a0", "a1", "a2")
	env.Server.CloseWatches()
	for i := range 3 {
		create(fmt.Sprintf("b%d", i))
	}
	marked("a0", "a1", "a2", "b0", "b1", "b2")

	// The cache serves the metadata: a get from it for a key it holds.
	cached := &metav1.PartialObjectMetadata{}
	cached.SetGroupVersionKind(widgetGVK)
	require.NoError(t, mgr.GetCache().Get(ctx, types.NamespacedName{Namespace: "default", Name: "a0"}, cached))
	require.Equal(t, "yes", cached.Annotations["marked"])
	require.Equal(t, int64(1), syncs.n.Load(), "full syncs of the widgets: only the first")
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, reconciled, 6)
}
