package httpapi_test

import (
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// serveInBubble serves one GET of path on h inside a synctest bubble,
// calls during once the handler is blocked (e.g. its watch is open), and
// returns the body and how long, in virtual time, the handler took.
func serveInBubble(t *testing.T, h *httpapi.Handler, path string, during func()) (string, time.Duration) {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", path, nil)
	req.Host = "localhost"
	start := time.Now()
	done := make(chan time.Duration)
	go func() {
		h.ServeHTTP(rec, req)
		done <- time.Since(start)
	}()
	synctest.Wait()
	during()
	took := <-done
	return rec.Body.String(), took
}

// createWidget creates widget name in namespace default, labelled app=other.
func createWidget(t *testing.T, srv *apiserver.Server, name string) {
	t.Helper()
	w := apiservertest.NewWidget("default", name)
	w.Labels = map[string]string{"app": "other"}
	if _, err := client.New[*apiservertest.Widget](srv).Create(ctx, w, meta.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// A watch that allows bookmarks gets one 2 seconds before its
// timeoutSeconds end, as from the real server's watch cache, although
// it heard no event (the write it could report is filtered out).
func TestWatchBookmarkBeforeTimeoutOverHTTP(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := apiservertest.NewServer(t)
		body, took := serveInBubble(t, httpapi.NewHandler(srv),
			wPath+"?watch=true&allowWatchBookmarks=true&timeoutSeconds=5&labelSelector=app%3Dshop",
			func() { createWidget(t, srv, "w1") })
		want := `{"type":"BOOKMARK","object":{"apiVersion":"test.kitchensync.io/v1","kind":"Widget","metadata":{"resourceVersion":"2"}}}`
		if diff := cmp.Diff([]string{want}, strings.Split(strings.TrimSpace(body), "\n")); diff != "" || took != 5*time.Second {
			t.Errorf("after %v, stream (-want +got):\n%s", took, diff)
		}
	})
}

// A list from a resourceVersion the server has not reached waits 3
// seconds for it, then answers 504 with a Retry-After, as the real
// server's watch cache does.
func TestListTooLargeResourceVersionWaits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := httpapi.NewHandler(seeded(t, apiserver.Options{}))
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", wPath+"?resourceVersion=9&resourceVersionMatch=Exact", nil)
		req.Host = "localhost"
		start := time.Now()
		h.ServeHTTP(rec, req)
		want := failure(504, "Timeout", `Timeout: Too large resource version: 9, current: 5`,
			`{"causes":[{"reason":"ResourceVersionTooLarge","message":"Too large resource version"}],"retryAfterSeconds":1}`)
		if diff := cmp.Diff(decode(t, want), decode(t, rec.Body.String())); diff != "" {
			t.Errorf("body (-want +got):\n%s", diff)
		}
		if took := time.Since(start); rec.Code != 504 || rec.Header().Get("Retry-After") != "1" || took != 3*time.Second {
			t.Errorf("after %v: %d, Retry-After %q; want 504 with Retry-After 1 after 3s", took, rec.Code, rec.Header().Get("Retry-After"))
		}
	})
}
