package compare

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	crenvtest "sigs.k8s.io/controller-runtime/pkg/envtest"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kitchensync/kitchensync/apiserver/builtin"
	kclient "github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

var cakeGVK = schema.GroupVersionKind{Group: "bakery.example.com", Version: "v1", Kind: "Cake"}

// TestControllerRuntimeEnvtestCRDs runs an unmodified controller-runtime
// envtest suite against kitchensync: envtest.Environment with
// UseExistingCluster and KUBECONFIG pointing at a kitchensync server
// that knows no kinds. envtest installs the CRDs of
// examples/manifests/crds and the cake story's corrected CRD
// (examples/cakeshop/bakery/crd), waits for them in discovery as it does
// on a real cluster, and a reconciler then bakes a cake: the schema's
// default is filled in, a bad order is refused with the real server's
// message, and the reconciler's status write comes back on a watch.
func TestControllerRuntimeEnvtestCRDs(t *testing.T) {
	// Namespaces, with "default", as a cluster has them: envtest waits
	// for "default" before it installs anything.
	ks := startBuiltinEnv(t, builtin.NamespaceKind())
	_, err := kclient.New[*builtin.Namespace](ks.Server).Create(t.Context(), builtin.NewNamespace("default"), meta.CreateOptions{})
	require.NoError(t, err)
	t.Setenv("KUBECONFIG", ks.Kubeconfig)
	env := &crenvtest.Environment{
		UseExistingCluster:    ptr.To(true),
		CRDDirectoryPaths:     []string{"../examples/manifests/crds", "../examples/cakeshop/bakery/crd"},
		ErrorIfCRDPathMissing: true,
	}
	cfg, err := env.Start()
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, env.Stop()) })
	var names []string
	for _, crd := range env.CRDs {
		names = append(names, crd.Name)
	}
	require.ElementsMatch(t, []string{"cakes.bakery.example.com", "cooks.menu.example.com",
		"dishes.menu.example.com", "orders.menu.example.com"}, names)

	mgr, err := ctrl.NewManager(cfg, ctrl.Options{Metrics: metricsserver.Options{BindAddress: "0"}})
	require.NoError(t, err)
	err = ctrl.NewControllerManagedBy(mgr).For(newCake()).Named("baker").WithOptions(rerunnable).
		Complete(reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			cake := newCake()
			if err := mgr.GetClient().Get(ctx, req.NamespacedName, cake); err != nil {
				return reconcile.Result{}, client.IgnoreNotFound(err)
			}
			if err := unstructured.SetNestedField(cake.Object, "Completed", "status", "phase"); err != nil {
				return reconcile.Result{}, err
			}
			err := unstructured.SetNestedField(cake.Object, cake.GetGeneration(), "status", "observedGeneration")
			if err != nil {
				return reconcile.Result{}, err
			}
			return reconcile.Result{}, mgr.GetClient().Status().Update(ctx, cake)
		}))
	require.NoError(t, err)
	startManager(t, mgr)

	ctx, cancel := context.WithTimeout(t.Context(), time.Minute) // a deadline, not a timing assertion
	defer cancel()
	c, err := client.NewWithWatch(cfg, client.Options{})
	require.NoError(t, err)

	bad := cakeOrder("scribble", map[string]any{"flavor": "durian", "size": int64(30)})
	err = c.Create(ctx, bad)
	require.True(t, apierrors.IsInvalid(err), "a bad order: %v", err)
	require.Equal(t, `Cake.bakery.example.com "scribble" is invalid: [spec.flavor: Unsupported value: "durian": supported values: "double-chocolate", "vanilla", "strawberry", "matcha", "red-velvet", "carrot", `+
		`spec.size: Invalid value: 30: spec.size in body should be less than or equal to 16]`, err.Error())

	cake := cakeOrder("birthday-alice", map[string]any{"flavor": "double-chocolate", "size": int64(8), "layers": int64(2),
		"decoration": "Happy Birthday", "pickupTime": "14:00", "allergies": []any{"nuts"}})
	require.NoError(t, c.Create(ctx, cake))
	complexity, _, _ := unstructured.NestedString(cake.Object, "spec", "decorationComplexity")
	require.Equal(t, "simple", complexity, "the schema's default")

	list := &unstructured.UnstructuredList{}
	list.SetGroupVersionKind(cakeGVK.GroupVersion().WithKind("CakeList"))
	watch, err := c.Watch(ctx, list, client.InNamespace("default"), client.MatchingFields{"metadata.name": "birthday-alice"})
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
	require.Equal(t, "Completed", phase)

	// The restaurant's Order, by its generated CRD's schema.
	order := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "menu.example.com/v1", "kind": "Order",
		"metadata": map[string]any{"name": "table-7", "namespace": "default"},
		"spec":     map[string]any{"table": int64(7), "items": []any{map[string]any{"dish": "soup", "quantity": int64(2)}}}}}
	require.NoError(t, c.Create(ctx, order))
	noTable := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "menu.example.com/v1", "kind": "Order",
		"metadata": map[string]any{"name": "table-x", "namespace": "default"},
		"spec":     map[string]any{"items": []any{}}}}
	err = c.Create(ctx, noTable)
	require.Equal(t, `Order.menu.example.com "table-x" is invalid: spec.table: Required value`, err.Error())

	flavored := &unstructured.UnstructuredList{}
	flavored.SetGroupVersionKind(cakeGVK.GroupVersion().WithKind("CakeList"))
	require.NoError(t, c.List(ctx, flavored, client.InNamespace("default"), client.MatchingFields{"spec.flavor": "double-chocolate"}))
	require.Len(t, flavored.Items, 1, "selectableFields as a field selector")
}

func newCake() *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(cakeGVK)
	return u
}

func cakeOrder(name string, spec map[string]any) *unstructured.Unstructured {
	u := newCake()
	u.SetNamespace("default")
	u.SetName(name)
	u.Object["spec"] = spec
	return u
}
