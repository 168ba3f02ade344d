package informer

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"
)

// popOne pops one entry without blocking the test on an empty FIFO.
func popOne(t *testing.T, f testFIFO) dfPop {
	t.Helper()
	if f.Len() == 0 {
		t.Fatalf("popOne: FIFO is empty")
	}
	var p dfPop
	_, err := f.Pop(t.Context(), func(key string, deltas Deltas[*dfWidget], initial bool) error {
		p = dfPop{Key: key, Initial: initial}
		for _, d := range deltas {
			p.Deltas = append(p.Deltas, dfDescribe(d))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checkFIFO(t, f)
	return p
}

func isClosedChan(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

func TestDeltaFIFOHasSynced(t *testing.T) {
	type step struct {
		name       string
		do         func(t *testing.T, f testFIFO)
		wantSynced bool
	}
	pop := func(wantInitial bool) func(t *testing.T, f testFIFO) {
		return func(t *testing.T, f testFIFO) {
			if p := popOne(t, f); p.Initial != wantInitial {
				t.Errorf("pop of %s: isInInitialList = %v, want %v", p.Key, p.Initial, wantInitial)
			}
		}
	}
	call := func(op func(testFIFO) error) func(t *testing.T, f testFIFO) {
		return func(t *testing.T, f testFIFO) {
			if err := op(f); err != nil {
				t.Fatal(err)
			}
		}
	}
	tests := []struct {
		name  string
		opts  DeltaFIFOOptions[*dfWidget]
		real  bool // a RealFIFO with opts instead of a DeltaFIFO
		steps []step
	}{{
		name: "synced once the first list's entries are popped",
		opts: DeltaFIFOOptions[*dfWidget]{KnownObjects: dfKnown(t, dfW("ns/gone", 1))},
		steps: []step{
			{"new", func(*testing.T, testFIFO) {}, false},
			{"resync does not populate", call(dfResync), false},
			{"replace a, b (+ tombstone for gone)", call(dfReplace(dfW("ns/a", 1), dfW("ns/b", 1))), false},
			{"an add after the list is not waited for", call(dfAdd(dfW("ns/c", 1))), false},
			{"pop a", pop(true), false},
			{"pop b", pop(true), false},
			{"pop gone: the last of the list", pop(true), true},
			{"pop c", pop(false), true},
			{"a second replace does not unsync", call(dfReplace()), true},
		},
	}, {
		name: "an empty first list syncs at once",
		steps: []step{
			{"replace nothing", call(dfReplace()), true},
		},
	}, {
		name: "an add before any list syncs at once",
		steps: []step{
			{"add", call(dfAdd(dfW("ns/a", 1))), true},
			{"the list that follows is not waited for", call(dfReplace(dfW("ns/b", 1))), true},
			{"pop a", pop(false), true},
		},
	}, {
		name: "a delete before any list syncs at once, even if ignored",
		steps: []step{
			{"delete unknown", call(dfDelete(dfW("ns/a", 1))), true},
		},
	}, {
		name: "replace merging into pending keys counts queue entries",
		steps: []step{
			{"replace a, a, b: two keys", call(dfReplace(dfW("ns/a", 1), dfW("ns/a", 2), dfW("ns/b", 1))), false},
			{"pop a", pop(true), false},
			{"pop b", pop(true), true},
		},
	}, {
		name: "in-order: every delta of the first list counts",
		opts: DeltaFIFOOptions[*dfWidget]{KnownObjects: dfKnown(t, dfW("ns/gone", 1))},
		real: true,
		steps: []step{
			{"replace a, a", call(dfReplace(dfW("ns/a", 1), dfW("ns/a", 2))), false},
			{"pop tombstone", pop(true), false},
			{"pop a@1", pop(true), false},
			{"pop a@2", pop(true), true},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newTestFIFO(tt.opts, tt.real)
			for _, s := range tt.steps {
				s.do(t, f)
				checkFIFO(t, f)
				if got := f.HasSynced(); got != s.wantSynced {
					t.Fatalf("after %q: HasSynced = %v, want %v", s.name, got, s.wantSynced)
				}
				if got := isClosedChan(f.Synced()); got != s.wantSynced {
					t.Fatalf("after %q: Synced() closed = %v, want %v", s.name, got, s.wantSynced)
				}
			}
		})
	}
}

// popAsync pops in a goroutine and reports the result on the returned
// channel.
type popResult struct {
	deltas Deltas[*dfWidget]
	err    error
}

func popAsync(ctx context.Context, f testFIFO) <-chan popResult {
	ch := make(chan popResult, 1)
	go func() {
		d, err := f.Pop(ctx, nil)
		ch <- popResult{d, err}
	}()
	return ch
}

func TestDeltaFIFOPopBlocksUntilAdd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := NewDeltaFIFO(DeltaFIFOOptions[*dfWidget]{})
		got := popAsync(t.Context(), f)
		synctest.Wait()
		select {
		case r := <-got:
			t.Fatalf("Pop returned on an empty FIFO: %v", r)
		default:
		}
		if err := f.Add(dfW("ns/a", 1)); err != nil {
			t.Fatal(err)
		}
		r := <-got
		if r.err != nil || len(r.deltas) != 1 || dfDescribe(r.deltas[0]) != "Added ns/a@1" {
			t.Fatalf("Pop = %v, %v", r.deltas, r.err)
		}
	})
}

func TestDeltaFIFOCloseDrainsThenReportsClosed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := NewDeltaFIFO(DeltaFIFOOptions[*dfWidget]{})
		waiting := popAsync(t.Context(), f)
		synctest.Wait()
		f.Close()
		if r := <-waiting; !errors.Is(r.err, ErrFIFOClosed) {
			t.Fatalf("waiting Pop after Close: err = %v, want ErrFIFOClosed", r.err)
		}
		if !f.IsClosed() {
			t.Errorf("IsClosed = false after Close")
		}

		// Items queued before (or after) Close are still delivered.
		f2 := NewDeltaFIFO(DeltaFIFOOptions[*dfWidget]{})
		if err := f2.Add(dfW("ns/a", 1)); err != nil {
			t.Fatal(err)
		}
		f2.Close()
		if d, err := f2.Pop(t.Context(), nil); err != nil || len(d) != 1 {
			t.Fatalf("Pop of a queued item after Close = %v, %v", d, err)
		}
		if _, err := f2.Pop(t.Context(), nil); !errors.Is(err, ErrFIFOClosed) {
			t.Fatalf("Pop when closed and empty: err = %v, want ErrFIFOClosed", err)
		}
	})
}

func TestDeltaFIFOPopContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := NewDeltaFIFO(DeltaFIFOOptions[*dfWidget]{})
		ctx, cancel := context.WithCancel(t.Context())
		got := popAsync(ctx, f)
		synctest.Wait()
		cancel()
		if r := <-got; !errors.Is(r.err, context.Canceled) {
			t.Fatalf("Pop after cancel: err = %v, want context.Canceled", r.err)
		}
		// A done context wins even over queued items, which stay queued.
		if err := f.Add(dfW("ns/a", 1)); err != nil {
			t.Fatal(err)
		}
		if _, err := f.Pop(ctx, nil); !errors.Is(err, context.Canceled) {
			t.Fatalf("Pop with a done context: err = %v", err)
		}
		if diff := cmp.Diff([]string{"ns/a"}, f.ListKeys()); diff != "" {
			t.Errorf("queued keys (-want +got):\n%s", diff)
		}
	})
}

func TestDeltaFIFOProcessError(t *testing.T) {
	f := NewDeltaFIFO(DeltaFIFOOptions[*dfWidget]{})
	for _, o := range []*dfWidget{dfW("ns/a", 1), dfW("ns/b", 1)} {
		if err := f.Add(o); err != nil {
			t.Fatal(err)
		}
	}
	boom := errors.New("boom")
	d, err := f.Pop(t.Context(), func(string, Deltas[*dfWidget], bool) error { return boom })
	if !errors.Is(err, boom) || len(d) != 1 {
		t.Fatalf("Pop = %v, %v; want the deltas and the process error", d, err)
	}
	if diff := cmp.Diff([]string{"ns/b"}, f.ListKeys()); diff != "" {
		t.Errorf("the failed item must not be requeued (-want +got):\n%s", diff)
	}
	checkFIFO(t, f)
}

func TestDeltaFIFOListKeys(t *testing.T) {
	for _, inOrder := range []bool{false, true} {
		f := newTestFIFO(DeltaFIFOOptions[*dfWidget]{}, inOrder)
		for _, op := range []func(testFIFO) error{dfAdd(dfW("ns/b", 1)), dfAdd(dfW("ns/a", 1)), dfUpdate(dfW("ns/b", 2))} {
			if err := op(f); err != nil {
				t.Fatal(err)
			}
		}
		if diff := cmp.Diff([]string{"ns/b", "ns/a"}, f.ListKeys()); diff != "" {
			t.Errorf("in-order %v: ListKeys (-want +got):\n%s", inOrder, diff)
		}
	}
}

func TestDeltasOldestNewest(t *testing.T) {
	var empty Deltas[*dfWidget]
	if empty.Oldest() != nil || empty.Newest() != nil {
		t.Errorf("empty Deltas have an oldest or newest")
	}
	d := Deltas[*dfWidget]{{Type: Added, Object: dfW("ns/a", 1)}, {Type: Updated, Object: dfW("ns/a", 2)}}
	if d.Oldest().Type != Added || d.Newest().Type != Updated {
		t.Errorf("Oldest/Newest = %s/%s", d.Oldest().Type, d.Newest().Type)
	}
}

// A big backlog, once drained, leaves no grown map or queue array behind;
// a small one keeps its memory for the next burst.
func TestDeltaFIFOReleasesDrainedBacklog(t *testing.T) {
	for _, tc := range []struct {
		name        string
		n           int
		wantRelease bool
	}{
		{name: "small backlog kept", n: shrinkAfter, wantRelease: false},
		{name: "big backlog released", n: shrinkAfter + 1, wantRelease: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := NewDeltaFIFO(DeltaFIFOOptions[*dfWidget]{})
			for i := range tc.n {
				if err := f.Add(dfW(fmt.Sprintf("ns/w%05d", i), 1)); err != nil {
					t.Fatal(err)
				}
			}
			items := f.items
			for range tc.n {
				popOne(t, f)
			}
			f.mu.Lock()
			released := reflect.ValueOf(f.items).UnsafePointer() != reflect.ValueOf(items).UnsafePointer()
			peak, queueCap := f.peak, cap(f.queue)
			f.mu.Unlock()
			if released != tc.wantRelease {
				t.Errorf("map released = %v, want %v (peak now %d)", released, tc.wantRelease, peak)
			}
			if tc.wantRelease && (peak != 0 || queueCap != 0) {
				t.Errorf("after release: peak %d, queue cap %d; want 0, 0", peak, queueCap)
			}
			// The FIFO still works as before.
			if err := f.Add(dfW("ns/again", 2)); err != nil {
				t.Fatal(err)
			}
			if got := popOne(t, f).Key; got != "ns/again" {
				t.Errorf("Pop after drain = %q, want ns/again", got)
			}
		})
	}
}

// Synced closes only after the last item of the first list has been
// processed, so whoever waits on it finds that item in the cache.
func TestDeltaFIFOSyncedAfterLastInitialItemProcessed(t *testing.T) {
	f := NewDeltaFIFO(DeltaFIFOOptions[*dfWidget]{})
	if err := f.Replace(dfObjs(dfW("ns/a", 1), dfW("ns/b", 1)), "1"); err != nil {
		t.Fatal(err)
	}
	var processed []string // written under the FIFO's lock, read after Synced
	for range 2 {
		select {
		case <-f.Synced():
			t.Fatalf("Synced closed with %v processed, want after both", processed)
		default:
		}
		if _, err := f.Pop(t.Context(), func(key string, _ Deltas[*dfWidget], _ bool) error {
			select {
			case <-f.Synced():
				t.Errorf("Synced closed while %s was still being processed", key)
			default:
			}
			processed = append(processed, key)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	<-f.Synced()
	if diff := cmp.Diff([]string{"ns/a", "ns/b"}, processed); diff != "" {
		t.Errorf("processed when Synced closed (-want +got):\n%s", diff)
	}
}
