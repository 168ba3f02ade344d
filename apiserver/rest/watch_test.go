package rest_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/rest"
	"github.com/kitchensync/kitchensync/informer"
)

// Both clients serve the informer as they are.
var (
	_ informer.ListerWatcher = (*rest.ResourceClient)(nil)
	_ informer.ListerWatcher = (*apiserver.ResourceClient)(nil)
)

// collect reads a watch in the background until its channel closes, and
// returns a function that waits for that and returns each event described
// as "TYPE name rv".
func collect(w meta.WatchInterface) func() []string {
	done := make(chan []string)
	go func() { done <- describe(w) }()
	return func() []string { return <-done }
}

func describe(w meta.WatchInterface) []string {
	var out []string
	for ev := range w.ResultChan() {
		m := ev.Object.GetObjectMeta()
		line := fmt.Sprintf("%s %s %s", ev.Type, m.Name, m.ResourceVersion)
		if ev.Type == meta.EventBookmark && m.Annotations[meta.InitialEventsEndAnnotation] == "true" {
			line += " initial-events-end"
		}
		if ev.Type == meta.EventError {
			line = fmt.Sprintf("ERROR %d %s", ev.Object.(*meta.Status).Code, ev.Object.(*meta.Status).Reason)
		}
		out = append(out, line)
	}
	return out
}

// writes makes the same changes on a server: two creates, an update, a
// delete, of objects whose names start with prefix.
func writes(t *testing.T, srv *apiserver.Server, prefix string) {
	t.Helper()
	ctx := t.Context()
	c := srv.Resource(apiservertest.WidgetsResource)
	for _, name := range []string{prefix + "1", prefix + "2"} {
		if _, err := c.Create(ctx, apiservertest.NewWidget("a", name), meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Namespace("a").Patch(ctx, prefix+"1", meta.MergePatchType, []byte(`{"spec":{"size":2}}`), meta.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := c.Namespace("a").Delete(ctx, prefix+"2", meta.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
}

// TestWatchSameAsInProcess watches two servers that see the same writes,
// one in process and one over HTTP, in each watch mode, and expects the
// same events.
func TestWatchSameAsInProcess(t *testing.T) {
	yes := true
	modes := []struct {
		name string
		opts meta.ListOptions
	}{
		{"from 0", meta.ListOptions{ResourceVersion: "0"}},
		{"from 2", meta.ListOptions{ResourceVersion: "2"}},
		{"bookmarks", meta.ListOptions{ResourceVersion: "0", AllowWatchBookmarks: true}},
		{"watch-list", meta.ListOptions{SendInitialEvents: &yes, ResourceVersionMatch: meta.ResourceVersionMatchNotOlderThan, AllowWatchBookmarks: true}},
		{"field selector", meta.ListOptions{ResourceVersion: "0", FieldSelector: "metadata.name!=new2"}},
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				local, remote := apiservertest.NewServer(t), apiservertest.NewServer(t)
				c := newClient(t, remote, rest.Config{QPS: -1})
				var got [2][]string
				for i, r := range []resource{local.Resource(apiservertest.WidgetsResource), c.Resource(apiservertest.WidgetsResource)} {
					srv := []*apiserver.Server{local, remote}[i]
					writes(t, srv, "old") // before the watch: seen as state or as history
					ctx, cancel := context.WithCancel(t.Context())
					w, err := r.Watch(ctx, m.opts)
					if err != nil {
						t.Fatal(err)
					}
					events := collect(w)
					writes(t, srv, "new") // seen live
					synctest.Wait()
					cancel()
					got[i] = events()
				}
				if diff := cmp.Diff(got[0], got[1]); diff != "" {
					t.Errorf("events differ (-in process +HTTP):\n%s", diff)
				}
				if len(got[1]) == 0 {
					t.Error("no events at all")
				}
			})
		})
	}
}

// TestWatchListOverHTTP pins a watch-list stream: the current state as
// ADDED, the bookmark that ends the initial events, then live events.
func TestWatchListOverHTTP(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := apiservertest.NewServer(t)
		c := newClient(t, srv, rest.Config{})
		writes(t, srv, "old")
		ctx, cancel := context.WithCancel(t.Context())
		yes := true
		w, err := c.Resource(apiservertest.WidgetsResource).Watch(ctx, meta.ListOptions{
			SendInitialEvents: &yes, ResourceVersionMatch: meta.ResourceVersionMatchNotOlderThan, AllowWatchBookmarks: true,
		})
		if err != nil {
			t.Fatal(err)
		}
		events := collect(w)
		writes(t, srv, "new")
		synctest.Wait()
		cancel()
		want := []string{
			"ADDED old1 4",
			"BOOKMARK  5 initial-events-end",
			"ADDED new1 6", "ADDED new2 7", "MODIFIED new1 8", "DELETED new2 9",
		}
		if diff := cmp.Diff(want, events()); diff != "" {
			t.Errorf("events (-want +got):\n%s", diff)
		}
	})
}

// TestWatchEnds checks that a watch over HTTP ends quietly when the
// server cuts it, on Stop, and when its context ends.
func TestWatchEnds(t *testing.T) {
	cases := []struct {
		name string
		// end ends the watch w on srv.
		end  func(srv *apiserver.Server, w meta.WatchInterface, cancel context.CancelFunc)
		want []string
	}{
		{"server cuts the watch", func(srv *apiserver.Server, _ meta.WatchInterface, _ context.CancelFunc) {
			srv.CloseWatches()
		}, nil},
		{"Stop", func(_ *apiserver.Server, w meta.WatchInterface, _ context.CancelFunc) {
			w.Stop()
			w.Stop()
		}, nil},
		{"context done", func(_ *apiserver.Server, _ meta.WatchInterface, cancel context.CancelFunc) {
			cancel()
		}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := apiservertest.NewServer(t)
				c := newClient(t, srv, rest.Config{})
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()
				w, err := c.Resource(apiservertest.WidgetsResource).Watch(ctx, meta.ListOptions{ResourceVersion: srv.ResourceVersion()})
				if err != nil {
					t.Fatal(err)
				}
				events := collect(w)
				synctest.Wait()
				tc.end(srv, w, cancel)
				if diff := cmp.Diff(tc.want, events()); diff != "" {
					t.Errorf("events (-want +got):\n%s", diff)
				}
			})
		})
	}
}

// TestWatchExpired checks that a watch from a resourceVersion older than
// the server's history gets a 410 Expired Status as an ERROR event, and
// then ends.
func TestWatchExpired(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := apiservertest.NewServerWithOptions(t, apiserver.Options{CompactionDropsHistory: true})
		c := newClient(t, srv, rest.Config{})
		writes(t, srv, "old")
		srv.CompactHistory()
		w, err := c.Resource(apiservertest.WidgetsResource).Watch(t.Context(), meta.ListOptions{ResourceVersion: "2"})
		if err != nil {
			t.Fatal(err)
		}
		ev := <-w.ResultChan()
		if err := meta.FromObject(ev.Object); ev.Type != meta.EventError || !meta.IsExpired(err) {
			t.Fatalf("first event %s %v, want ERROR with 410 Expired", ev.Type, err)
		}
		if ev, ok := <-w.ResultChan(); ok {
			t.Errorf("after ERROR: %s event, want the channel closed", ev.Type)
		}
	})
}

// TestWatchRefused checks that an error before the stream starts is
// returned by Watch, typed.
func TestWatchRefused(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := apiservertest.NewServer(t)
		c := newClient(t, srv, rest.Config{})
		srv.FailNext(apiserver.VerbWatch, 1, meta.NewInternalError(fmt.Errorf("boom")))
		_, err := c.Resource(apiservertest.WidgetsResource).Watch(t.Context(), meta.ListOptions{})
		if !meta.IsInternalError(err) {
			t.Errorf("Watch = %v, want a 500 InternalError", err)
		}
		_, err = c.Resource(apiservertest.WidgetsResource).Watch(t.Context(), meta.ListOptions{LabelSelector: "a in b"})
		if !meta.IsBadRequest(err) {
			t.Errorf("Watch with a bad selector = %v, want a 400 BadRequest", err)
		}
	})
}
