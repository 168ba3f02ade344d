package apiserver_test

import (
	"context"
	"math"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// The pitfall of fake clientsets: a change made between a List and the
// Watch that follows it must reach the watcher.
func TestWatchFromListRVDeliversChangesBetween(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		a := f.create(t, "a", "red", nil)
		f.create(t, "b", "red", nil)
		list, err := f.res.List(f.ctx, meta.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		a.Spec.Size = 2
		f.update(t, a) // rv 4
		if err := f.widgets.Delete(f.ctx, "b", meta.DeleteOptions{}); err != nil {
			t.Fatal(err) // rv 5
		}
		f.create(t, "c", "red", nil) // rv 6
		w := f.watch(t, meta.ListOptions{ResourceVersion: list.ResourceVersion})
		diffEvents(t, w, []string{"MODIFIED ns/a rv=4", "DELETED ns/b rv=5", "ADDED ns/c rv=6"})
		f.create(t, "d", "red", nil)
		diffEvents(t, w, []string{"ADDED ns/d rv=7"})
	})
}

func TestWatchFromEmptyRVStartsWithSyntheticAdds(t *testing.T) {
	for _, rv := range []string{"", "0"} {
		synctest.Test(t, func(t *testing.T) {
			f := newFixture(t, apiserver.Options{})
			f.create(t, "b", "red", nil)
			f.create(t, "a", "red", nil)
			w := f.watch(t, meta.ListOptions{ResourceVersion: rv})
			f.create(t, "c", "red", nil)
			diffEvents(t, w, []string{"ADDED ns/a rv=3", "ADDED ns/b rv=2", "ADDED ns/c rv=4"})
		})
	}
}

func TestWatchFromCompactedRVGets410ThenCloses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{CompactionDropsHistory: true})
		f.create(t, "a", "red", nil)
		f.create(t, "b", "red", nil)
		f.srv.CompactHistory()
		w := f.watch(t, meta.ListOptions{ResourceVersion: "2"})
		diffEvents(t, w, []string{"ERROR 410 too old resource version: 2 (3)", "CLOSED"})
		// From the compaction point on, nothing is missing: no 410.
		w2 := f.watch(t, meta.ListOptions{ResourceVersion: "3"})
		f.create(t, "c", "red", nil)
		diffEvents(t, w2, []string{"ADDED ns/c rv=4"})
	})
}

func TestHistoryRingExpiresOldRVs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{HistorySize: 3})
		for _, name := range []string{"a", "b", "c", "d", "e"} {
			f.create(t, name, "red", nil)
		}
		// Events 4, 5 and 6 are kept: watching from 3 still works, from 2 not.
		diffEvents(t, f.watch(t, meta.ListOptions{ResourceVersion: "3"}),
			[]string{"ADDED ns/c rv=4", "ADDED ns/d rv=5", "ADDED ns/e rv=6"})
		diffEvents(t, f.watch(t, meta.ListOptions{ResourceVersion: "2"}),
			[]string{"ERROR 410 too old resource version: 2 (3)", "CLOSED"})
	})
}

func TestWatchFromFutureRVWaitsForIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		w := f.watch(t, meta.ListOptions{ResourceVersion: "3"})
		f.create(t, "a", "red", nil)
		f.create(t, "b", "red", nil)
		f.create(t, "c", "red", nil)
		diffEvents(t, w, []string{"ADDED ns/c rv=4"})
	})
}

func TestWatchSelectorsTranslateEvents(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		w := f.watch(t, meta.ListOptions{LabelSelector: "tier=gold", FieldSelector: "spec.color=red"})
		a := f.create(t, "a", "red", map[string]string{"tier": "gold"}) // 2 in
		f.create(t, "b", "blue", map[string]string{"tier": "gold"})     // 3 out
		a.Labels["tier"] = "silver"
		a = f.update(t, a) // 4: leaves the set
		a.Spec.Size = 7
		a = f.update(t, a) // 5: still out
		a.Labels["tier"] = "gold"
		a = f.update(t, a) // 6: enters the set
		a.Spec.Size = 8
		f.update(t, a) // 7: stays in
		// 8: deleted while in; 9: deleted, never seen.
		for _, name := range []string{"a", "b"} {
			if err := f.widgets.Delete(f.ctx, name, meta.DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		diffEvents(t, w, []string{
			"ADDED ns/a rv=2",
			"DELETED ns/a rv=4",
			"ADDED ns/a rv=6",
			"MODIFIED ns/a rv=7",
			"DELETED ns/a rv=8",
		})
	})
}

// An object leaving the selection is sent as DELETED with its previous
// content, as the Kubernetes watch cache does, and the new resourceVersion.
func TestWatchLeavingSelectionCarriesPreviousContent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		a := f.create(t, "a", "red", map[string]string{"tier": "gold"})
		w := f.watch(t, meta.ListOptions{ResourceVersion: "2", LabelSelector: "tier=gold"})
		a.Labels["tier"] = "silver"
		f.update(t, a)
		synctest.Wait()
		ev := <-w.ResultChan()
		got := ev.Object.(*apiservertest.Widget)
		if ev.Type != meta.EventDeleted || got.Labels["tier"] != "gold" || got.ResourceVersion != "3" {
			t.Errorf("got %s tier=%s rv=%s, want DELETED tier=gold rv=3", ev.Type, got.Labels["tier"], got.ResourceVersion)
		}
	})
}

func TestWatchNamespaceScope(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		w, err := f.res.Namespace("other").Watch(f.ctx, meta.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		f.create(t, "a", "red", nil)
		o := apiservertest.NewWidget("other", "b")
		if _, err := f.res.Create(f.ctx, o, meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		diffEvents(t, w, []string{"ADDED other/b rv=3"})
	})
}

func TestWatchListSendsInitialEventsThenAnnotatedBookmark(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		f.create(t, "b", "red", nil)
		f.create(t, "a", "blue", nil)
		w := f.watch(t, meta.ListOptions{
			SendInitialEvents:    ptr(true),
			ResourceVersionMatch: meta.ResourceVersionMatchNotOlderThan,
			AllowWatchBookmarks:  true,
			FieldSelector:        "spec.color=red",
		})
		f.create(t, "c", "red", nil)
		diffEvents(t, w, []string{"ADDED ns/b rv=2", "BOOKMARK rv=3 initial-events-end", "ADDED ns/c rv=4"})
	})
}

// As from kube-apiserver: a watch-list that does not allow bookmarks gets
// no BOOKMARK at all, not even the one that ends the initial events.
func TestWatchListWithoutBookmarksSendsNone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{BookmarkInterval: time.Second})
		f.create(t, "b", "red", nil)
		f.create(t, "a", "red", nil)
		w := f.watch(t, meta.ListOptions{
			SendInitialEvents:    ptr(true),
			ResourceVersionMatch: meta.ResourceVersionMatchNotOlderThan,
		})
		f.create(t, "c", "red", nil)
		time.Sleep(time.Minute) // past many bookmark intervals
		diffEvents(t, w, []string{"ADDED ns/a rv=3", "ADDED ns/b rv=2", "ADDED ns/c rv=4"})
	})
}

func TestWatchListRequiresNotOlderThan(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		_, err := f.res.Watch(f.ctx, meta.ListOptions{SendInitialEvents: ptr(true)})
		const want = `ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan`
		if !meta.IsInvalid(err) || err.Error() != want {
			t.Errorf("err = %v, want %s", err, want)
		}
	})
}

func TestWatchTimeoutClosesCleanly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		w := f.watch(t, meta.ListOptions{TimeoutSeconds: ptr(int64(30))})
		f.create(t, "a", "red", nil)
		diffEvents(t, w, []string{"ADDED ns/a rv=2"})
		time.Sleep(30 * time.Second)
		diffEvents(t, w, []string{"CLOSED"})
	})
}

// A negative timeout ends the watch at once, as the real server's negative
// timer does; one too large for a time.Duration is capped, not wrapped
// around to a moment or to the past.
func TestWatchTimeoutOutOfRange(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		negative := f.watch(t, meta.ListOptions{TimeoutSeconds: ptr(int64(-1))})
		diffEvents(t, negative, []string{"CLOSED"})
		for _, secs := range []int64{math.MaxInt64, 18446744074} {
			w := f.watch(t, meta.ListOptions{TimeoutSeconds: ptr(secs)})
			time.Sleep(24 * time.Hour)
			diffEvents(t, w, nil)
		}
	})
}

func TestWatchEndsOnStopContextAndCloseWatches(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		stopped := f.watch(t, meta.ListOptions{})
		ctx, cancel := context.WithCancel(f.ctx)
		cancelled, err := f.res.Watch(ctx, meta.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		closed := f.watch(t, meta.ListOptions{})
		stopped.Stop()
		stopped.Stop() // twice is fine
		cancel()
		diffEvents(t, stopped, []string{"CLOSED"})
		diffEvents(t, cancelled, []string{"CLOSED"})
		f.srv.CloseWatches()
		diffEvents(t, closed, []string{"CLOSED"})
	})
}

// A watcher that never reads cannot hold up writers: they all finish, and
// the watcher is cut off once its buffer is full.
func TestBlockedWatcherNeverBlocksWriters(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{WatchBufferSize: 4})
		slow := f.watch(t, meta.ListOptions{})
		fast := f.watch(t, meta.ListOptions{})
		got := make(chan int)
		go func() {
			n := 0
			for range fast.ResultChan() {
				n++
			}
			got <- n
		}()
		for i := range 20 {
			f.create(t, string(rune('a'+i)), "red", nil)
			synctest.Wait() // the reading watcher keeps up
		}
		synctest.Wait()
		fast.Stop()
		if n := <-got; n != 20 {
			t.Errorf("the reading watcher got %d events, want 20", n)
		}
		// The slow watcher had 4 events waiting, its whole allowance, when
		// the 5th write cut it off: the watch ends with a plain close
		// after the events already waiting, as Kubernetes ends
		// unresponsive watchers, and its client re-watches from the last
		// RV it saw.
		diffEvents(t, slow, []string{"ADDED ns/a rv=2", "ADDED ns/b rv=3", "ADDED ns/c rv=4", "ADDED ns/d rv=5", "CLOSED"})
	})
}

// No goroutine outlives its watch: when every watch has ended, the bubble
// holds only the test's own goroutine.
func TestNoGoroutinesRemainAfterWatchesEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{WatchBufferSize: 1})
		before := bubbleGoroutines(t)
		ctx, cancel := context.WithCancel(f.ctx)
		var ws []meta.WatchInterface
		for _, opts := range []meta.ListOptions{
			{}, {AllowWatchBookmarks: true}, {TimeoutSeconds: ptr(int64(5))}, {ResourceVersion: "0", LabelSelector: "a=b"},
		} {
			w, err := f.res.Watch(ctx, opts)
			if err != nil {
				t.Fatal(err)
			}
			ws = append(ws, w)
		}
		f.create(t, "a", "red", nil)
		f.create(t, "b", "red", nil) // cuts off the watchers that do not read
		ws[0].Stop()
		cancel()
		synctest.Wait()
		if after := bubbleGoroutines(t); len(after) != len(before) {
			t.Errorf("%d goroutines remain in the bubble, want %d:\n%s",
				len(after), len(before), strings.Join(after, "\n\n"))
		}
	})
}

// Every watcher of an event gets the same object: the server's own,
// shared and read-only, as client-go's informer caches are.
func TestWatchersShareObjects(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		w1 := f.watch(t, meta.ListOptions{})
		w2, err := client.New[*apiservertest.Widget](f.srv).Namespace("ns").Watch(f.ctx, meta.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer w2.Stop()
		f.create(t, "a", "red", map[string]string{"k": "v"})
		synctest.Wait()
		o1 := (<-w1.ResultChan()).Object.(*apiservertest.Widget)
		o2 := (<-w2.ResultChan()).Object.(*apiservertest.Widget)
		if o1 != o2 {
			t.Errorf("watchers got different objects %p and %p for one event, want one shared", o1, o2)
		}
	})
}

// A learner who changes an object from a watch (or an informer's cache)
// changes the server's own: the cache mutation detector reports it on the
// next read of that object and from CheckMutations, turned on by the
// option or by the environment variable.
func TestCacheMutationDetectorCatchesAChangedObject(t *testing.T) {
	for _, viaEnv := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			opts := apiserver.Options{CacheMutationDetector: !viaEnv}
			if viaEnv {
				t.Setenv(apiserver.CacheMutationDetectorEnv, "true")
			}
			f := newFixture(t, opts)
			w := f.watch(t, meta.ListOptions{})
			f.create(t, "a", "red", map[string]string{"k": "v"})
			synctest.Wait()
			if err := f.srv.CheckMutations(); err != nil {
				t.Fatalf("CheckMutations before any change: %v", err)
			}
			shared := (<-w.ResultChan()).Object.(*apiservertest.Widget)
			shared.Labels["k"] = "mutated" // the mistake
			const want = `Internal error occurred: cache mutation detected: widgets.test.kitchensync.io "ns/a" at resourceVersion 2 was changed`
			_, getErr := f.widgets.Get(f.ctx, "a", meta.GetOptions{})
			_, updErr := f.widgets.Update(f.ctx, meta.DeepCopy(shared), meta.UpdateOptions{})
			for _, err := range []error{getErr, updErr, f.srv.CheckMutations()} {
				if !meta.IsInternalError(err) || !strings.HasPrefix(err.Error(), want) {
					t.Errorf("viaEnv=%v: err = %v, want a 500 starting %q", viaEnv, err, want)
				}
			}
			shared.Labels["k"] = "v" // undone, or the fixture's cleanup reports it too
		})
	}
}

func TestWatchOptionErrors(t *testing.T) {
	tests := []struct {
		name string
		opts meta.ListOptions
		is   func(error) bool
		want string
	}{
		{"match without sendInitialEvents", meta.ListOptions{ResourceVersionMatch: meta.ResourceVersionMatchNotOlderThan},
			meta.IsInvalid, "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"},
		{"exact match", meta.ListOptions{SendInitialEvents: ptr(true), ResourceVersionMatch: meta.ResourceVersionMatchExact},
			meta.IsInvalid, `resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"`},
		{"continue", meta.ListOptions{Continue: "x"}, meta.IsInvalid, "continue: Forbidden"},
		{"bad resourceVersion", meta.ListOptions{ResourceVersion: "-3"}, meta.IsBadRequest, `invalid resource version: resourceVersion: Invalid value: "-3"`},
	}
	for _, tt := range tests {
		synctest.Test(t, func(t *testing.T) {
			f := newFixture(t, apiserver.Options{})
			f.create(t, "a", "red", nil)
			w, err := f.res.Watch(f.ctx, tt.opts)
			if err == nil {
				w.Stop()
			}
			if !tt.is(err) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s: err = %v, want one containing %q", tt.name, err, tt.want)
			}
		})
	}
}

func TestWatchListWithoutInitialEventsStartsNow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		f.create(t, "a", "red", nil)
		w := f.watch(t, meta.ListOptions{SendInitialEvents: ptr(false),
			ResourceVersionMatch: meta.ResourceVersionMatchNotOlderThan})
		f.create(t, "b", "red", nil)
		diffEvents(t, w, []string{"ADDED ns/b rv=3"})
	})
}
