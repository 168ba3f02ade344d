package apiserver_test

import (
	"fmt"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// wantAdds returns the events of creating widgets w-from..w-to in "ns",
// as describe prints them: the first create has resourceVersion 2.
func wantAdds(from, to int) []string {
	var out []string
	for i := from; i <= to; i++ {
		out = append(out, fmt.Sprintf("ADDED ns/w-%03d rv=%d", i, i+2))
	}
	return out
}

// A watcher that does not read while many more events than its channel
// holds are written gets every one of them, in order, once it reads: its
// channel is topped up from the history where it stopped. Selectors and
// the namespace still apply.
func TestLaggingWatcherGetsEveryEventInOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		all := f.watch(t, meta.ListOptions{ResourceVersion: f.srv.ResourceVersion()})
		odd := f.watch(t, meta.ListOptions{ResourceVersion: f.srv.ResourceVersion(), LabelSelector: "odd=true"})
		other, err := f.srv.Resource(apiservertest.WidgetsResource).Namespace("other").Watch(f.ctx, meta.ListOptions{ResourceVersion: f.srv.ResourceVersion()})
		if err != nil {
			t.Fatal(err)
		}
		defer other.Stop()
		const n = 300 // more than two channels' worth
		var wantOdd []string
		for i := range n {
			labels := map[string]string{"odd": fmt.Sprint(i%2 == 1)}
			f.create(t, fmt.Sprintf("w-%03d", i), "red", labels)
			if i%2 == 1 {
				wantOdd = append(wantOdd, wantAdds(i, i)...)
			}
			if i%50 == 0 {
				synctest.Wait() // let the fan-out catch up now and then
			}
		}
		if diff := cmp.Diff(wantAdds(0, n-1), drain(all)); diff != "" {
			t.Errorf("all: events mismatch (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(wantOdd, drain(odd)); diff != "" {
			t.Errorf("odd=true: events mismatch (-want +got):\n%s", diff)
		}
		diffEvents(t, other, nil)
	})
}

// A watcher whose next event leaves the history before it has read it
// is cut off after the events already in its channel, even when its
// WatchBufferSize would allow more.
func TestLaggingWatcherCutOffWhenHistoryMovesOn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{HistorySize: 200, WatchBufferSize: 1000})
		w := f.watch(t, meta.ListOptions{ResourceVersion: f.srv.ResourceVersion()})
		for i := range 400 {
			f.create(t, fmt.Sprintf("w-%03d", i), "red", nil)
			synctest.Wait() // no event read ahead from the history
		}
		got := drain(w)
		if len(got) == 0 || got[len(got)-1] != "CLOSED" {
			t.Fatalf("the watch did not end: %d events, last %q", len(got), got[len(got)-1])
		}
		if diff := cmp.Diff(wantAdds(0, len(got)-2), got[:len(got)-1]); diff != "" {
			t.Errorf("events before the close mismatch (-want +got):\n%s", diff)
		}
	})
}

// Readers that run alongside a writer, fast or slowed down by the
// scheduler, each get every event exactly once and in order, whether the
// fan-out or their own goroutine delivers it. (Run with -race.)
func TestConcurrentReadersGetEveryEventInOrder(t *testing.T) {
	f := newFixture(t, apiserver.Options{WatchBufferSize: 5000, HistorySize: 5000})
	const n, readers = 2000, 8
	rv := f.srv.ResourceVersion()
	var wg sync.WaitGroup
	got := make([][]string, readers)
	for r := range readers {
		w := f.watch(t, meta.ListOptions{ResourceVersion: rv})
		wg.Go(func() {
			for ev := range w.ResultChan() {
				got[r] = append(got[r], describe(ev))
				if len(got[r]) == n {
					w.Stop()
				}
			}
		})
	}
	for i := range n {
		f.create(t, fmt.Sprintf("w-%04d", i), "red", nil)
	}
	wg.Wait()
	want := make([]string, n)
	for i := range want {
		want[i] = fmt.Sprintf("ADDED ns/w-%04d rv=%d", i, i+2)
	}
	for r := range readers {
		if diff := cmp.Diff(want, got[r]); diff != "" {
			t.Errorf("reader %d: events mismatch (-want +got):\n%s", r, diff)
		}
	}
}
