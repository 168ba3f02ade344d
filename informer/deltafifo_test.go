package informer

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/store"
)

type dfWidget = apiservertest.Widget

// The DeltaFIFO is what a Reflector writes to, and an Indexer is what it
// reads known objects from.
var (
	_ ReflectorStore             = (*DeltaFIFO[*dfWidget])(nil)
	_ KeyListerGetter[*dfWidget] = (*store.Indexer[*dfWidget])(nil)
)

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
func dfPopAll(t *testing.T, f *DeltaFIFO[*dfWidget]) []dfPop {
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

// checkFIFO verifies the FIFO's invariants: in classic mode the queue has
// no duplicate keys, every queued key has at least one delta, the items'
// keys are exactly the queue's, and no Deltas hold two Deleted in a row;
// in both modes a tombstone's Obj is its delta's Object, and its key is
// the queue key.
func checkFIFO(t *testing.T, f *DeltaFIFO[*dfWidget]) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	checkDelta := func(key string, d Delta[*dfWidget]) {
		if ts := d.Tombstone; ts != nil && (ts.Key != key || ts.Obj != d.Object || d.Type != Deleted) {
			t.Errorf("key %q: malformed tombstone delta %s (tombstone key %q)", key, dfDescribe(d), ts.Key)
		}
	}
	if f.inOrder {
		if len(f.items) != 0 || len(f.queue) != 0 {
			t.Errorf("in-order FIFO uses the classic queue: %d items, %d keys", len(f.items), len(f.queue))
		}
		for _, ev := range f.events {
			checkDelta(ev.key, ev.delta)
		}
		return
	}
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
			checkDelta(key, d)
			if i > 0 && d.Type == Deleted && deltas[i-1].Type == Deleted {
				t.Errorf("key %q: two Deleted deltas in a row", key)
			}
		}
	}
	if len(f.items) != len(seen) {
		t.Errorf("items has %d keys, queue %d", len(f.items), len(seen))
	}
	if len(f.events) != 0 {
		t.Errorf("classic FIFO has %d in-order events", len(f.events))
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
func dfObjs(ws ...*dfWidget) []apiserver.Object {
	out := make([]apiserver.Object, len(ws))
	for i, o := range ws {
		out[i] = o
	}
	return out
}

type fifoCase struct {
	name   string
	reason string
	opts   func(t *testing.T) DeltaFIFOOptions[*dfWidget]
	ops    func(f *DeltaFIFO[*dfWidget]) error
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
			f := NewDeltaFIFO(opts)
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
func dfSeq(ops ...func(f *DeltaFIFO[*dfWidget]) error) func(f *DeltaFIFO[*dfWidget]) error {
	return func(f *DeltaFIFO[*dfWidget]) error {
		for _, op := range ops {
			if err := op(f); err != nil {
				return err
			}
		}
		return nil
	}
}

func dfAdd(o *dfWidget) func(*DeltaFIFO[*dfWidget]) error {
	return func(f *DeltaFIFO[*dfWidget]) error { return f.Add(o) }
}
func dfUpdate(o *dfWidget) func(*DeltaFIFO[*dfWidget]) error {
	return func(f *DeltaFIFO[*dfWidget]) error { return f.Update(o) }
}
func dfDelete(o *dfWidget) func(*DeltaFIFO[*dfWidget]) error {
	return func(f *DeltaFIFO[*dfWidget]) error { return f.Delete(o) }
}
func dfReplace(ws ...*dfWidget) func(*DeltaFIFO[*dfWidget]) error {
	return func(f *DeltaFIFO[*dfWidget]) error { return f.Replace(dfObjs(ws...), "") }
}
func dfResync(f *DeltaFIFO[*dfWidget]) error { return f.Resync() }

func dfWithKnown(ws ...*dfWidget) func(t *testing.T) DeltaFIFOOptions[*dfWidget] {
	return func(t *testing.T) DeltaFIFOOptions[*dfWidget] {
		return DeltaFIFOOptions[*dfWidget]{KnownObjects: dfKnown(t, ws...)}
	}
}
