package informer

import (
	"context"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/trace"
)

func TestFactorySharesOneInformerPerKind(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := apiservertest.NewServer(t)
		ctx := t.Context()
		if _, err := srv.Resource(apiservertest.GadgetsResource).Create(ctx, apiservertest.NewGadget("g"), meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		f := NewSharedInformerFactory(srv, 0)
		w1 := InformerFor[*widget](f)
		w2 := InformerFor[*widget](f)
		if w1 != w2 {
			t.Fatal("InformerFor returned two informers for one kind")
		}
		g := InformerFor[*apiservertest.Gadget](f)
		f.Start(ctx)
		f.Start(ctx) // idempotent
		got := f.WaitForCacheSync(ctx)
		want := map[meta.GroupVersionResource]bool{apiservertest.WidgetsResource: true, apiservertest.GadgetsResource: true}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("WaitForCacheSync (-want +got):\n%s", diff)
		}
		if _, err := g.Lister().Get("g"); err != nil {
			t.Errorf("Lister().Get(g) = %v", err)
		}
		gr := apiservertest.WidgetsResource.GroupResource()
		if n := srv.RequestCount(apiserver.VerbList, gr); n != 1 {
			t.Errorf("widget lists = %d, want 1 (one informer, started once)", n)
		}
		f.Shutdown()
		f.Start(ctx) // does nothing after Shutdown
		if InformerFor[*widget](f) != w1 {
			t.Error("InformerFor after Shutdown returned another informer")
		}
	})
}

func TestFactoryStartsOnlyWhatWasAskedFor(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := apiservertest.NewServer(t)
		f := NewSharedInformerFactory(srv, 0)
		f.Start(t.Context())
		InformerFor[*widget](f)
		if got := f.WaitForCacheSync(t.Context()); len(got) != 0 {
			t.Errorf("WaitForCacheSync before the second Start = %v, want empty", got)
		}
		f.Start(t.Context())
		if got := f.WaitForCacheSync(t.Context()); !got[apiservertest.WidgetsResource] {
			t.Errorf("WaitForCacheSync = %v, want widgets synced", got)
		}
		f.Shutdown()
	})
}

func TestFactoryNamespaceAndUnregisteredKind(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := apiservertest.NewServer(t)
		ctx := t.Context()
		for _, ns := range []string{"a", "b"} {
			if _, err := srv.Resource(apiservertest.WidgetsResource).Create(ctx, apiservertest.NewWidget(ns, "w"), meta.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		var mu sync.Mutex
		var errs []string
		f := NewSharedInformerFactory(srv, 0, WithNamespace("a"), WithWatchErrorHandler(func(gvr meta.GroupVersionResource, err error) {
			mu.Lock()
			errs = append(errs, gvr.Resource+": "+err.Error())
			mu.Unlock()
		}))
		w := InformerFor[*widget](f)
		bad := InformerFor[*meta.Status](f)
		ctx, cancel := context.WithCancel(ctx)
		f.Start(ctx)
		synctest.Wait()
		if diff := cmp.Diff([]string{"a/w"}, w.GetIndexer().ListKeys()); diff != "" {
			t.Errorf("WithNamespace: cached keys (-want +got):\n%s", diff)
		}
		if bad.HasSynced() {
			t.Error("an informer for an unregistered type synced")
		}
		cancel()
		res := f.WaitForCacheSync(ctx)
		if !res[apiservertest.WidgetsResource] || len(res) != 2 {
			t.Errorf("WaitForCacheSync = %v, want widgets true and the unregistered kind false", res)
		}
		f.Shutdown()
		mu.Lock()
		defer mu.Unlock()
		if len(errs) == 0 || !strings.Contains(errs[0], "no informer for *meta.Status") {
			t.Errorf("errors = %q, want the unregistered kind named", errs)
		}
	})
}

// TestFactoryWithQueue gives every informer of the factory the queue
// asked for: a list goes through a DeltaFIFO as one Replaced delta per
// object, through the default atomic RealFIFO as one ReplacedAll.
func TestFactoryWithQueue(t *testing.T) {
	for _, tc := range []struct {
		opts  []FactoryOption
		kind  QueueKind
		delta string
	}{
		{nil, QueueAtomic, "ReplacedAll"},
		{[]FactoryOption{WithQueue(QueueDeltaFIFO)}, QueueDeltaFIFO, "Replaced"},
	} {
		synctest.Test(t, func(t *testing.T) {
			srv := apiservertest.NewServer(t)
			ctx := t.Context()
			if _, err := srv.Resource(apiservertest.GadgetsResource).Create(ctx, apiservertest.NewGadget("g"), meta.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			tr := trace.New()
			rec := trace.NewRecorder(tr)
			f := NewSharedInformerFactory(srv, 0, append(tc.opts, WithTracer(tr))...)
			g := InformerFor[*apiservertest.Gadget](f)
			if got := g.QueueKind(); got != tc.kind {
				t.Errorf("QueueKind() = %v, want %v", got, tc.kind)
			}
			f.Start(ctx)
			f.WaitForCacheSync(ctx)
			defer f.Shutdown()
			var deltas []string
			for _, r := range rec.Records() {
				if r.Action == trace.DeltaRecorded {
					deltas = append(deltas, r.DeltaType)
				}
			}
			if len(deltas) == 0 || deltas[0] != tc.delta {
				t.Errorf("%v: deltas recorded %v, want the list as %s", tc.kind, deltas, tc.delta)
			}
		})
	}
}
