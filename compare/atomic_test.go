package compare

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"k8s.io/client-go/features"
	"k8s.io/client-go/tools/cache"

	"github.com/kitchensync/kitchensync/compare/internal/adapt"
)

// This file compares kitchensync's informer behind its default queue
// with client-go v0.37's default informer (AtomicFIFO on), and behind
// QueueInOrder with client-go's informer with the AtomicFIFO gate off:
// both fed the same scripted list and watch — lists, watch events,
// bookmarks, clean closes, 410 and relists with changes missed — and
// compared after every step: the whole sequence of handler calls, the
// cache, LastStoreSyncResourceVersion and HasSynced.

// overrideGates are client-go's feature gates with some set by a test.
type overrideGates struct {
	base features.Gates
	set  map[features.Feature]bool
}

func (g overrideGates) Enabled(key features.Feature) bool {
	if v, ok := g.set[key]; ok {
		return v
	}
	return g.base.Enabled(key)
}

// withGates sets client-go's feature gates for the rest of the test.
// Tests that use it must not run in parallel.
func withGates(t *testing.T, set map[features.Feature]bool) {
	base := features.FeatureGates()
	features.ReplaceFeatureGates(overrideGates{base: base, set: set})
	t.Cleanup(func() { features.ReplaceFeatureGates(base) })
}

// chanWatch is a watch whose events the test sends.
type chanWatch struct {
	ch     chan meta.Event
	closed sync.Once
}

func (w *chanWatch) ResultChan() <-chan meta.Event { return w.ch }
func (w *chanWatch) Stop()                         { w.close() }
func (w *chanWatch) close()                        { w.closed.Do(func() { close(w.ch) }) }

// scriptLW serves one informer: lists from a queue the test fills, and
// watches whose events the test sends.
type scriptLW struct {
	lists chan *meta.List // the answers to the next List calls
	mu    sync.Mutex      // guards cur and calls
	cur   *chanWatch
	calls []string
}

func newScriptLW() *scriptLW { return &scriptLW{lists: make(chan *meta.List, 100)} }

func (lw *scriptLW) List(ctx context.Context, opts meta.ListOptions) (*meta.List, error) {
	lw.mu.Lock()
	lw.calls = append(lw.calls, fmt.Sprintf("list rv=%q", opts.ResourceVersion))
	lw.mu.Unlock()
	select {
	case l := <-lw.lists:
		return l, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (lw *scriptLW) Watch(_ context.Context, opts meta.ListOptions) (meta.WatchInterface, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	lw.calls = append(lw.calls, fmt.Sprintf("watch rv=%q", opts.ResourceVersion))
	lw.cur = &chanWatch{ch: make(chan meta.Event)}
	return lw.cur, nil
}

func (lw *scriptLW) watch() *chanWatch {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.cur
}

// atomicStep is one step of a script, played on both sides.
type atomicStep struct {
	kind  string // "list", "event", "close", "expire"
	list  []string
	rv    string // the list's, or a bookmark's
	typ   meta.EventType
	name  string
	objRV string
}

func (s atomicStep) String() string {
	switch s.kind {
	case "list", "expire":
		return fmt.Sprintf("%s: list at %s %v", s.kind, s.rv, s.list)
	case "event":
		return fmt.Sprintf("%s %s@%s", s.typ, s.name, s.objRV)
	}
	return s.kind
}

// widgetAt is widget ns/name at resourceVersion rv.
func widgetAt(name, rv string) *apiservertest.Widget {
	w := apiservertest.NewWidget("ns", name)
	w.ResourceVersion = rv
	return w
}

func listOf(rv string, objs []string) *meta.List {
	l := &meta.List{ListMeta: meta.ListMeta{ResourceVersion: rv}}
	for _, o := range objs {
		name, orv, _ := strings.Cut(o, "@")
		l.Items = append(l.Items, widgetAt(name, orv))
	}
	return l
}

// play applies one step to one side. Call inside the bubble.
func (s atomicStep) play(lw *scriptLW) {
	switch s.kind {
	case "list":
		lw.lists <- listOf(s.rv, s.list)
	case "event":
		obj := widgetAt(s.name, s.objRV)
		lw.watch().ch <- meta.Event{Type: s.typ, Object: obj}
	case "close":
		lw.watch().close()
	case "expire": // the relist is queued first, then the 410 ends the watch
		lw.lists <- listOf(s.rv, s.list)
		st := meta.NewResourceExpired("too old resource version").Status()
		lw.watch().ch <- meta.Event{Type: meta.EventError, Object: st}
	}
}

// atomicSide is what one informer shows after a step.
type atomicSide struct {
	Calls  []string
	Cache  []string
	RV     string
	Synced bool
}

// sortTombstoneRuns sorts each run of consecutive relist tombstones:
// client-go reports them in the map order of its cache's keys,
// kitchensync in key order.
func sortTombstoneRuns(lines []string) []string {
	out := slices.Clone(lines)
	for i := 0; i < len(out); {
		j := i
		for j < len(out) && strings.HasSuffix(out[j], "tombstone=true") {
			j++
		}
		slices.Sort(out[i:j])
		i = max(j, i+1)
	}
	return out
}

// runAtomicScript plays steps on kitchensync's informer with queue and
// client-go's with the AtomicFIFO gate as atomic, and compares them
// after every step. Inside a bubble.
func runAtomicScript(t *testing.T, queue informer.QueueKind, steps []atomicStep) {
	ksLW, cgLW := newScriptLW(), newScriptLW()
	ksInf := informer.NewSharedIndexInformer[*apiservertest.Widget](ksLW, informer.Options[*apiservertest.Widget]{
		Queue: queue, WatchErrorHandler: func(error) {}})
	cgInf := cache.NewSharedIndexInformer(adapt.ClientGoListWatch(cgLW), &adapt.Widget{}, 0, cache.Indexers{})
	ksH, cgH := &history{}, &history{}
	if _, err := ksInf.AddEventHandler(ksHandler(ksH)); err != nil {
		t.Fatal(err)
	}
	if _, err := cgInf.AddEventHandler(cgHandler{cgH}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
	}()
	wg.Go(func() { ksInf.Run(ctx) })
	wg.Go(func() { cgInf.RunWithContext(ctx) })
	for i, s := range steps {
		for _, lw := range []*scriptLW{ksLW, cgLW} {
			s.play(lw)
		}
		time.Sleep(time.Minute) // past any backoff
		synctest.Wait()
		ks := atomicSide{Calls: sortTombstoneRuns(ksH.get()), RV: ksInf.GetIndexer().LastStoreSyncResourceVersion(), Synced: ksInf.HasSynced()}
		cg := atomicSide{Calls: sortTombstoneRuns(cgH.get()), RV: cgInf.GetStore().LastStoreSyncResourceVersion(), Synced: cgInf.HasSynced()}
		for _, w := range ksInf.GetIndexer().List() {
			ks.Cache = append(ks.Cache, cacheLine(adapt.SummarizeKS(w)))
		}
		for _, obj := range cgInf.GetStore().List() {
			cg.Cache = append(cg.Cache, cacheLine(adapt.SummarizeCG(obj)))
		}
		slices.Sort(ks.Cache)
		slices.Sort(cg.Cache)
		if diff := cmp.Diff(cg, ks); diff != "" {
			t.Fatalf("after step %d (%s): differs (-client-go +kitchensync):\n%s\nsteps:\n%s\nclient-go calls: %q\nkitchensync calls: %q",
				i, s, diff, formatSteps(steps[:i+1]), cgLW.calls, ksLW.calls)
		}
	}
}

func formatSteps(steps []atomicStep) string {
	var b strings.Builder
	for i, s := range steps {
		fmt.Fprintf(&b, "  %d: %s\n", i, s)
	}
	return b.String()
}

// gateModes pairs each client-go AtomicFIFO setting with the kitchensync
// queue that should behave the same.
var gateModes = []struct {
	name   string
	atomic bool
	queue  informer.QueueKind
}{
	{"AtomicFIFO-on/QueueAtomic", true, informer.QueueAtomic},
	{"AtomicFIFO-off/QueueInOrder", false, informer.QueueInOrder},
}

func setGates(t *testing.T, atomic bool) {
	// Watch-list off on the client-go side: the script serves lists,
	// as kitchensync's informer (UseWatchList false) asks for.
	withGates(t, map[features.Feature]bool{features.AtomicFIFO: atomic, features.WatchListClient: false})
}

// scriptedRelist is the sequence the package doc of informer walks
// through: a list, watch events, a bookmark, a delete of a key never
// seen, a clean close, a 410 with a relist that finds one object gone,
// one unchanged, one changed and one new, and a bookmark after.
var scriptedRelist = []atomicStep{
	{kind: "list", rv: "10", list: []string{"a@5", "b@6"}},
	{kind: "event", typ: meta.EventAdded, name: "c", objRV: "11"},
	{kind: "event", typ: meta.EventModified, name: "a", objRV: "12"},
	{kind: "event", typ: meta.EventBookmark, objRV: "15"},
	{kind: "event", typ: meta.EventDeleted, name: "z", objRV: "16"},
	{kind: "event", typ: meta.EventDeleted, name: "b", objRV: "17"},
	{kind: "close"},
	{kind: "event", typ: meta.EventAdded, name: "e", objRV: "18"},
	{kind: "expire", rv: "30", list: []string{"a@12", "c@25", "d@26"}},
	{kind: "event", typ: meta.EventModified, name: "d", objRV: "31"},
	{kind: "event", typ: meta.EventBookmark, objRV: "40"},
}

func TestAtomicInformerScriptMatchesClientGo(t *testing.T) {
	quietClientGo()
	for _, m := range gateModes {
		t.Run(m.name, func(t *testing.T) {
			setGates(t, m.atomic)
			synctest.Test(t, func(t *testing.T) { runAtomicScript(t, m.queue, scriptedRelist) })
		})
	}
}

// randomScript makes a seeded script: a first list, then watch events
// that follow a truth (creates, updates, deletes, bookmarks), clean
// closes, and outages during which the truth changes unseen, ended by a
// 410 and a relist of the truth.
func randomScript(r *rand.Rand, n int) []atomicStep {
	rv := 10
	truth := map[string]int{}
	names := []string{"a", "b", "c", "d", "e", "f"}
	listTruth := func() []string {
		var out []string
		for _, name := range names {
			if v, ok := truth[name]; ok {
				out = append(out, name+"@"+strconv.Itoa(v))
			}
		}
		return out
	}
	change := func() (meta.EventType, string) {
		name := names[r.IntN(len(names))]
		rv++
		if _, ok := truth[name]; !ok {
			truth[name] = rv
			return meta.EventAdded, name
		}
		if r.IntN(3) == 0 {
			delete(truth, name)
			return meta.EventDeleted, name
		}
		truth[name] = rv
		return meta.EventModified, name
	}
	for _, name := range names[:r.IntN(4)] {
		rv++
		truth[name] = rv
	}
	steps := []atomicStep{{kind: "list", rv: strconv.Itoa(rv), list: listTruth()}}
	for range n {
		switch p := r.IntN(20); {
		case p < 14:
			typ, name := change()
			steps = append(steps, atomicStep{kind: "event", typ: typ, name: name, objRV: strconv.Itoa(rv)})
		case p < 16:
			rv++
			steps = append(steps, atomicStep{kind: "event", typ: meta.EventBookmark, objRV: strconv.Itoa(rv)})
		case p < 17:
			steps = append(steps, atomicStep{kind: "close"})
		default:
			for range r.IntN(4) {
				change() // unseen
			}
			steps = append(steps, atomicStep{kind: "expire", rv: strconv.Itoa(rv), list: listTruth()})
		}
	}
	return steps
}

func TestAtomicInformerRandomMatchesClientGo(t *testing.T) {
	quietClientGo()
	for _, m := range gateModes {
		t.Run(m.name, func(t *testing.T) {
			setGates(t, m.atomic)
			for seed := range seeds(t, 300) {
				steps := randomScript(rand.New(rand.NewPCG(seed, 37)), 30)
				synctest.Test(t, func(t *testing.T) { runAtomicScript(t, m.queue, steps) })
				if t.Failed() {
					t.Fatalf("seed %d", seed)
				}
			}
		})
	}
}
