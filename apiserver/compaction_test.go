package apiserver_test

import (
	"strings"
	"testing"
	"testing/synctest"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// As under kube-apiserver, whose watch cache keeps the recent events
// after etcd compacts: a watch from before the compaction is still
// served while inside the history window, and only one from what has
// left the window gets 410; but an exact list or a continue token from
// before the compaction, which that server reads from etcd, gets 410 at
// once, in its storage's words.
func TestCompactionKeepsTheWatchWindowNotTheLists(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{HistorySize: 4})
		f.create(t, "a", "red", nil) // rv 2
		f.create(t, "b", "red", nil) // rv 3
		page, err := f.res.List(f.ctx, meta.ListOptions{Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		f.create(t, "c", "red", nil) // rv 4
		f.srv.CompactHistory()
		w := f.watch(t, meta.ListOptions{ResourceVersion: "2"})
		diffEvents(t, w, []string{"ADDED ns/b rv=3", "ADDED ns/c rv=4"})
		_, err = f.res.List(f.ctx, meta.ListOptions{ResourceVersion: "2", ResourceVersionMatch: meta.ResourceVersionMatchExact})
		if !meta.IsExpired(err) || err.Error() != "The resourceVersion for the provided list is too old." {
			t.Errorf("exact list at 2 after the compaction: %v; want 410", err)
		}
		_, err = f.res.List(f.ctx, meta.ListOptions{Limit: 1, Continue: page.Continue})
		if !meta.IsExpired(err) || !strings.HasPrefix(err.Error(), "The provided continue parameter is too old") {
			t.Errorf("continue from 3 after the compaction: %v; want 410", err)
		}
		if _, err := f.res.List(f.ctx, meta.ListOptions{ResourceVersion: "4", ResourceVersionMatch: meta.ResourceVersionMatchExact}); err != nil {
			t.Errorf("exact list at the compaction's resourceVersion: %v", err)
		}
		f.create(t, "d", "red", nil) // rv 5
		f.create(t, "e", "red", nil) // rv 6: 2 has left the window of 4
		old := f.watch(t, meta.ListOptions{ResourceVersion: "1"})
		diffEvents(t, old, []string{"ERROR 410 too old resource version: 1 (2)", "CLOSED"})
	})
}

// The history also has a byte budget: what its events alone keep alive
// (the states that later writes replaced or deleted). Past it, the
// oldest events go and a watch from before them gets 410, while creates
// (which replace nothing) cost nothing, and the newest event stays.
func TestHistoryKeepsToItsByteBudget(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{HistoryBytes: 4000})
		a := f.create(t, "a", strings.Repeat("r", 1000), nil) // rv 2..7: creates hold nothing
		for _, name := range []string{"b", "c", "d", "e", "f"} {
			f.create(t, name, strings.Repeat("r", 1000), nil)
		}
		w := f.watch(t, meta.ListOptions{ResourceVersion: "1"})
		diffEvents(t, w, []string{"ADDED ns/a rv=2", "ADDED ns/b rv=3", "ADDED ns/c rv=4", "ADDED ns/d rv=5", "ADDED ns/e rv=6", "ADDED ns/f rv=7"})
		for i := range 4 { // rv 8..11: each holds the ~1.1 KB state it replaced
			a.Spec.Color = strings.Repeat(string(rune('s'+i)), 1000)
			a = f.update(t, a)
		}
		gone := f.watch(t, meta.ListOptions{ResourceVersion: "7"})
		diffEvents(t, gone, []string{"ERROR 410 too old resource version: 7 (8)", "CLOSED"})
		kept := f.watch(t, meta.ListOptions{ResourceVersion: "8"})
		diffEvents(t, kept, []string{"MODIFIED ns/a rv=9", "MODIFIED ns/a rv=10", "MODIFIED ns/a rv=11"})
	})
}
