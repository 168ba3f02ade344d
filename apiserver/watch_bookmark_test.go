package apiserver_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Like the real server, a watch with bookmarks gets one every interval,
// whether or not anything happened since the last: the second minute
// repeats the first's resourceVersion.
func TestWatchBookmarksOnATimer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{BookmarkInterval: time.Minute})
		w := f.watch(t, meta.ListOptions{ResourceVersion: "0", AllowWatchBookmarks: true, LabelSelector: "x=y"})
		f.create(t, "a", "red", nil) // filtered out: only a bookmark tells the watcher
		time.Sleep(time.Minute - time.Nanosecond)
		diffEvents(t, w, nil)
		time.Sleep(time.Nanosecond)
		diffEvents(t, w, []string{"BOOKMARK rv=2"})
		time.Sleep(time.Minute) // nothing new: the same resourceVersion again
		diffEvents(t, w, []string{"BOOKMARK rv=2"})
	})
}

// The real server's watch cache sends a last bookmark 2 seconds before a
// watch's timeout, even to a watch that hears no event (here every write
// is filtered out), so that the client's re-watch starts from a recent
// resourceVersion; then the watch closes. A watch that started with the
// server's latest resourceVersion gets none until the server moves on.
func TestWatchBookmarkBeforeTimeout(t *testing.T) {
	for _, tt := range []struct {
		name  string
		write bool
		want  []string
	}{
		{"the server moved on", true, []string{"BOOKMARK rv=2"}},
		{"nothing happened", false, nil},
	} {
		synctest.Test(t, func(t *testing.T) {
			f := newFixture(t, apiserver.Options{})
			w := f.watch(t, meta.ListOptions{AllowWatchBookmarks: true, TimeoutSeconds: ptr(int64(5)), LabelSelector: "x=y"})
			if tt.write {
				f.create(t, "a", "red", nil)
			}
			time.Sleep(3*time.Second - time.Nanosecond)
			diffEvents(t, w, nil)
			time.Sleep(time.Nanosecond)
			diffEvents(t, w, tt.want)
			time.Sleep(2 * time.Second)
			diffEvents(t, w, []string{"CLOSED"})
		})
	}
}

// Periodic bookmarks and the pre-timeout one together: every minute from
// the start, then 2 seconds before the deadline, which here comes from
// the context, as the real server takes it from the request's.
func TestWatchBookmarksUntilContextDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{BookmarkInterval: time.Minute})
		keep := map[string]string{"keep": "1"}
		f.create(t, "b", "red", keep) // rv 2, the watch starts after it
		ctx, cancel := context.WithTimeout(f.ctx, 150*time.Second)
		defer cancel()
		w, err := f.res.Watch(ctx, meta.ListOptions{AllowWatchBookmarks: true, LabelSelector: "keep=1"})
		if err != nil {
			t.Fatal(err)
		}
		f.create(t, "c", "red", nil) // rv 3, not selected: news, but no event
		start := time.Now()
		var got []string
		for ev := range w.ResultChan() {
			got = append(got, time.Since(start).String()+" "+describe(ev))
			if len(got) == 2 {
				f.create(t, "a", "red", keep)
			}
		}
		want := []string{"0s ADDED ns/b rv=2", "1m0s BOOKMARK rv=3", "1m0s ADDED ns/a rv=4", "2m0s BOOKMARK rv=4", "2m28s BOOKMARK rv=4"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("events (-want +got):\n%s", diff)
		}
	})
}

// A watch of 2 seconds or less ends before its pre-timeout bookmark would
// be due, and one without bookmarks never gets any.
func TestWatchNoBookmarkWhenNotAskedOrTooShort(t *testing.T) {
	for _, opts := range []meta.ListOptions{
		{AllowWatchBookmarks: true, TimeoutSeconds: ptr(int64(1))},
		{TimeoutSeconds: ptr(int64(5))},
	} {
		synctest.Test(t, func(t *testing.T) {
			f := newFixture(t, apiserver.Options{})
			w := f.watch(t, opts)
			time.Sleep(10 * time.Second)
			diffEvents(t, w, []string{"CLOSED"})
		})
	}
}

// A watch from a resourceVersion the server has not reached gets no
// bookmark below it: the real server sends only newer ones.
func TestWatchBookmarkNeverBelowStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		w := f.watch(t, meta.ListOptions{ResourceVersion: "3", AllowWatchBookmarks: true, TimeoutSeconds: ptr(int64(10))})
		f.create(t, "a", "red", nil) // rv 2: before the start, not sent
		time.Sleep(10 * time.Second)
		diffEvents(t, w, []string{"CLOSED"})
	})
}
