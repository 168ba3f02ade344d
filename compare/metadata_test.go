package compare

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/metadata/metadatainformer"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/envtest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

var widgetsGVR = schema.GroupVersionResource{Group: apiservertest.Group, Version: apiservertest.Version, Resource: "widgets"}

// jsonOnly is a transport that drops the protobuf forms from every
// Accept header, so that a client that asks for protobuf first (the
// metadata client always does) is answered in JSON.
type jsonOnly struct{ next http.RoundTripper }

func (j jsonOnly) RoundTrip(req *http.Request) (*http.Response, error) {
	var kept []string
	for _, part := range strings.Split(req.Header.Get("Accept"), ",") {
		if !strings.HasPrefix(strings.TrimSpace(part), "application/vnd.kubernetes.protobuf") {
			kept = append(kept, part)
		}
	}
	req = req.Clone(req.Context())
	req.Header.Set("Accept", strings.Join(kept, ","))
	return j.next.RoundTrip(req)
}

// syncCounter counts the requests with which a reflector takes the whole
// state of the widgets again: lists, and watch-lists
// (sendInitialEvents=true), which client-go v0.37 makes instead; and it
// records the Content-Type of
// every successful answer, by "GET" or "WATCH" (failures answer a
// Status, in JSON, as kube-apiserver answers this client's).
type syncCounter struct {
	n  atomic.Int64
	mu sync.Mutex // guards ok
	ok map[string]map[string]bool
}

func (c *syncCounter) wrap(next http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		q, key := req.URL.Query(), req.Method
		if q.Get("watch") == "true" {
			key = "WATCH"
		}
		list := req.Method == http.MethodGet && strings.HasSuffix(req.URL.Path, "/widgets")
		if list && key != "WATCH" || q.Get("sendInitialEvents") == "true" {
			c.n.Add(1)
		}
		resp, err := next.RoundTrip(req)
		if err == nil && resp.StatusCode == http.StatusOK {
			c.mu.Lock()
			if c.ok[key] == nil {
				c.ok[key] = map[string]bool{}
			}
			c.ok[key][resp.Header.Get("Content-Type")] = true
			c.mu.Unlock()
		}
		return resp, err
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// metaCache is what a metadata informer's handler has been told: name →
// resourceVersion, and a channel poked at each notification.
type metaCache struct {
	mu   sync.Mutex
	seen map[string]string
	news chan struct{}
}

// names is what the handler was told, as name@resourceVersion, sorted.
func (c *metaCache) names() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for name, rv := range c.seen {
		out = append(out, name+"@"+rv)
	}
	slices.Sort(out)
	return out
}

func (c *metaCache) tell(obj any, gone bool) {
	if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	m := obj.(*metav1.PartialObjectMetadata)
	c.mu.Lock()
	if gone {
		delete(c.seen, m.Name)
	} else {
		c.seen[m.Name] = m.ResourceVersion
	}
	c.mu.Unlock()
	select {
	case c.news <- struct{}{}:
	default:
	}
}

// waitFor waits until the handler has been told exactly the server's
// widgets w0 to w4 in ns, name and resourceVersion. It reads them with
// gets, which the faults the test injects into lists and watches do not
// touch.
func (c *metaCache) waitFor(ctx context.Context, t *testing.T, srv *apiserver.Server, step string) {
	t.Helper()
	want := map[string]string{}
	for i := range 5 {
		w, err := client.New[*apiservertest.Widget](srv).Namespace("ns").Get(ctx, fmt.Sprintf("w%d", i), meta.GetOptions{})
		if err == nil {
			want[w.Name] = w.ResourceVersion
		} else if !meta.IsNotFound(err) {
			t.Fatal(err)
		}
	}
	for {
		c.mu.Lock()
		got := fmt.Sprint(c.seen)
		c.mu.Unlock()
		if got == fmt.Sprint(want) {
			return
		}
		select {
		case <-c.news:
		case <-ctx.Done():
			t.Fatalf("%s: the metadata informer's handler was told %s, want %v", step, got, want)
		}
	}
}

// TestMetadataInformerUnderFaults runs client-go's metadata informer
// (what controller-runtime's OnlyMetadata watches and the garbage
// collector use) on widgets over HTTP, answered in protobuf (what it asks
// for first) and in JSON, while the server writes, drops every watch,
// fails watches and lists, and compacts its history. After each step its
// handler has been told exactly what the server holds. Plain writes and
// dropped watches cost no list: every watch event decodes (kube-apiserver
// answers PartialObjectMetadata; a server that answered the objects would
// fail every event and be relisted after a backoff).
func TestMetadataInformerUnderFaults(t *testing.T) {
	quietClientGo()
	for _, tc := range []struct {
		name, contentType string
		wrap              func(http.RoundTripper) http.RoundTripper
	}{
		{"protobuf", "application/vnd.kubernetes.protobuf", nil},
		{"json", "application/json", func(rt http.RoundTripper) http.RoundTripper { return jsonOnly{rt} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := envtest.Start(t, envtest.Options{Kinds: []meta.KindInfo{apiservertest.WidgetKind()},
				Server: apiserver.Options{CompactionDropsHistory: true}})
			srv := env.Server
			syncs := &syncCounter{ok: map[string]map[string]bool{}}
			cfg := &rest.Config{Host: env.Config.Host, WrapTransport: func(rt http.RoundTripper) http.RoundTripper {
				if tc.wrap != nil {
					rt = tc.wrap(rt)
				}
				return syncs.wrap(rt)
			}}
			mc, err := metadata.NewForConfig(cfg)
			require.NoError(t, err)
			ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
			defer cancel()
			c := runMetadataInformer(ctx, t, mc)
			widgets := client.New[*apiservertest.Widget](srv).Namespace("ns")

			write := func(i int) {
				name := fmt.Sprintf("w%d", i%5)
				w, err := widgets.Get(ctx, name, meta.GetOptions{})
				switch {
				case meta.IsNotFound(err):
					_, err = widgets.Create(ctx, apiservertest.NewWidget("ns", name), meta.CreateOptions{})
				case err == nil && i%3 == 0:
					err = widgets.Delete(ctx, name, meta.DeleteOptions{})
				case err == nil:
					w.Labels = map[string]string{"n": fmt.Sprint(i)}
					_, err = widgets.Update(ctx, w, meta.UpdateOptions{})
				}
				require.NoError(t, err)
			}
			for i := range 20 {
				write(i)
			}
			c.waitFor(ctx, t, srv, "writes")
			srv.CloseWatches()
			for i := 20; i < 30; i++ {
				write(i)
			}
			c.waitFor(ctx, t, srv, "writes after a dropped watch")
			require.Equal(t, int64(1), syncs.n.Load(), "full syncs: plain writes and a dropped watch need no relist")

			srv.FailNext(apiserver.VerbWatch, 2, meta.NewTooManyRequests("slow down", 1))
			srv.CloseWatches()
			for i := 30; i < 40; i++ {
				write(i)
			}
			c.waitFor(ctx, t, srv, "writes after failed watches")

			srv.FailNext(apiserver.VerbWatch, 2, meta.NewInternalError(errors.New("injected")))
			srv.CloseWatches()
			for i := 40; i < 50; i++ {
				write(i)
			}
			c.waitFor(ctx, t, srv, "writes after failed watches")

			srv.CloseWatches()
			srv.CompactHistory() // the informer's resourceVersion has expired: 410, relist
			for i := 50; i < 60; i++ {
				write(i)
			}
			c.waitFor(ctx, t, srv, "writes after a compaction")

			// The metadata client's own list and get, as a controller's
			// client reads through its cache's misses.
			list, err := mc.Resource(widgetsGVR).Namespace("ns").List(ctx, metav1.ListOptions{})
			require.NoError(t, err)
			var names []string
			for _, item := range list.Items {
				names = append(names, item.Name+"@"+item.ResourceVersion)
			}
			require.Equal(t, c.names(), names)
			one, err := mc.Resource(widgetsGVR).Namespace("ns").Get(ctx, list.Items[0].Name, metav1.GetOptions{})
			require.NoError(t, err)
			require.Equal(t, list.Items[0].UID, one.UID)

			require.Equal(t, map[string]map[string]bool{
				"GET":   {tc.contentType: true},
				"WATCH": {watchContentType(tc.contentType): true},
			}, syncs.ok, "successful answers")
		})
	}
}

func watchContentType(ct string) string {
	if ct == "application/json" {
		return ct
	}
	return ct + ";stream=watch"
}

// runMetadataInformer starts a metadata informer on the widgets of
// namespace ns and waits for it to sync.
func runMetadataInformer(ctx context.Context, t *testing.T, mc metadata.Interface) *metaCache {
	t.Helper()
	inf := metadatainformer.NewFilteredMetadataInformer(mc, widgetsGVR, "ns", 0, cache.Indexers{}, nil).Informer()
	c := &metaCache{seen: map[string]string{}, news: make(chan struct{}, 1)}
	_, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { c.tell(obj, false) },
		UpdateFunc: func(_, obj any) { c.tell(obj, false) },
		DeleteFunc: func(obj any) { c.tell(obj, true) },
	})
	require.NoError(t, err)
	done := make(chan struct{})
	ictx, stop := context.WithCancel(ctx)
	go func() {
		defer close(done)
		inf.RunWithContext(ictx)
	}()
	t.Cleanup(func() {
		stop()
		<-done
	})
	require.True(t, cache.WaitForCacheSync(ctx.Done(), inf.HasSynced))
	require.Empty(t, inf.GetStore().ListKeys())
	return c
}
