package apiserver_test

import (
	"testing"
	"testing/synctest"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// As under a real API server, whose watch cache keeps the recent events
// after etcd compacts: a watch, an exact list and a continue token from
// before the compaction are still served while inside the history
// window; only what has left the window gets 410.
func TestCompactionKeepsTheHistoryWindow(t *testing.T) {
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
		exact, err := f.res.List(f.ctx, meta.ListOptions{ResourceVersion: "2", ResourceVersionMatch: meta.ResourceVersionMatchExact})
		if err != nil || len(exact.Items) != 1 {
			t.Fatalf("exact list at 2 after the compaction: %v, %d items; want a", err, len(exact.Items))
		}
		next, err := f.res.List(f.ctx, meta.ListOptions{Limit: 1, Continue: page.Continue})
		if err != nil || len(next.Items) != 1 || next.Items[0].GetObjectMeta().Name != "b" {
			t.Fatalf("continue after the compaction: %v, %+v; want b", err, next)
		}
		f.create(t, "d", "red", nil) // rv 5
		f.create(t, "e", "red", nil) // rv 6: 2 has left the window of 4
		old := f.watch(t, meta.ListOptions{ResourceVersion: "1"})
		diffEvents(t, old, []string{"ERROR 410 too old resource version: 1 (2)", "CLOSED"})
	})
}
