package apiserver_test

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// checkReplay is the invariant behind every informer: applying a watch's
// events in order to the list it started from gives the server's current
// state, and resourceVersions only go up.
func checkReplay(t *testing.T, start *meta.List, events []meta.Event, now *meta.List) {
	t.Helper()
	state := map[string]string{} // key -> resourceVersion
	for _, obj := range start.Items {
		m := obj.GetObjectMeta()
		state[m.Namespace+"/"+m.Name] = m.ResourceVersion
	}
	last, _ := strconv.ParseInt(start.ResourceVersion, 10, 64)
	for i, ev := range events {
		m := ev.Object.GetObjectMeta()
		rv, _ := strconv.ParseInt(m.ResourceVersion, 10, 64)
		if rv <= last {
			t.Fatalf("event %d (%s %s) has rv %d after rv %d", i, ev.Type, m.Name, rv, last)
		}
		last = rv
		key := m.Namespace + "/" + m.Name
		switch ev.Type {
		case meta.EventDeleted:
			delete(state, key)
		default:
			state[key] = m.ResourceVersion
		}
	}
	want := map[string]string{}
	for _, obj := range now.Items {
		m := obj.GetObjectMeta()
		want[m.Namespace+"/"+m.Name] = m.ResourceVersion
	}
	if diff := cmp.Diff(want, state); diff != "" {
		t.Errorf("list + events != current state (-want +got)\n%s", diff)
	}
}

// Writers race on a few keys while a watcher started from a list records
// every event; replaying them must reproduce the final list exactly.
func TestConcurrentWritesReplayToTheCurrentState(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		ctx := context.Background()
		for i := range 3 {
			f.create(t, fmt.Sprintf("w%d", i), "red", nil)
		}
		start, err := f.res.List(ctx, meta.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		w := f.watch(t, meta.ListOptions{ResourceVersion: start.ResourceVersion})
		var events []meta.Event
		got := make(chan struct{})
		go func() {
			defer close(got)
			for ev := range w.ResultChan() {
				events = append(events, ev)
			}
		}()
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Go(func() {
				for i := range 50 {
					name := fmt.Sprintf("w%d", (g+i)%6)
					cur, err := f.widgets.Get(ctx, name, meta.GetOptions{})
					switch {
					case meta.IsNotFound(err):
						_, _ = f.widgets.Create(ctx, apiservertest.NewWidget("ns", name), meta.CreateOptions{})
					case i%5 == 0:
						_ = f.widgets.Delete(ctx, name, meta.DeleteOptions{})
					case err == nil:
						cur.Spec.Size++
						_, _ = f.widgets.Update(ctx, cur, meta.UpdateOptions{}) // conflicts are fine
					}
				}
			})
		}
		wg.Wait()
		synctest.Wait()
		w.Stop()
		<-got
		now, err := f.res.List(ctx, meta.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if now.ResourceVersion != f.srv.ResourceVersion() {
			t.Errorf("list rv %s, server rv %s", now.ResourceVersion, f.srv.ResourceVersion())
		}
		checkReplay(t, start, events, now)
	})
}
