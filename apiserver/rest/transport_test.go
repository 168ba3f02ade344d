package rest_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/rest"
)

// TestRetryAfter checks that a 429 is retried after the Retry-After the
// server sends, within the retry budget, and returned when it runs out.
func TestRetryAfter(t *testing.T) {
	cases := []struct {
		name       string
		fails      int
		maxRetries int
		wantErr    bool
		wantWait   time.Duration
	}{
		{"two 429s, then success", 2, 0, false, 6 * time.Second},
		{"ten 429s: the default budget", 10, 0, false, 30 * time.Second},
		{"eleven 429s: over the default budget", 11, 0, true, 30 * time.Second},
		{"no retries", 1, -1, true, 0},
		{"one retry allowed", 3, 1, true, 3 * time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := apiservertest.NewServer(t)
				c := newClient(t, srv, rest.Config{QPS: -1, MaxRetries: tc.maxRetries})
				srv.FailNext(apiserver.VerbList, tc.fails, meta.NewTooManyRequests("slow down", 3))
				start := time.Now()
				_, err := c.Resource(apiservertest.WidgetsResource).List(t.Context(), meta.ListOptions{})
				if got := meta.IsTooManyRequests(err); got != tc.wantErr {
					t.Errorf("List = %v, want a 429: %t", err, tc.wantErr)
				}
				if got := time.Since(start); got != tc.wantWait {
					t.Errorf("List took %v, want %v (3s per retry)", got, tc.wantWait)
				}
			})
		})
	}
}

// TestNoRetryWithoutRetryAfter checks that a 500 without Retry-After is
// returned at once, typed.
func TestNoRetryWithoutRetryAfter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := apiservertest.NewServer(t)
		c := newClient(t, srv, rest.Config{QPS: -1})
		srv.FailNext(apiserver.VerbGet, 1, meta.NewInternalError(errors.New("disk on fire")))
		_, err := c.Resource(apiservertest.WidgetsResource).Namespace("a").Get(t.Context(), "w", meta.GetOptions{})
		if !meta.IsInternalError(err) || err.Error() != "Internal error occurred: disk on fire" {
			t.Errorf("Get = %v, want the server's 500", err)
		}
		if n := srv.RequestCount(apiserver.VerbGet, apiservertest.WidgetsResource.GroupResource()); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
	})
}

// TestRateLimit checks the token bucket: a burst goes out at once, the
// rest at QPS.
func TestRateLimit(t *testing.T) {
	cases := []struct {
		name     string
		cfg      rest.Config
		requests int
		want     time.Duration
	}{
		{"defaults: a burst of 10", rest.Config{}, 10, 0},
		{"defaults: 5 more at 5 per second", rest.Config{}, 15, time.Second},
		{"QPS 100, burst 1", rest.Config{QPS: 100, Burst: 1}, 11, 100 * time.Millisecond},
		{"off", rest.Config{QPS: -1}, 1000, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := apiservertest.NewServer(t)
				c := newClient(t, srv, tc.cfg)
				start := time.Now()
				for range tc.requests {
					if _, err := c.Resource(apiservertest.GadgetsResource).List(t.Context(), meta.ListOptions{}); err != nil {
						t.Fatal(err)
					}
				}
				if got := time.Since(start); got != tc.want {
					t.Errorf("%d requests took %v, want %v", tc.requests, got, tc.want)
				}
			})
		})
	}
}

// TestTimeout checks that Config.Timeout bounds a request, and leaves a
// watch alone.
func TestTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := apiservertest.NewServer(t)
		c := newClient(t, srv, rest.Config{Timeout: time.Second})
		widgets := c.Resource(apiservertest.WidgetsResource)
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		w, err := widgets.Watch(ctx, meta.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		srv.SetLatency(2 * time.Second)
		start := time.Now()
		_, err = widgets.List(t.Context(), meta.ListOptions{})
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != time.Second {
			t.Errorf("List = %v after %v, want the deadline after 1s", err, time.Since(start))
		}
		time.Sleep(time.Minute)
		srv.SetLatency(0)
		if _, err := widgets.Create(t.Context(), apiservertest.NewWidget("a", "w"), meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		if ev := <-w.ResultChan(); ev.Type != meta.EventAdded {
			t.Errorf("a minute on, the watch got %s, want ADDED", ev.Type)
		}
	})
}

// TestNotAStatus checks that an error body that is not a Status (a
// proxy's page) still becomes a typed error, by its code.
func TestNotAStatus(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "<html>gateway says no</html>", http.StatusNotFound)
		})
		ts := newRawServer(t, h)
		c, err := rest.New(&ts, apiservertest.NewScheme())
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Resource(apiservertest.GadgetsResource).Get(t.Context(), "g", meta.GetOptions{})
		want := "the server responded with the status code 404 but did not return more information: <html>gateway says no</html>"
		if !meta.IsNotFound(err) || err.Error() != want {
			t.Errorf("Get = %v, want a NotFound saying %q", err, want)
		}
	})
}
