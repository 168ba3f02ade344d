package compare

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/informer"
	"k8s.io/client-go/tools/cache"

	"github.com/kitchensync/kitchensync/compare/internal/adapt"
	"github.com/kitchensync/kitchensync/compare/internal/ops"
)

// resyncCase is an informer default resync period and the handlers'
// own periods (-1: AddEventHandler, i.e. the default), the last one
// added 5 s after the start.
type resyncCase struct {
	name     string
	dflt     time.Duration
	handlers []time.Duration
}

// TestInformerResyncMatchesClientGo compares periodic resyncs: which
// handler gets the re-delivered objects (OnUpdate with old == new) and
// when, over 95 s of virtual time with one real update in the middle, for
// default and per-handler periods, periods below the check period, and a
// handler added after the start. Each handler's calls are compared per key
// and stamped with the second they arrived in.
func TestInformerResyncMatchesClientGo(t *testing.T) {
	quietClientGo()
	cases := []resyncCase{
		{"default-10s", 10 * time.Second, []time.Duration{-1, -1}},
		{"per-handler", 10 * time.Second, []time.Duration{-1, 25 * time.Second, 0, 3 * time.Second}},
		{"no-default", 0, []time.Duration{-1, 7 * time.Second, 20 * time.Second}},
		{"short-first", 4 * time.Second, []time.Duration{15 * time.Second, 0, 2 * time.Second}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var ks, cg []map[string][]string
			synctest.Test(t, func(t *testing.T) { ks, cg = runResync(t, c) })
			if diff := cmp.Diff(cg, ks); diff != "" {
				t.Fatalf("handler calls differ (-client-go +kitchensync):\n%s", diff)
			}
		})
	}
}

func runResync(t *testing.T, c resyncCase) (ks, cg []map[string][]string) {
	srv := apiservertest.NewServer(t)
	rc := srv.Resource(apiservertest.WidgetsResource)
	ctx, cancel := context.WithCancel(context.Background())
	objs := []ops.Object{{Namespace: "hall", Name: "a"}, {Namespace: "hall", Name: "b"}}
	for _, o := range objs {
		write(ctx, rc, ops.InformerOp{Kind: ops.WCreate, Obj: o})
	}
	start := time.Now()
	ksInf := informer.NewSharedIndexInformer[*apiservertest.Widget](rc, informer.Options[*apiservertest.Widget]{ResyncPeriod: c.dflt, WatchErrorHandler: func(error) {}})
	cgInf := cache.NewSharedIndexInformer(adapt.ClientGoListWatch(rc), &adapt.Widget{}, c.dflt, cache.Indexers{})
	ksH, cgH := make([]*history, len(c.handlers)), make([]*history, len(c.handlers))
	add := func(i int) {
		ksH[i], cgH[i] = &history{start: start}, &history{start: start}
		kh, ch := ksHandler(ksH[i]), cgHandler{cgH[i]}
		var err1, err2 error
		if p := c.handlers[i]; p < 0 {
			_, err1 = ksInf.AddEventHandler(kh)
			_, err2 = cgInf.AddEventHandler(ch)
		} else {
			_, err1 = ksInf.AddEventHandlerWithResyncPeriod(kh, p)
			_, err2 = cgInf.AddEventHandlerWithResyncPeriod(ch, p)
		}
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
	}
	last := len(c.handlers) - 1
	for i := range last {
		add(i)
	}
	var wg sync.WaitGroup
	wg.Go(func() { ksInf.Run(ctx) })
	wg.Go(func() { cgInf.RunWithContext(ctx) })
	for s := 1; s <= 95; s++ {
		time.Sleep(time.Second - time.Millisecond)
		synctest.Wait()
		time.Sleep(time.Millisecond)
		switch s {
		case 5:
			add(last)
		case 37:
			write(ctx, rc, ops.InformerOp{Kind: ops.WUpdate, Obj: ops.Object{Namespace: "hall", Name: "a", Color: "red"}})
		}
	}
	synctest.Wait()
	for i := range c.handlers {
		ks = append(ks, splitKeys(ksH[i].get()))
		cg = append(cg, splitKeys(cgH[i].get()))
	}
	cancel()
	wg.Wait()
	return ks, cg
}

// splitKeys groups a history by key, keeping every call.
func splitKeys(lines []string) map[string][]string {
	out := map[string][]string{}
	for _, l := range lines {
		var at, verb, key string
		fmt.Sscanf(l, "%s %s %s", &at, &verb, &key)
		out[key] = append(out[key], l)
	}
	return out
}
