package informer

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/store"
)

type dfWidget = apiservertest.Widget

// Both FIFOs are what a Reflector writes to and an informer pops, and an
// Indexer is what they read known objects from.
var (
	_ testFIFO                   = (*DeltaFIFO[*dfWidget])(nil)
	_ testFIFO                   = (*RealFIFO[*dfWidget])(nil)
	_ informerQueue[*dfWidget]   = testFIFO(nil)
	_ KeyListerGetter[*dfWidget] = (*store.Indexer[*dfWidget])(nil)
)

// testFIFO is what the tests drive: a *DeltaFIFO or a *RealFIFO.
type testFIFO interface {
	ReflectorStore
	Pop(ctx context.Context, process PopProcessFunc[*dfWidget]) (Deltas[*dfWidget], error)
	Close()
	IsClosed() bool
	HasSynced() bool
	Synced() <-chan struct{}
	ListKeys() []string
	Len() int
}

// newTestFIFO returns a DeltaFIFO, or with inOrder a RealFIFO with the same
// options.
func newTestFIFO(opts DeltaFIFOOptions[*dfWidget], inOrder bool) testFIFO {
	if inOrder {
		return NewRealFIFO(RealFIFOOptions[*dfWidget]{KeyFunc: opts.KeyFunc, KnownObjects: opts.KnownObjects,
			Transform: opts.Transform, Tracer: opts.Tracer, Name: opts.Name})
	}
	return NewDeltaFIFO(opts)
}

// w makes a widget "ns/name" whose Spec.Size marks its version.
func dfW(key string, version int) *dfWidget {
	ns, name, err := store.SplitMetaNamespaceKey(key)
	if err != nil {
		panic(err)
	}
	obj := apiservertest.NewWidget(ns, name)
	obj.Spec.Size = version
	return obj
}

// describeDelta writes a delta as "Type key@version", plus
// " tombstone(key)" for a tombstone; "<nil>" for a missing object.
func dfDescribe(d Delta[*dfWidget]) string {
	if d.Type.atomic() {
		return dfDescribeAtomic(d)
	}
	obj := "<nil>"
	if d.Object != nil {
		obj = fmt.Sprintf("%s/%s@%d", d.Object.Namespace, d.Object.Name, d.Object.Spec.Size)
	}
	s := string(d.Type) + " " + obj
	if d.Tombstone != nil {
		s += " tombstone(" + d.Tombstone.Key + ")"
	}
	return s
}

// dfPop is what one Pop handed over.
type dfPop struct {
	Key     string
	Deltas  []string
	Initial bool // isInInitialList
}

// popAll pops until the FIFO is empty, checking invariants after each.
func dfPopAll(t *testing.T, f testFIFO) []dfPop {
	t.Helper()
	var out []dfPop
	for f.Len() > 0 {
		var p dfPop
		_, err := f.Pop(t.Context(), func(key string, deltas Deltas[*dfWidget], initial bool) error {
			p = dfPop{Key: key, Initial: initial}
			for _, d := range deltas {
				p.Deltas = append(p.Deltas, dfDescribe(d))
			}
			return nil
		})
		if err != nil {
			t.Fatalf("Pop: %v", err)
		}
		checkFIFO(t, f)
		out = append(out, p)
	}
	return out
}

// checkFIFO verifies the FIFO's invariants: in a DeltaFIFO the queue has
// no duplicate keys, every queued key has at least one delta, the items'
// keys are exactly the queue's, and no Deltas hold two Deleted in a row;
// in both FIFOs a tombstone's Obj is its delta's Object, and its key is
// the queue key.
func checkFIFO(t *testing.T, f testFIFO) {
	t.Helper()
	switch f := f.(type) {
	case *DeltaFIFO[*dfWidget]:
		f.mu.Lock()
		defer f.mu.Unlock()
		checkDeltaFIFOLocked(t, f)
	case *RealFIFO[*dfWidget]:
		f.mu.Lock()
		defer f.mu.Unlock()
		for _, ev := range f.events {
			checkDelta(t, ev.key, ev.delta)
		}
	}
}

func checkDeltaFIFOLocked(t *testing.T, f *DeltaFIFO[*dfWidget]) {
	t.Helper()
	seen := map[string]bool{}
	for _, key := range f.queue {
		if seen[key] {
			t.Errorf("key %q queued twice", key)
		}
		seen[key] = true
		deltas, ok := f.items[key]
		if !ok || len(deltas) == 0 {
			t.Errorf("queued key %q has no deltas", key)
		}
		for i, d := range deltas {
			checkDelta(t, key, d)
			if i > 0 && d.Type == Deleted && deltas[i-1].Type == Deleted {
				t.Errorf("key %q: two Deleted deltas in a row", key)
			}
		}
	}
	if len(f.items) != len(seen) {
		t.Errorf("items has %d keys, queue %d", len(f.items), len(seen))
	}
}

// checkDelta verifies that a tombstone delta is well formed.
func checkDelta(t *testing.T, key string, d Delta[*dfWidget]) {
	t.Helper()
	if d.Type.atomic() != (d.Info != nil || d.Type == SyncAll) || d.Type.atomic() && key != "" {
		t.Errorf("key %q: malformed delta %s (Info %v)", key, dfDescribe(d), d.Info)
	}
	if d.Info != nil && len(d.Info.keys) != len(d.Info.Objects) {
		t.Errorf("%s: %d keys for %d objects", dfDescribe(d), len(d.Info.keys), len(d.Info.Objects))
	}
	if ts := d.Tombstone; ts != nil && (ts.Key != key || ts.Obj != d.Object || d.Type != Deleted) {
		t.Errorf("key %q: malformed tombstone delta %s (tombstone key %q)", key, dfDescribe(d), ts.Key)
	}
}

// known returns an Indexer holding objs, to serve as known objects.
func dfKnown(t *testing.T, objs ...*dfWidget) *store.Indexer[*dfWidget] {
	t.Helper()
	x := store.NewIndexer[*dfWidget](nil, nil)
	for _, o := range objs {
		if err := x.Add(o); err != nil {
			t.Fatal(err)
		}
	}
	return x
}

// failingKnown is a KeyListerGetter whose lookups fail.
type dfFailingKnown struct{ keys []string }

func (k dfFailingKnown) ListKeys() []string { return k.keys }
func (k dfFailingKnown) GetByKey(string) (*dfWidget, bool, error) {
	return nil, false, errors.New("lookup failed")
}

// objs converts widgets for Replace.
func dfObjs(ws ...*dfWidget) []meta.Object {
	out := make([]meta.Object, len(ws))
	for i, o := range ws {
		out[i] = o
	}
	return out
}

type fifoCase struct {
	name   string
	reason string
	opts   func(t *testing.T) DeltaFIFOOptions[*dfWidget]
	real   bool // a RealFIFO with opts instead of a DeltaFIFO
	ops    func(f testFIFO) error
	want   []dfPop
}

func runFIFOCases(t *testing.T, cases []fifoCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			var opts DeltaFIFOOptions[*dfWidget]
			if tt.opts != nil {
				opts = tt.opts(t)
			}
			f := newTestFIFO(opts, tt.real)
			if err := tt.ops(f); err != nil {
				t.Fatalf("ops: %v", err)
			}
			checkFIFO(t, f)
			if diff := cmp.Diff(tt.want, dfPopAll(t, f)); diff != "" {
				t.Errorf("%s\npops mismatch (-want +got):\n%s", tt.reason, diff)
			}
		})
	}
}

// seq runs ops in order, stopping at the first error.
func dfSeq(ops ...func(f testFIFO) error) func(f testFIFO) error {
	return func(f testFIFO) error {
		for _, op := range ops {
			if err := op(f); err != nil {
				return err
			}
		}
		return nil
	}
}

func dfAdd(o *dfWidget) func(testFIFO) error {
	return func(f testFIFO) error { return f.Add(o) }
}
func dfUpdate(o *dfWidget) func(testFIFO) error {
	return func(f testFIFO) error { return f.Update(o) }
}
func dfDelete(o *dfWidget) func(testFIFO) error {
	return func(f testFIFO) error { return f.Delete(o) }
}
func dfReplace(ws ...*dfWidget) func(testFIFO) error {
	return func(f testFIFO) error { return f.Replace(dfObjs(ws...), "") }
}
func dfResync(f testFIFO) error { return f.Resync() }

func dfWithKnown(ws ...*dfWidget) func(t *testing.T) DeltaFIFOOptions[*dfWidget] {
	return func(t *testing.T) DeltaFIFOOptions[*dfWidget] {
		return DeltaFIFOOptions[*dfWidget]{KnownObjects: dfKnown(t, ws...)}
	}
}
