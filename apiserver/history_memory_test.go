package apiserver_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// raceEnabled is set by race_test.go when the tests run with -race.
var raceEnabled bool

// bigUpdates creates the widget "big" in namespace "ns" with a 1 MiB
// spec and updates it n times, each time to a new 1 MiB value: the
// states the history keeps are 1 MiB each. (A 1 MiB annotation would be
// refused: annotations are capped at 256 KiB, as in Kubernetes.) It
// returns the last resourceVersion.
func bigUpdates(tb testing.TB, srv *apiserver.Server, n int) int64 {
	tb.Helper()
	ctx := context.Background()
	widgets := client.New[*apiservertest.Widget](srv).Namespace("ns")
	w := apiservertest.NewWidget("ns", "big")
	w.Spec.Color = strings.Repeat("a", 1<<20)
	w, err := widgets.Create(ctx, w, meta.CreateOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	for i := range n {
		w.Spec.Color = strings.Repeat(string(rune('b'+i%25)), 1<<20-i%2)
		if w, err = widgets.Update(ctx, w, meta.UpdateOptions{}); err != nil {
			tb.Fatalf("update %d: %v", i, err)
		}
	}
	return mustRV(tb, w.ResourceVersion)
}

func mustRV(tb testing.TB, rv string) int64 {
	var n int64
	if _, err := fmt.Sscan(rv, &n); err != nil {
		tb.Fatal(err)
	}
	return n
}

// 400 updates of a 1 MiB object keep the live heap within a few times
// the history's byte budget, in memory and on disk: the history keeps
// only the states that fit in Options.HistoryBytes (8½ MiB: the last 8
// updates), each held as its JSON and as decoded, and a watch from before
// them gets 410. Before the budget, the history kept all 400 states
// (about 800 MiB).
//
// Under the race detector, whose checks make each 1 MiB encoding tens of
// times slower, 24 updates: three times what the budget keeps.
func TestBigUpdatesKeepToTheHistoryBudget(t *testing.T) {
	const budget = 17 << 19 // 8½ MiB: 8 states of 1 MiB and a little, not 9
	updates := 400
	if raceEnabled {
		updates = 24
	}
	for _, durable := range []bool{false, true} {
		t.Run(fmt.Sprintf("durable=%t", durable), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				before := liveHeap()
				srv := bigServer(t, apiserver.Options{HistoryBytes: budget}, durable)
				last := bigUpdates(t, srv, updates)
				heap := int64(liveHeap()) - int64(before)
				if bound := int64(3*budget + 8<<20); heap > bound {
					t.Errorf("live heap after %d updates of 1 MiB: %d MiB, want at most %d MiB (3 × HistoryBytes + 8 MiB)", updates, heap>>20, bound>>20)
				} else {
					t.Logf("live heap after %d updates of 1 MiB: %d MiB (HistoryBytes 8.5 MiB)", updates, heap>>20)
				}
				checkBigHistory(t, srv, last)
				runtime.KeepAlive(srv)
			})
		})
	}
}

// bigServer is a server with opts, in memory or on disk.
func bigServer(t *testing.T, opts apiserver.Options, durable bool) *apiserver.Server {
	if !durable {
		return apiservertest.NewServerWithOptions(t, opts)
	}
	srv, err := apiserver.Open(apiservertest.NewScheme(), t.TempDir(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// checkBigHistory checks that the history ending at last holds exactly
// the last 8 updates: a watch from the resourceVersion before them gets
// all 8, and one from before that, or from the first update, 410.
func checkBigHistory(t *testing.T, srv *apiserver.Server, last int64) {
	t.Helper()
	res := srv.Resource(apiservertest.WidgetsResource)
	oldest := last - 8 // the oldest resourceVersion a watch may start from
	var want []string
	for rv := oldest + 1; rv <= last; rv++ {
		want = append(want, fmt.Sprintf("MODIFIED ns/big rv=%d", rv))
	}
	for _, c := range []struct {
		from int64
		want []string
	}{
		{oldest, want},
		{oldest - 1, []string{fmt.Sprintf("ERROR 410 too old resource version: %d (%d)", oldest-1, oldest), "CLOSED"}},
		{2, []string{fmt.Sprintf("ERROR 410 too old resource version: 2 (%d)", oldest), "CLOSED"}},
	} {
		w, err := res.Watch(context.Background(), meta.ListOptions{ResourceVersion: fmt.Sprint(c.from)})
		if err != nil {
			t.Fatal(err)
		}
		diffEvents(t, w, c.want)
		w.Stop()
	}
}

// BenchmarkBigUpdates makes 400 updates of a 1 MiB object on a server
// with the default options, and reports the live heap after them (after
// a collection): what the history's byte budget ([apiserver.DefaultHistoryBytes],
// 64 MiB) lets it keep.
//
//	go test -run '^$' -bench BigUpdates -benchtime 3x ./apiserver/
func BenchmarkBigUpdates(b *testing.B) {
	for b.Loop() {
		before := liveHeap()
		srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{})
		bigUpdates(b, srv, 400)
		b.ReportMetric(float64(int64(liveHeap())-int64(before))/(1<<20), "heap-MiB")
		runtime.KeepAlive(srv)
	}
}
