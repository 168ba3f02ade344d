package informer

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// dfDescribeAtomic writes a ReplacedAll, SyncAll or Bookmark delta as
// "Type @rv [ns/name@version ...]".
func dfDescribeAtomic(d Delta[*dfWidget]) string {
	if d.Info == nil {
		return string(d.Type)
	}
	var objs []string
	for _, o := range d.Info.Objects {
		objs = append(objs, fmt.Sprintf("%s/%s@%d", o.Namespace, o.Name, o.Spec.Size))
	}
	return fmt.Sprintf("%s @%s [%s]", d.Type, d.Info.ResourceVersion, strings.Join(objs, " "))
}

func newAtomicFIFO(opts RealFIFOOptions[*dfWidget]) *RealFIFO[*dfWidget] {
	opts.AtomicEvents, opts.UnlockWhileProcessing = true, true
	return NewRealFIFO(opts)
}

// An atomic RealFIFO queues a list as one entry, a resync as one and a
// bookmark as one, behind what was queued before; it asks no known
// objects (they are ignored) and is synced once the list's one entry
// has been processed.
func TestAtomicRealFIFOQueuesOneEntryPerCall(t *testing.T) {
	f := newAtomicFIFO(RealFIFOOptions[*dfWidget]{KnownObjects: dfFailingKnown{keys: []string{"ns/gone"}}})
	mustDo(t, f.Add(dfW("ns/early", 1)))
	mustDo(t, f.Replace([]meta.Object{dfW("ns/b", 2), dfW("ns/a", 3)}, "10"))
	mustDo(t, f.Update(dfW("ns/a", 4)))
	mustDo(t, f.Bookmark("12"))
	mustDo(t, f.Resync())
	if diff := cmp.Diff([]string{"ns/early", "ns/a"}, f.ListKeys()); diff != "" {
		t.Errorf("ListKeys: only entries with a key (-want +got):\n%s", diff)
	}
	want := []dfPop{
		{Key: "ns/early", Deltas: []string{"Added ns/early@1"}},
		{Key: "", Deltas: []string{"ReplacedAll @10 [ns/b@2 ns/a@3]"}},
		{Key: "ns/a", Deltas: []string{"Updated ns/a@4"}},
		{Key: "", Deltas: []string{"Bookmark @12 []"}},
		{Key: "", Deltas: []string{"SyncAll"}},
	}
	// The Add came first, so the FIFO was populated (and synced) before
	// the list: nothing is initial, as in client-go.
	if diff := cmp.Diff(want, dfPopAll(t, f)); diff != "" {
		t.Errorf("pops (-want +got):\n%s", diff)
	}
}

// The first list is the initial population: its one entry pops with
// isInInitialList, and HasSynced turns true only once it is processed.
func TestAtomicRealFIFOSyncsAfterTheListEntry(t *testing.T) {
	f := newAtomicFIFO(RealFIFOOptions[*dfWidget]{})
	mustDo(t, f.Replace([]meta.Object{dfW("ns/a", 1)}, "5"))
	mustDo(t, f.Add(dfW("ns/b", 2)))
	if f.HasSynced() {
		t.Fatal("synced before the list was popped")
	}
	_, err := f.Pop(t.Context(), func(_ string, _ Deltas[*dfWidget], initial bool) error {
		if !initial || f.HasSynced() {
			t.Errorf("processing the list: initial %v, synced %v; want true, false", initial, f.HasSynced())
		}
		return nil
	})
	mustDo(t, err)
	if !f.HasSynced() {
		t.Fatal("not synced after the list was processed")
	}
	if got := popOne(t, f); got.Initial {
		t.Errorf("the add after the list popped as initial: %+v", got)
	}
}

// With UnlockWhileProcessing the reflector can queue while a change is
// processed: an Add from inside process returns, where a FIFO that held
// its lock would deadlock.
func TestAtomicRealFIFOProcessesWithoutItsLock(t *testing.T) {
	f := newAtomicFIFO(RealFIFOOptions[*dfWidget]{})
	mustDo(t, f.Add(dfW("ns/a", 1)))
	_, err := f.Pop(t.Context(), func(string, Deltas[*dfWidget], bool) error {
		return f.Add(dfW("ns/b", 2))
	})
	mustDo(t, err)
	if got := f.ListKeys(); len(got) != 1 || got[0] != "ns/b" {
		t.Errorf("queued during processing: %q, want [ns/b]", got)
	}
}

// Replace prepares every object before it queues anything: a transform
// that fails on one leaves an atomic FIFO unchanged, as any other.
func TestAtomicRealFIFOReplaceAllOrNothing(t *testing.T) {
	f := newAtomicFIFO(RealFIFOOptions[*dfWidget]{Transform: func(w *dfWidget) (*dfWidget, error) {
		if w.Name == "bad" {
			return nil, errors.New("refused")
		}
		w.Spec.Size *= 10
		return w, nil
	}})
	if err := f.Replace([]meta.Object{dfW("ns/a", 1), dfW("ns/bad", 2)}, "7"); err == nil {
		t.Fatal("Replace with a refused object: no error")
	}
	if f.Len() != 0 {
		t.Fatalf("a failed Replace queued %d entries", f.Len())
	}
	mustDo(t, f.Replace([]meta.Object{dfW("ns/a", 1)}, "8"))
	if got := popOne(t, f); !cmp.Equal(got.Deltas, []string{"ReplacedAll @8 [ns/a@10]"}) {
		t.Errorf("popped %+v, want the list transformed", got)
	}
}

// Where a DeltaFIFO merges a key's changes into one entry that keeps its
// place, a RealFIFO hands each change over in the order it came: a's
// second update after b's add, not before. And a DeltaFIFO's resync
// skips a key with changes pending, where an atomic FIFO's SyncAll waits
// its turn and then re-delivers everything cached, pending changes
// applied.
func TestRealFIFOKeepsOrderAcrossKeys(t *testing.T) {
	known := dfKnown(t, dfW("ns/a", 1), dfW("ns/c", 1))
	feed := func(f testFIFO) []dfPop {
		mustDo(t, f.Update(dfW("ns/a", 2)))
		mustDo(t, f.Add(dfW("ns/b", 1)))
		mustDo(t, f.Update(dfW("ns/a", 3)))
		mustDo(t, f.Resync())
		return dfPopAll(t, f)
	}
	delta := feed(NewDeltaFIFO(DeltaFIFOOptions[*dfWidget]{KnownObjects: known}))
	atomic := feed(newAtomicFIFO(RealFIFOOptions[*dfWidget]{KnownObjects: known}))
	wantDelta := []dfPop{
		{Key: "ns/a", Deltas: []string{"Updated ns/a@2", "Updated ns/a@3"}},
		{Key: "ns/b", Deltas: []string{"Added ns/b@1"}},
		{Key: "ns/c", Deltas: []string{"Sync ns/c@1"}},
	}
	wantAtomic := []dfPop{
		{Key: "ns/a", Deltas: []string{"Updated ns/a@2"}},
		{Key: "ns/b", Deltas: []string{"Added ns/b@1"}},
		{Key: "ns/a", Deltas: []string{"Updated ns/a@3"}},
		{Key: "", Deltas: []string{"SyncAll"}},
	}
	if diff := cmp.Diff(wantDelta, delta); diff != "" {
		t.Errorf("DeltaFIFO (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantAtomic, atomic); diff != "" {
		t.Errorf("atomic RealFIFO (-want +got):\n%s", diff)
	}
}

// A RealFIFO without AtomicEvents ignores bookmarks, as client-go's.
func TestInOrderRealFIFOIgnoresBookmarks(t *testing.T) {
	f := NewRealFIFO(RealFIFOOptions[*dfWidget]{UnlockWhileProcessing: true})
	mustDo(t, f.Bookmark("9"))
	if f.Len() != 0 || f.unlockWhileProcessing {
		t.Errorf("non-atomic RealFIFO: %d entries after a bookmark, unlockWhileProcessing %v; want 0, false", f.Len(), f.unlockWhileProcessing)
	}
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
