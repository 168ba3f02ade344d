package apiserver_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// waitResult is what a read in its own goroutine answered, and after how
// long (virtual time).
type waitResult struct {
	after time.Duration
	rv    string
	err   error
}

// readInBackground runs read in a goroutine and returns the channel its
// result arrives on.
func readInBackground(read func() (string, error)) <-chan waitResult {
	start := time.Now()
	res := make(chan waitResult, 1)
	go func() {
		rv, err := read()
		res <- waitResult{time.Since(start), rv, err}
	}()
	return res
}

// The reads that wait for a resourceVersion the server has not reached,
// as the Kubernetes watch cache waits to catch up: lists (not older than,
// exact) and a watch-list.
func futureReads(f *fixture, rv string) map[string]func() (string, error) {
	list := func(match meta.ResourceVersionMatch) func() (string, error) {
		return func() (string, error) {
			l, err := f.res.List(f.ctx, meta.ListOptions{ResourceVersion: rv, ResourceVersionMatch: match})
			if err != nil {
				return "", err
			}
			return l.ResourceVersion, nil
		}
	}
	return map[string]func() (string, error){
		"list":       list(""),
		"exact list": list(meta.ResourceVersionMatchExact),
		"watch-list": func() (string, error) {
			w, err := f.res.Watch(f.ctx, meta.ListOptions{ResourceVersion: rv, SendInitialEvents: ptr(true),
				ResourceVersionMatch: meta.ResourceVersionMatchNotOlderThan, AllowWatchBookmarks: true})
			if err != nil {
				return "", err
			}
			defer w.Stop()
			// The initial-events-end bookmark (nothing exists), or an
			// ERROR event with the 504.
			ev := <-w.ResultChan()
			if st, ok := ev.Object.(*meta.Status); ok {
				return "", &meta.StatusError{ErrStatus: *st}
			}
			return ev.Object.GetObjectMeta().ResourceVersion, nil
		},
	}
}

// A resourceVersion the server does not reach within 3 seconds: 504,
// not a moment sooner, naming the resourceVersion it has.
func TestFutureResourceVersionTimesOutAfterThreeSeconds(t *testing.T) {
	for name := range futureReads(nil, "") {
		synctest.Test(t, func(t *testing.T) {
			f := newFixture(t, apiserver.Options{})
			res := readInBackground(futureReads(f, "5")[name])
			time.Sleep(3*time.Second - time.Nanosecond)
			synctest.Wait()
			if len(res) != 0 {
				t.Fatalf("%s: answered before 3s: %+v", name, <-res)
			}
			got := <-res
			want := "Timeout: Too large resource version: 5, current: 1"
			if !meta.IsTimeout(got.err) || got.err.Error() != want || got.after != 3*time.Second {
				t.Errorf("%s: after %v: %v, want %q after 3s", name, got.after, got.err, want)
			}
		})
	}
}

// A resourceVersion the server reaches while the read waits: served as
// usual, as soon as it is there.
func TestFutureResourceVersionArrivesInTime(t *testing.T) {
	for name := range futureReads(nil, "") {
		synctest.Test(t, func(t *testing.T) {
			f := newFixture(t, apiserver.Options{})
			f.create(t, "a", "red", nil) // rv 2
			res := readInBackground(futureReads(f, "3")[name])
			time.Sleep(time.Second)
			if err := f.widgets.Delete(f.ctx, "a", meta.DeleteOptions{}); err != nil { // rv 3
				t.Fatal(err)
			}
			got := <-res
			if got.err != nil || got.rv != "3" || got.after != time.Second {
				t.Errorf("%s: after %v: rv %q, %v; want rv 3 after 1s", name, got.after, got.rv, got.err)
			}
		})
	}
}

// A read waiting for a resourceVersion ends with its context.
func TestFutureResourceVersionWaitEndsWithContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		ctx, cancel := context.WithTimeout(f.ctx, time.Second)
		defer cancel()
		_, err := f.res.List(ctx, meta.ListOptions{ResourceVersion: "5"})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("List: %v, want context.DeadlineExceeded", err)
		}
	})
}
