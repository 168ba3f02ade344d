package informer

import (
	"errors"
	"strings"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/store"
)

func TestDeltaFIFOClassicRules(t *testing.T) {
	a1, a2, a3 := dfW("ns/a", 1), dfW("ns/a", 2), dfW("ns/a", 3)
	b1, c1 := dfW("ns/b", 1), dfW("ns/c", 1)
	runFIFOCases(t, []fifoCase{{
		name:   "deltas accumulate per key",
		reason: "Add, Update, Delete of one object collapse into one Pop with three deltas",
		ops:    dfSeq(dfAdd(a1), dfUpdate(a2), dfDelete(a3)),
		want:   []dfPop{{Key: "ns/a", Deltas: []string{"Added ns/a@1", "Updated ns/a@2", "Deleted ns/a@3"}}},
	}, {
		name:   "a key keeps its place",
		reason: "a is queued first; b's add and a's later update do not move a",
		ops:    dfSeq(dfAdd(a1), dfAdd(b1), dfUpdate(a2), dfAdd(c1)),
		want: []dfPop{
			{Key: "ns/a", Deltas: []string{"Added ns/a@1", "Updated ns/a@2"}},
			{Key: "ns/b", Deltas: []string{"Added ns/b@1"}},
			{Key: "ns/c", Deltas: []string{"Added ns/c@1"}},
		},
	}, {
		name:   "two consecutive deletes merge, the older wins",
		reason: "client-go isDeletionDup: of two real deletes the older is kept",
		ops:    dfSeq(dfAdd(a1), dfDelete(a2), dfDelete(a3)),
		want:   []dfPop{{Key: "ns/a", Deltas: []string{"Added ns/a@1", "Deleted ns/a@2"}}},
	}, {
		name:   "non-consecutive deletes do not merge",
		reason: "only the last two deltas are ever compared",
		ops:    dfSeq(dfAdd(a1), dfDelete(a1), dfAdd(a2), dfDelete(a3)),
		want:   []dfPop{{Key: "ns/a", Deltas: []string{"Added ns/a@1", "Deleted ns/a@1", "Added ns/a@2", "Deleted ns/a@3"}}},
	}, {
		name:   "updates never merge",
		reason: "unlike deletes, every update is kept",
		ops:    dfSeq(dfUpdate(a1), dfUpdate(a1), dfUpdate(a2)),
		want:   []dfPop{{Key: "ns/a", Deltas: []string{"Updated ns/a@1", "Updated ns/a@1", "Updated ns/a@2"}}},
	}, {
		name:   "delete of an unknown key is ignored",
		reason: "no known objects and nothing queued: nobody downstream knows the object",
		ops:    dfSeq(dfDelete(a1)),
		want:   nil,
	}, {
		name:   "delete of a key unknown to the cache is ignored",
		reason: "the known objects lack it and nothing is queued",
		opts:   dfWithKnown(b1),
		ops:    dfSeq(dfDelete(a1)),
		want:   nil,
	}, {
		name: "delete of a cached key is recorded",
		opts: dfWithKnown(a1),
		ops:  dfSeq(dfDelete(a2)),
		want: []dfPop{{Key: "ns/a", Deltas: []string{"Deleted ns/a@2"}}},
	}, {
		name:   "delete when the cache lookup fails is recorded",
		reason: "a lookup error counts as known, as in client-go",
		opts: func(*testing.T) DeltaFIFOOptions[*dfWidget] {
			return DeltaFIFOOptions[*dfWidget]{KnownObjects: dfFailingKnown{}}
		},
		ops:  dfSeq(dfDelete(a1)),
		want: []dfPop{{Key: "ns/a", Deltas: []string{"Deleted ns/a@1"}}},
	}, {
		name:   "resync emits Sync only for cached keys with nothing pending",
		reason: "a has an update pending, so only b gets Sync, with the cached object",
		opts:   dfWithKnown(a1, b1),
		ops:    dfSeq(dfUpdate(a2), dfResync),
		want: []dfPop{
			{Key: "ns/a", Deltas: []string{"Updated ns/a@2"}},
			{Key: "ns/b", Deltas: []string{"Sync ns/b@1"}, Initial: false},
		},
	}, {
		name: "resync without known objects does nothing",
		ops:  dfSeq(dfResync),
		want: nil,
	}, {
		name: "resync skips keys whose lookup fails",
		opts: func(*testing.T) DeltaFIFOOptions[*dfWidget] {
			return DeltaFIFOOptions[*dfWidget]{KnownObjects: dfFailingKnown{keys: []string{"ns/a"}}}
		},
		ops:  dfSeq(dfResync),
		want: nil,
	}})
}

func TestDeltaFIFOClassicReplace(t *testing.T) {
	a1, a2, b1, c1, d1 := dfW("ns/a", 1), dfW("ns/a", 2), dfW("ns/b", 1), dfW("ns/c", 1), dfW("ns/d", 1)
	runFIFOCases(t, []fifoCase{{
		name:   "listed items are Replaced, cached keys missing get tombstones",
		reason: "b was cached but is not in the list: deleted while the watch was down",
		opts:   dfWithKnown(a1, b1),
		ops:    dfReplace(a2, c1),
		want: []dfPop{
			{Key: "ns/a", Deltas: []string{"Replaced ns/a@2"}, Initial: true},
			{Key: "ns/c", Deltas: []string{"Replaced ns/c@1"}, Initial: true},
			{Key: "ns/b", Deltas: []string{"Deleted ns/b@1 tombstone(ns/b)"}, Initial: true},
		},
	}, {
		name:   "a queued key that vanished gets a tombstone with its newest queued state",
		reason: "d was added and updated but never reached the cache; the list lacks it",
		opts:   dfWithKnown(),
		ops:    dfSeq(dfAdd(d1), dfUpdate(dfW("ns/d", 2)), dfReplace(a1)),
		want: []dfPop{
			{Key: "ns/d", Deltas: []string{"Added ns/d@1", "Updated ns/d@2", "Deleted ns/d@2 tombstone(ns/d)"}},
			{Key: "ns/a", Deltas: []string{"Replaced ns/a@1"}},
		},
	}, {
		name:   "a queued real delete absorbs the tombstone",
		reason: "Deleted then tombstone merge and the real delete, seen on the watch, is kept",
		opts:   dfWithKnown(a1),
		ops:    dfSeq(dfDelete(a2), dfReplace()),
		want:   []dfPop{{Key: "ns/a", Deltas: []string{"Deleted ns/a@2"}}},
	}, {
		name:   "a later real delete replaces a tombstone",
		reason: "tombstone then Deleted merge and the newer, real delete wins",
		opts:   dfWithKnown(a1),
		ops:    dfSeq(dfReplace(), dfDelete(a2)),
		want:   []dfPop{{Key: "ns/a", Deltas: []string{"Deleted ns/a@2"}, Initial: true}},
	}, {
		name: "two relists leave one tombstone",
		opts: dfWithKnown(a1),
		ops:  dfSeq(dfReplace(), dfReplace()),
		want: []dfPop{{Key: "ns/a", Deltas: []string{"Deleted ns/a@1 tombstone(ns/a)"}, Initial: true}},
	}, {
		name:   "a cached key with pending deltas is tombstoned once",
		reason: "a has an update queued; the queued pass covers it and the cache pass skips it",
		opts:   dfWithKnown(a1),
		ops:    dfSeq(dfUpdate(a2), dfReplace()),
		want:   []dfPop{{Key: "ns/a", Deltas: []string{"Updated ns/a@2", "Deleted ns/a@2 tombstone(ns/a)"}}},
	}, {
		name: "a failed cache lookup gives a tombstone without an object",
		opts: func(*testing.T) DeltaFIFOOptions[*dfWidget] {
			return DeltaFIFOOptions[*dfWidget]{KnownObjects: dfFailingKnown{keys: []string{"ns/a"}}}
		},
		ops:  dfReplace(),
		want: []dfPop{{Key: "ns/a", Deltas: []string{"Deleted <nil> tombstone(ns/a)"}, Initial: true}},
	}, {
		name: "without known objects only queued keys are tombstoned",
		ops:  dfSeq(dfAdd(b1), dfReplace(a1)),
		want: []dfPop{
			{Key: "ns/b", Deltas: []string{"Added ns/b@1", "Deleted ns/b@1 tombstone(ns/b)"}},
			{Key: "ns/a", Deltas: []string{"Replaced ns/a@1"}},
		},
	}, {
		name: "a listed key with deltas pending gets Replaced appended",
		ops:  dfSeq(dfAdd(a1), dfReplace(a2)),
		want: []dfPop{{Key: "ns/a", Deltas: []string{"Added ns/a@1", "Replaced ns/a@2"}}},
	}})
}

func TestRealFIFORules(t *testing.T) {
	a1, a2, a3, b1, k1, k2, n1 := dfW("ns/a", 1), dfW("ns/a", 2), dfW("ns/a", 3), dfW("ns/b", 1), dfW("ns/k1", 1), dfW("ns/k2", 1), dfW("ns/n", 1)
	inOrder := func(ws ...*dfWidget) func(t *testing.T) DeltaFIFOOptions[*dfWidget] {
		return func(t *testing.T) DeltaFIFOOptions[*dfWidget] {
			return DeltaFIFOOptions[*dfWidget]{KnownObjects: dfKnown(t, ws...)}
		}
	}
	runFIFOCases(t, []fifoCase{{
		name:   "one pop per event, nothing merged",
		reason: "RealFIFO: each event is delivered alone, in arrival order, deletes included",
		opts:   inOrder(),
		real:   true,
		ops:    dfSeq(dfAdd(a1), dfAdd(b1), dfUpdate(a2), dfDelete(a3), dfDelete(a3)),
		want: []dfPop{
			{Key: "ns/a", Deltas: []string{"Added ns/a@1"}},
			{Key: "ns/b", Deltas: []string{"Added ns/b@1"}},
			{Key: "ns/a", Deltas: []string{"Updated ns/a@2"}},
			{Key: "ns/a", Deltas: []string{"Deleted ns/a@3"}},
			{Key: "ns/a", Deltas: []string{"Deleted ns/a@3"}},
		},
	}, {
		name:   "replace queues tombstones first, then Replaced in list order",
		reason: "a vanished (last queued Added), b's last queued is Deleted (skipped), k2 is cached only",
		opts:   inOrder(k1, k2),
		real:   true,
		ops:    dfSeq(dfAdd(a1), dfAdd(b1), dfDelete(b1), dfReplace(k1, n1)),
		want: []dfPop{
			{Key: "ns/a", Deltas: []string{"Added ns/a@1"}},
			{Key: "ns/b", Deltas: []string{"Added ns/b@1"}},
			{Key: "ns/b", Deltas: []string{"Deleted ns/b@1"}},
			{Key: "ns/a", Deltas: []string{"Deleted ns/a@1 tombstone(ns/a)"}},
			{Key: "ns/k2", Deltas: []string{"Deleted ns/k2@1 tombstone(ns/k2)"}},
			{Key: "ns/k1", Deltas: []string{"Replaced ns/k1@1"}},
			{Key: "ns/n", Deltas: []string{"Replaced ns/n@1"}},
		},
	}, {
		name: "resync skips queued keys",
		opts: inOrder(a1, b1),
		real: true,
		ops:  dfSeq(dfUpdate(a2), dfResync),
		want: []dfPop{
			{Key: "ns/a", Deltas: []string{"Updated ns/a@2"}},
			{Key: "ns/b", Deltas: []string{"Sync ns/b@1"}},
		},
	}})
}

func TestDeltaFIFOTransform(t *testing.T) {
	bump := func(o *dfWidget) (*dfWidget, error) {
		if o.Spec.Size < 0 {
			return nil, errors.New("refused")
		}
		c := apiservertestCopy(o)
		c.Spec.Size += 100
		return c, nil
	}
	opts := func(t *testing.T) DeltaFIFOOptions[*dfWidget] {
		return DeltaFIFOOptions[*dfWidget]{KnownObjects: dfKnown(t, dfW("ns/k", 1), dfW("ns/s", 1)), Transform: bump}
	}
	runFIFOCases(t, []fifoCase{{
		name:   "transform applies to events and lists, not to Sync or tombstones",
		reason: "Sync and tombstone objects come from the cache, already transformed",
		opts:   opts,
		ops:    dfSeq(dfAdd(dfW("ns/a", 1)), dfReplace(dfW("ns/b", 1), dfW("ns/s", 1)), dfResync),
		want: []dfPop{
			{Key: "ns/a", Deltas: []string{"Added ns/a@101", "Deleted ns/a@101 tombstone(ns/a)"}},
			{Key: "ns/b", Deltas: []string{"Replaced ns/b@101"}},
			{Key: "ns/s", Deltas: []string{"Replaced ns/s@101"}},
			{Key: "ns/k", Deltas: []string{"Deleted ns/k@1 tombstone(ns/k)"}},
		},
	}})
	f := NewDeltaFIFO(opts(t))
	if err := f.Add(dfW("ns/x", -1)); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Errorf("Add with a failing transform: err = %v", err)
	}
	if err := f.Replace(dfObjs(dfW("ns/y", 1), dfW("ns/x", -1)), "1"); err == nil {
		t.Errorf("Replace with a failing transform succeeded")
	}
	if f.Len() != 0 || f.HasSynced() {
		t.Errorf("a failed call changed the FIFO: len %d, synced %v", f.Len(), f.HasSynced())
	}
}

func apiservertestCopy(o *dfWidget) *dfWidget { return o.DeepCopyObject().(*dfWidget) }

func TestDeltaFIFOBadInput(t *testing.T) {
	for _, inOrder := range []bool{false, true} {
		f := newTestFIFO(DeltaFIFOOptions[*dfWidget]{}, inOrder)
		var ke *store.KeyError
		if err := f.Add(apiservertest.NewGadget("g")); err == nil || !strings.Contains(err.Error(), "cannot hold") {
			t.Errorf("Add of the wrong kind: err = %v", err)
		}
		if err := f.Add(nil); err == nil {
			t.Errorf("Add(nil) succeeded")
		}
		if err := f.Update((*dfWidget)(nil)); !errors.As(err, &ke) {
			t.Errorf("Update of a typed nil: err = %v, want a *store.KeyError", err)
		}
		if err := f.Replace(dfObjs(dfW("ns/a", 1), apiservertest.NewWidget("ns", "")), "1"); !errors.As(err, &ke) {
			t.Errorf("Replace with a nameless object: err = %v, want a *store.KeyError", err)
		}
		checkFIFO(t, f)
		if f.Len() != 0 || f.HasSynced() {
			t.Errorf("in-order %v: bad input changed the FIFO: len %d, synced %v", inOrder, f.Len(), f.HasSynced())
		}
	}
}
