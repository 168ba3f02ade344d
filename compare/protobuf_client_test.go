package compare

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	"github.com/kitchensync/kitchensync/apiserver/builtin"
)

// contentTypes records the Content-Type of every answer client-go gets,
// keyed by method and whether it was a watch.
type contentTypes struct {
	mu   sync.Mutex // guards seen
	seen map[string]map[string]bool
}

// recording is a transport that records into its contentTypes.
type recording struct {
	*contentTypes
	next http.RoundTripper
}

func (c recording) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := c.next.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	key := req.Method
	if req.URL.Query().Get("watch") == "true" {
		key = "WATCH"
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen[key] == nil {
		c.seen[key] = map[string]bool{}
	}
	c.seen[key][resp.Header.Get("Content-Type")] = true
	return resp, nil
}

// TestTypedClientsOverProtobuf: client-go's typed clients, which ask for
// protobuf first, create, list, watch (through a typed informer), update,
// delete and read errors of Leases, Events and Namespaces, and every
// answer they get is in the protobuf envelope: objects, lists, watch
// streams, error Statuses.
func TestTypedClientsOverProtobuf(t *testing.T) {
	quietClientGo()
	env := startBuiltinEnv(t, builtin.NamespaceKind())
	seen := &contentTypes{seen: map[string]map[string]bool{}}
	cfg := &rest.Config{Host: env.Config.Host, WrapTransport: func(rt http.RoundTripper) http.RoundTripper {
		return recording{seen, rt}
	}}
	cs, err := kubernetes.NewForConfig(cfg)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()

	_, err = cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "default"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	namespaces, err := cs.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	require.Len(t, namespaces.Items, 1)
	require.Equal(t, "default", namespaces.Items[0].Name)
	require.NotEmpty(t, namespaces.ResourceVersion)

	leases := watchLeases(ctx, t, cs)
	lc := cs.CoordinationV1().Leases("default")
	lease, err := lc.Create(ctx, &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: "lock"},
		Spec: coordinationv1.LeaseSpec{HolderIdentity: ptr.To("a")}}, metav1.CreateOptions{})
	require.NoError(t, err)
	require.Equal(t, "lock: holder a", <-leases)
	lease.Spec.HolderIdentity = ptr.To("b")
	lease, err = lc.Update(ctx, lease, metav1.UpdateOptions{})
	require.NoError(t, err)
	require.Equal(t, "lock: holder b", <-leases)

	stale := lease.DeepCopy()
	stale.ResourceVersion = "1"
	_, err = lc.Update(ctx, stale, metav1.UpdateOptions{})
	require.True(t, apierrors.IsConflict(err), "%v", err)
	_, err = lc.Get(ctx, "missing", metav1.GetOptions{})
	require.True(t, apierrors.IsNotFound(err), "%v", err)
	require.Equal(t, `leases.coordination.k8s.io "missing" not found`, err.Error())
	require.NoError(t, lc.Delete(ctx, "lock", metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &lease.UID}}))
	require.Equal(t, "lock: deleted", <-leases)

	testEventsOverProtobuf(ctx, t, cs)
	require.Equal(t, map[string]map[string]bool{
		"GET":    {"application/vnd.kubernetes.protobuf": true},
		"POST":   {"application/vnd.kubernetes.protobuf": true},
		"PUT":    {"application/vnd.kubernetes.protobuf": true},
		"DELETE": {"application/vnd.kubernetes.protobuf": true},
		"WATCH":  {"application/vnd.kubernetes.protobuf;stream=watch": true},
	}, seen.snapshot())
}

func (c *contentTypes) snapshot() map[string]map[string]bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]map[string]bool{}
	for k, v := range c.seen {
		out[k] = map[string]bool{}
		for ct := range v {
			out[k][ct] = true
		}
	}
	return out
}

// watchLeases runs a typed Lease informer and returns what its handler
// is told, one line per notification.
func watchLeases(ctx context.Context, t *testing.T, cs kubernetes.Interface) <-chan string {
	factory := informers.NewSharedInformerFactoryWithOptions(cs, 0, informers.WithNamespace("default"))
	inf := factory.Coordination().V1().Leases().Informer()
	out := make(chan string, 10)
	holder := func(obj any) string {
		l := obj.(*coordinationv1.Lease)
		return l.Name + ": holder " + ptr.Deref(l.Spec.HolderIdentity, "")
	}
	_, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { out <- holder(obj) },
		UpdateFunc: func(_, obj any) { out <- holder(obj) },
		DeleteFunc: func(obj any) { out <- obj.(*coordinationv1.Lease).Name + ": deleted" },
	})
	require.NoError(t, err)
	factory.Start(ctx.Done())
	t.Cleanup(factory.Shutdown)
	require.True(t, cache.WaitForCacheSync(ctx.Done(), inf.HasSynced))
	return out
}

// testEventsOverProtobuf lists and watches core/v1 Events with the typed
// client: an Event created after the list arrives on the watch from the
// list's resourceVersion.
func testEventsOverProtobuf(ctx context.Context, t *testing.T, cs kubernetes.Interface) {
	ec := cs.CoreV1().Events("default")
	newEvent := func(name string) *corev1.Event {
		return &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: name},
			InvolvedObject: corev1.ObjectReference{Kind: "Lease", Namespace: "default", Name: "lock"},
			Reason:         "Handed", Message: "handed over " + name, Type: corev1.EventTypeNormal,
			Source: corev1.EventSource{Component: "test"}, Count: 1}
	}
	_, err := ec.Create(ctx, newEvent("first"), metav1.CreateOptions{})
	require.NoError(t, err)
	list, err := ec.List(ctx, metav1.ListOptions{FieldSelector: "reason=Handed"})
	require.NoError(t, err)
	require.Len(t, list.Items, 1)
	require.Equal(t, "handed over first", list.Items[0].Message)

	w, err := ec.Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
	require.NoError(t, err)
	defer w.Stop()
	_, err = ec.Create(ctx, newEvent("second"), metav1.CreateOptions{})
	require.NoError(t, err)
	select {
	case ev := <-w.ResultChan():
		require.Equal(t, watch.Added, ev.Type)
		e, ok := ev.Object.(*corev1.Event)
		require.True(t, ok, "the watch carries %T", ev.Object)
		require.Equal(t, "handed over second", e.Message)
		require.Equal(t, "test", e.Source.Component)
		require.True(t, strings.HasPrefix(e.InvolvedObject.Kind, "Lease"))
	case <-ctx.Done():
		t.Fatal("the Event never came on the watch")
	}
}
