package compare

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/watch"
	coordinationv1ac "k8s.io/client-go/applyconfigurations/coordination/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/rest/resttest"
)

// TestClientGoNoOpReapply: client-go applies the same configuration twice
// (server-side apply, ApplyPatchType), typed (a Lease, through
// applyconfigurations) and dynamic (a Widget). As on kube-apiserver, the
// second apply, two seconds later, changes nothing: the same
// resourceVersion, the manager's time as it was, and no watch event — a
// watch from the first apply's resourceVersion has nothing once the
// bubble is quiet, and its first event is the change made after the
// re-apply. Inside a synctest bubble, over resttest's in-memory network,
// so that the seconds are virtual.
func TestClientGoNoOpReapply(t *testing.T) {
	quietClientGo()
	t.Run("typed", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			leases := kubernetes.NewForConfigOrDie(noOpServer(t)).CoordinationV1().Leases("default")
			apply := func(holder string) metav1.Object {
				l, err := leases.Apply(t.Context(), coordinationv1ac.Lease("l", "default").
					WithSpec(coordinationv1ac.LeaseSpec().WithHolderIdentity(holder)), metav1.ApplyOptions{FieldManager: "waiter"})
				require.NoError(t, err)
				return l
			}
			checkNoOp(t, apply, func(opts metav1.ListOptions) (watch.Interface, error) { return leases.Watch(t.Context(), opts) })
		})
	})
	t.Run("dynamic", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			widgets := dynamic.NewForConfigOrDie(noOpServer(t)).Resource(widgetGVK.GroupVersion().WithResource("widgets")).Namespace("default")
			apply := func(color string) metav1.Object {
				u := newWidget()
				u.SetName("w")
				require.NoError(t, unstructured.SetNestedField(u.Object, color, "spec", "color"))
				w, err := widgets.Apply(t.Context(), "w", u, metav1.ApplyOptions{FieldManager: "waiter"})
				require.NoError(t, err)
				return w
			}
			checkNoOp(t, apply, func(opts metav1.ListOptions) (watch.Interface, error) { return widgets.Watch(t.Context(), opts) })
		})
	})
}

// noOpServer serves the built-in kinds and Widgets over resttest's
// in-memory network, and returns client-go's config for it.
func noOpServer(t *testing.T) *rest.Config {
	s := meta.NewScheme()
	require.NoError(t, builtin.Register(s))
	require.NoError(t, s.Register(apiservertest.WidgetKind()))
	ts := resttest.NewServer(t, httpapi.NewHandler(apiserver.NewServer(s, apiserver.Options{})))
	return &rest.Config{Host: ts.Config.Host, Dial: ts.Config.Dial}
}

// checkNoOp applies "a", watches from there, applies "a" again (two
// virtual seconds later, so that a restamped manager's time would show)
// and then "b", and checks that the re-apply changed nothing and sent
// nothing.
func checkNoOp(t *testing.T, apply func(string) metav1.Object, watchFrom func(metav1.ListOptions) (watch.Interface, error)) {
	t.Helper()
	first := apply("a")
	w, err := watchFrom(metav1.ListOptions{ResourceVersion: first.GetResourceVersion(), FieldSelector: "metadata.name=" + first.GetName()})
	require.NoError(t, err)
	defer w.Stop()

	time.Sleep(2 * time.Second) // virtual
	again := apply("a")
	require.Equal(t, first.GetResourceVersion(), again.GetResourceVersion(), "the re-apply's resourceVersion")
	require.Len(t, again.GetManagedFields(), 1)
	require.Equal(t, first.GetManagedFields()[0].Time, again.GetManagedFields()[0].Time, "the manager's time after the re-apply")
	synctest.Wait()
	select {
	case ev := <-w.ResultChan():
		t.Fatalf("an event after the re-apply: %s", ev.Type)
	default:
	}

	changed := apply("b")
	require.NotEqual(t, first.GetResourceVersion(), changed.GetResourceVersion())
	ev := <-w.ResultChan()
	got, err := apimeta.Accessor(ev.Object)
	require.NoError(t, err)
	require.Equal(t, watch.Modified, ev.Type)
	require.Equal(t, changed.GetResourceVersion(), got.GetResourceVersion(), "the first event after the first apply")
}
