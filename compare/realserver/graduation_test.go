package realserver

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/rest"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/reconcile"
)

// The graduation test: the library's own informer and controller
// (informer.NewSharedInformerFactory over the HTTP client
// apiserver/rest, reconcile.Controller, reconcile.NewClient) run the
// same convergence test against kitchensync's HTTP front and against a
// real kube-apiserver. A writer creates Widgets, changes the spec of some
// and deletes others; the controller writes status.phase = spec.color
// and status.observedGeneration = metadata.generation through the status
// subresource. The test waits, on the informer's events (no polling),
// until the cache shows every Widget converged, and then checks the
// server's own list against what the writes should leave.

type gradWidget = apiservertest.Widget

// expected is what the writes of graduate leave: name → color and
// generation, for each Widget not deleted.
type expected map[string]struct {
	Color      string
	Generation int64
}

// graduate runs one convergence over cfg in namespace ns with n Widgets,
// and returns how long the writes took to converge.
func graduate(t testing.TB, cfg *rest.Config, ns string, n int) time.Duration {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a bound on failure, not a timing assertion
	defer cancel()
	scheme := apiservertest.NewScheme()
	rc, err := rest.New(cfg, scheme)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.CloseIdleConnections()
	factory := informer.NewSharedInformerFactory(rc, 0, informer.WithNamespace(ns))
	inf := informer.InformerFor[*gradWidget](factory)
	api := client.New[*gradWidget](rc)
	widgets, err := reconcile.NewClient[*gradWidget](rc, inf.GetIndexer())
	if err != nil {
		t.Fatal(err)
	}
	want := wantAfterWrites(n)
	converged := watchConvergence(t, inf, want)
	ctrl, err := reconcile.NewController(fmt.Sprintf("graduation-%s", ns), statusReconciler(widgets),
		reconcile.Options{MaxConcurrentReconciles: 4})
	if err != nil {
		t.Fatal(err)
	}
	if err := reconcile.For(ctrl, inf); err != nil {
		t.Fatal(err)
	}
	factory.Start(ctx)
	defer factory.Shutdown()
	done := make(chan error, 1)
	go func() { done <- ctrl.Start(ctx) }()
	defer func() { cancel(); <-done }()

	start := time.Now()
	write(t, ctx, api.Namespace(ns), n)
	select {
	case <-converged:
	case <-ctx.Done():
		t.Fatalf("%s: not converged: %v", ns, ctx.Err())
	}
	took := time.Since(start)
	checkServer(t, ctx, api.Namespace(ns), want)
	return took
}

// wantAfterWrites is what write leaves: every third Widget blue (its
// spec changed: generation 2), every fifth deleted.
func wantAfterWrites(n int) expected {
	want := expected{}
	for i := range n {
		switch {
		case i%5 == 4:
		case i%3 == 0:
			want[widgetName(i)] = struct {
				Color      string
				Generation int64
			}{"blue", 2}
		default:
			want[widgetName(i)] = struct {
				Color      string
				Generation int64
			}{"red", 1}
		}
	}
	return want
}

func widgetName(i int) string { return fmt.Sprintf("w-%04d", i) }

// write creates n red Widgets, turns every third blue and deletes every
// fifth, each write as soon as the one before is answered.
func write(t testing.TB, ctx context.Context, api *client.Client[*gradWidget], n int) {
	t.Helper()
	for i := range n {
		w := &gradWidget{ObjectMeta: meta.ObjectMeta{Name: widgetName(i)}, Spec: apiservertest.WidgetSpec{Color: "red"}}
		created, err := api.Create(ctx, w, meta.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if i%5 != 4 && i%3 == 0 {
			// The controller may have written status in between: retry on conflict.
			for {
				cur, err := api.Get(ctx, created.Name, meta.GetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				cur.Spec.Color = "blue"
				if _, err = api.Update(ctx, cur, meta.UpdateOptions{}); err == nil {
					break
				} else if !meta.IsConflict(err) {
					t.Fatal(err)
				}
			}
		}
		if i%5 == 4 {
			if err := api.Delete(ctx, created.Name, meta.DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// statusReconciler writes status.phase = spec.color and
// status.observedGeneration = generation, reading from the cache.
func statusReconciler(c *reconcile.Client[*gradWidget]) reconcile.Reconciler {
	return reconcile.ReconcilerFunc(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
		w, err := c.Get(ctx, req.NamespacedName)
		if meta.IsNotFound(err) {
			return reconcile.Result{}, nil
		}
		if err != nil {
			return reconcile.Result{}, err
		}
		if w.Status.Phase == w.Spec.Color && w.Status.ObservedGeneration == w.Generation {
			return reconcile.Result{}, nil
		}
		next := w.DeepCopyObject().(*gradWidget)
		next.Status.Phase, next.Status.ObservedGeneration = w.Spec.Color, w.Generation
		_, err = c.UpdateStatus(ctx, next) // a 409 from a stale cache is retried
		return reconcile.Result{}, err
	})
}

// watchConvergence returns a channel closed the first time the
// informer's cache holds exactly want, each Widget converged.
func watchConvergence(t testing.TB, inf *informer.SharedIndexInformer[*gradWidget], want expected) <-chan struct{} {
	t.Helper()
	ch := make(chan struct{})
	var closed atomic.Bool
	check := func() {
		if closed.Load() || !cacheConverged(inf, want) {
			return
		}
		if closed.CompareAndSwap(false, true) {
			close(ch)
		}
	}
	_, err := inf.AddEventHandler(informer.ResourceEventHandlerFuncs[*gradWidget]{
		AddFunc:    func(*gradWidget, bool) { check() },
		UpdateFunc: func(_, _ *gradWidget) { check() },
		DeleteFunc: func(*gradWidget, bool) { check() },
	})
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

// cacheConverged reports whether the cache holds exactly want's Widgets,
// each with status caught up with its spec.
func cacheConverged(inf *informer.SharedIndexInformer[*gradWidget], want expected) bool {
	items := inf.GetIndexer().List()
	if len(items) != len(want) {
		return false
	}
	for _, w := range items {
		e, ok := want[w.Name]
		if !ok || w.Spec.Color != e.Color || w.Generation != e.Generation ||
			w.Status.Phase != e.Color || w.Status.ObservedGeneration != e.Generation {
			return false
		}
	}
	return true
}

// checkServer lists the Widgets from the server and compares them with
// want: the invariants hold on the server, not only in the cache.
func checkServer(t testing.TB, ctx context.Context, api *client.Client[*gradWidget], want expected) {
	t.Helper()
	list, _, err := api.List(ctx, meta.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := expected{}
	for _, w := range list {
		if w.Status.Phase != w.Spec.Color || w.Status.ObservedGeneration != w.Generation {
			t.Errorf("%s: status %+v does not match spec %+v at generation %d", w.Name, w.Status, w.Spec, w.Generation)
		}
		got[w.Name] = struct {
			Color      string
			Generation int64
		}{w.Spec.Color, w.Generation}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("server's Widgets after convergence (-want +got):\n%s", diff)
	}
}

// kitchensyncConfig serves a fresh kitchensync over HTTP on loopback.
func kitchensyncConfig(t testing.TB) *rest.Config {
	t.Helper()
	ts := httptest.NewServer(httpapi.NewHandler(apiservertest.NewServer(t)))
	t.Cleanup(ts.Close)
	return &rest.Config{Host: ts.URL, QPS: -1}
}

// realConfig is a client configuration for the real server, without a
// rate limit (as kitchensync's), with namespace ns created on it.
func realConfig(t testing.TB, r *real, ns string) *rest.Config {
	t.Helper()
	k, err := rest.LoadKubeconfig(r.kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := k.Config("")
	if err != nil {
		t.Fatal(err)
	}
	cfg.QPS = -1
	createNamespace(t, r, ns)
	return cfg
}

// createNamespace creates namespace ns on the real server.
func createNamespace(t testing.TB, r *real, ns string) {
	t.Helper()
	resp, err := r.client.Post(r.url+"/api/v1/namespaces", "application/json",
		strings.NewReader(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"`+ns+`"}}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create namespace %s: %s", ns, resp.Status)
	}
}

// graduationWidgets is how many Widgets the test writes.
const graduationWidgets = 300

// TestGraduationConvergence runs the convergence test with the library's
// informer and controller against kitchensync and against a real
// kube-apiserver.
func TestGraduationConvergence(t *testing.T) {
	r := startReal(t)
	installCRD(t, r, "widgets.test.kitchensync.io", widgetCRD)
	t.Run("kitchensync", func(t *testing.T) {
		took := graduate(t, kitchensyncConfig(t), "graduation", graduationWidgets)
		t.Logf("kitchensync: %d Widgets converged in %v", graduationWidgets, took)
	})
	t.Run("real", func(t *testing.T) {
		took := graduate(t, realConfig(t, r, "graduation"), "graduation", graduationWidgets)
		t.Logf("real kube-apiserver: %d Widgets converged in %v", graduationWidgets, took)
	})
}

// BenchmarkGraduationConvergence measures the time the library's
// informer and controller take to converge graduationWidgets Widgets
// over HTTP, against each server:
//
//	cd compare && KITCHENSYNC_REAL_APISERVER=1 go test ./realserver/ -run '^$' -bench Graduation -benchtime 3x
func BenchmarkGraduationConvergence(b *testing.B) {
	r := startReal(b)
	installCRD(b, r, "widgets.test.kitchensync.io", widgetCRD)
	for _, target := range []string{"kitchensync", "real"} {
		b.Run(target, func(b *testing.B) {
			var total time.Duration
			i := 0
			for b.Loop() {
				ns := fmt.Sprintf("bench-%d", i)
				i++
				var cfg *rest.Config
				if target == "real" {
					cfg = realConfig(b, r, ns)
				} else {
					cfg = kitchensyncConfig(b)
				}
				total += graduate(b, cfg, ns, graduationWidgets)
			}
			b.ReportMetric(total.Seconds()/float64(i), "s/converge")
			b.ReportMetric(float64(graduationWidgets*i)/total.Seconds(), "widgets/s")
		})
	}
}
