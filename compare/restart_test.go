package compare

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
)

// swappable serves whichever server is current: a process restarted on
// the same address.
type swappable struct {
	h    atomic.Pointer[http.Handler]
	mu   sync.Mutex
	reqs []string
}

func (s *swappable) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.reqs = append(s.reqs, r.URL.String())
	s.mu.Unlock()
	(*s.h.Load()).ServeHTTP(w, r)
}

func (s *swappable) serve(srv *apiserver.Server) {
	var h http.Handler = httpapi.NewHandler(srv)
	s.h.Store(&h)
}

// clientGoWatcher is client-go's dynamic informer on widgets, telling
// each notification as a line.
type clientGoWatcher struct {
	mu    sync.Mutex
	lines []string
	seen  map[string]string // name → uid, as the notifications told it
	news  chan struct{}
	inf   cache.SharedIndexInformer
}

// tell records a notification about u (gone: a delete).
func (c *clientGoWatcher) tell(u *unstructured.Unstructured, gone bool, format string, args ...any) {
	c.mu.Lock()
	c.lines = append(c.lines, fmt.Sprintf(format, args...))
	if gone {
		delete(c.seen, u.GetName())
	} else {
		c.seen[u.GetName()] = string(u.GetUID())
	}
	c.mu.Unlock()
	select {
	case c.news <- struct{}{}:
	default:
	}
}

func startClientGoWatcher(ctx context.Context, t *testing.T, host string) *clientGoWatcher {
	t.Helper()
	quietClientGo()
	dyn, err := dynamic.NewForConfig(&rest.Config{Host: host})
	if err != nil {
		t.Fatal(err)
	}
	gvr := schema.GroupVersionResource{Group: apiservertest.Group, Version: apiservertest.Version, Resource: "widgets"}
	inf := dynamicinformer.NewFilteredDynamicInformer(dyn, gvr, "ns", 0, cache.Indexers{}, nil).Informer()
	c := &clientGoWatcher{seen: map[string]string{}, news: make(chan struct{}, 1), inf: inf}
	u := func(obj any) *unstructured.Unstructured { return obj.(*unstructured.Unstructured) }
	_, err = inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { c.tell(u(obj), false, "add %s", u(obj).GetName()) },
		UpdateFunc: func(_, obj any) { c.tell(u(obj), false, "update %s", u(obj).GetName()) },
		DeleteFunc: func(obj any) {
			if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				c.tell(u(tomb.Obj), true, "delete %s (tombstone)", u(tomb.Obj).GetName())
				return
			}
			c.tell(u(obj), true, "delete %s", u(obj).GetName())
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	go inf.Run(ctx.Done())
	if !cache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
		t.Fatal("client-go's informer never synced")
	}
	return c
}

// waitFor waits until the notifications have told exactly want
// (name/uid): the handler's view, which lags the informer's store. It
// returns the lines told so far, sorted (client-go hands a list's items to
// handlers in no fixed order).
func (c *clientGoWatcher) waitFor(ctx context.Context, t *testing.T, want []string) []string {
	t.Helper()
	for {
		c.mu.Lock()
		var got []string
		for name, uid := range c.seen {
			got = append(got, name+"/"+uid)
		}
		lines := slices.Clone(c.lines)
		c.mu.Unlock()
		slices.Sort(got)
		if slices.Equal(got, want) {
			slices.Sort(lines)
			return lines
		}
		select {
		case <-c.news:
		case <-ctx.Done():
			t.Fatalf("client-go's handler was told %v, want %v", got, want)
		}
	}
}

// contents lists a server's widgets as name/uid, sorted.
func contents(t *testing.T, srv *apiserver.Server) []string {
	t.Helper()
	list, _, err := client.New[*apiservertest.Widget](srv).List(context.Background(), meta.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, w := range list {
		out = append(out, w.Name+"/"+string(w.UID))
	}
	slices.Sort(out)
	return out
}

func createWidget(t *testing.T, srv *apiserver.Server, name string) {
	t.Helper()
	_, err := client.New[*apiservertest.Widget](srv).Namespace("ns").
		Create(context.Background(), apiservertest.NewWidget("ns", name), meta.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
}

// A server restarted without its data, but above every resourceVersion
// the old one gave out: client-go's informer gets 410 on its next watch,
// lists again and ends with the new state, with a tombstone for what
// vanished and an update for a name that came back with a new uid.
func TestClientGoInformerAfterAFreshRestart(t *testing.T) {
	front := &swappable{}
	hs := httptest.NewServer(front)
	defer hs.Close() // after the informer stops (defers run last first)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	old := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{})
	createWidget(t, old, "a")
	createWidget(t, old, "b")
	front.serve(old)
	c := startClientGoWatcher(ctx, t, hs.URL)
	c.waitFor(ctx, t, contents(t, old))

	restarted := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{ResourceVersionStart: apiserver.ResourceVersionFromClock(time.Now())})
	createWidget(t, restarted, "a")
	createWidget(t, restarted, "c")
	front.serve(restarted)
	old.CloseWatches() // the old process is gone
	lines := c.waitFor(ctx, t, contents(t, restarted))
	want := []string{"add a", "add b", "add c", "delete b (tombstone)", "update a"}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("client-go's notifications (-want +got):\n%s", diff)
	}
}

// A durable server restarted on its data directory: the same objects at
// the same resourceVersions, so client-go's informer watches on from
// where it was, without a list, and hears the next write.
func TestClientGoInformerAfterADurableRestart(t *testing.T) {
	front := &swappable{}
	hs := httptest.NewServer(front)
	defer hs.Close() // after the informer stops (defers run last first)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	dir := t.TempDir()
	old, err := apiserver.Open(apiservertest.NewScheme(), dir, apiserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	createWidget(t, old, "a")
	createWidget(t, old, "b")
	front.serve(old)
	c := startClientGoWatcher(ctx, t, hs.URL)
	c.waitFor(ctx, t, contents(t, old))

	old.Close() // no more writes; its watches end below, once the new one serves
	restarted, err := apiserver.Open(apiservertest.NewScheme(), dir, apiserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer restarted.Close()
	front.serve(restarted)
	old.CloseWatches()
	createWidget(t, restarted, "c")
	lines := c.waitFor(ctx, t, contents(t, restarted))
	// client-go (in watch-list mode, its default) asks for the initial
	// events again when it re-watches, from its last resourceVersion: it
	// tells them as updates of what it has. No delete, no 410, no list.
	lines = slices.DeleteFunc(lines, func(l string) bool { return l == "update a" || l == "update b" })
	if diff := cmp.Diff([]string{"add a", "add b", "add c"}, lines); diff != "" {
		t.Errorf("client-go's notifications, updates of a and b left out (-want +got):\n%s", diff)
	}
	front.mu.Lock()
	defer front.mu.Unlock()
	if last := front.reqs[len(front.reqs)-1]; !strings.Contains(last, "resourceVersion=3&") {
		t.Errorf("client-go's last request was %s, want a watch from resourceVersion 3, where it was", last)
	}
}
