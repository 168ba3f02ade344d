package httpapi_test

import (
	"context"
	"net/http"
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

func TestPaging(t *testing.T) {
	ts := serve(t, seeded(t, apiserver.Options{}))
	first := do(t, ts, "GET", "/apis/test.kitchensync.io/v1/widgets?limit=2", "")
	om := first.Body.(map[string]any)["metadata"].(map[string]any)
	token, _ := om["continue"].(string)
	if token == "" || om["remainingItemCount"] != 1.0 || len(first.Body.(map[string]any)["items"].([]any)) != 2 {
		t.Fatalf("first page: %s", first.Raw)
	}
	second := do(t, ts, "GET", "/apis/test.kitchensync.io/v1/widgets?limit=2&continue="+token, "")
	want := `{"apiVersion":"test.kitchensync.io/v1","kind":"WidgetList","metadata":{"resourceVersion":"5"},"items":[` + w3JSON + `]}`
	if diff := cmp.Diff(decode(t, want), second.Body); diff != "" {
		t.Errorf("second page (-want +got):\n%s", diff)
	}
}

// TestTooLarge: as on kube-apiserver with etcd, a body over 3 MiB is
// 413 and never read to the end; an object under that but over the
// server's limit (etcd's 1.5 MiB) is refused as etcd refuses it: 500
// "etcdserver: request is too large", without a reason.
func TestTooLarge(t *testing.T) {
	big := func(n int) string {
		return `{"metadata":{"name":"big"},"spec":{"tags":["` + strings.Repeat("x", n) + `"]}}`
	}
	const etcdTooLarge = `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"etcdserver: request is too large","code":500}`
	tests := []struct {
		name string
		srv  apiserver.Options
		opts []httpapi.Option
		body string
		code int
		want string
	}{{
		name: "over the default request limit (3 MiB): not read to the end",
		body: big(4 << 20),
		code: 413,
		want: failure(413, "RequestEntityTooLarge", "Request entity too large: limit is 3145728", ""),
	}, {
		name: "over a chosen request limit",
		opts: []httpapi.Option{httpapi.WithMaxRequestBytes(1000)},
		body: big(2000),
		code: 413,
		want: failure(413, "RequestEntityTooLarge", "Request entity too large: limit is 1000", ""),
	}, {
		name: "a readable body, but the object is over etcd's 1.5 MiB",
		body: big(2 << 20),
		code: 500,
		want: etcdTooLarge,
	}, {
		name: "a readable body, but the object is over the server's chosen limit",
		srv:  apiserver.Options{MaxObjectBytes: 500},
		body: big(1000),
		code: 500,
		want: etcdTooLarge,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ts := serve(t, seeded(t, tc.srv), tc.opts...)
			got := do(t, ts, "POST", wPath, tc.body, "Content-Type", jsonType)
			if diff := cmp.Diff(decode(t, tc.want), got.Body); diff != "" || got.Code != tc.code {
				t.Errorf("code %d, want %d; body (-want +got):\n%s", got.Code, tc.code, diff)
			}
		})
	}
}

// TestWatchTimeout runs the handler without a network, inside a bubble
// where time is virtual: a watch with timeoutSeconds ends by itself after
// that long, and the handler returns.
func TestWatchTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := apiservertest.NewServer(t)
		h := httpapi.NewHandler(srv)
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", wPath+"?watch=true&timeoutSeconds=30", nil)
		req.Host = "localhost"
		done := make(chan struct{})
		go func() {
			defer close(done)
			h.ServeHTTP(rec, req)
		}()
		synctest.Wait() // the watch is open
		w := apiservertest.NewWidget("default", "w1")
		if _, err := client.New[*apiservertest.Widget](srv).Create(ctx, w, meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		<-done
		if d := time.Since(start); d != 30*time.Second {
			t.Errorf("the watch ended after %v, want 30s", d)
		}
		lines := strings.Split(strings.TrimSpace(rec.Body.String()), "\n")
		if len(lines) != 1 || !strings.HasPrefix(lines[0], `{"type":"ADDED","object":{"apiVersion":"test.kitchensync.io/v1","kind":"Widget","metadata":{"name":"w1"`) {
			t.Errorf("stream:\n%s", rec.Body.String())
		}
	})
}

// TestAge checks the Age column as kubectl prints it, in a bubble where
// objects are created at a known instant.
func TestAge(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := apiservertest.NewServer(t)
		created := time.Now()
		w := apiservertest.NewWidget("default", "w1")
		if _, err := client.New[*apiservertest.Widget](srv).Create(ctx, w, meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		var now time.Time
		h := httpapi.NewHandler(srv, httpapi.WithClock(func() time.Time { return now }))
		for _, tc := range []struct {
			after time.Duration
			want  string
		}{
			{-time.Second, "0s"}, {-5 * time.Second, "<invalid>"}, {0, "0s"}, {42 * time.Second, "42s"},
			{119 * time.Second, "119s"}, {2 * time.Minute, "2m"}, {3*time.Minute + 10*time.Second, "3m10s"},
			{25 * time.Minute, "25m"}, {179 * time.Minute, "179m"}, {3 * time.Hour, "3h"},
			{5*time.Hour + 30*time.Minute, "5h30m"}, {30 * time.Hour, "30h"}, {76 * time.Hour, "3d4h"},
			{72 * time.Hour, "3d"}, {400 * 24 * time.Hour, "400d"}, {3*365*24*time.Hour + 24*time.Hour, "3y1d"},
			{9 * 365 * 24 * time.Hour, "9y"},
		} {
			now = created.Add(tc.after)
			rec := httptest.NewRecorder()
			req := httptest.NewRequest("GET", w1Path, nil)
			req.Host = "localhost"
			req.Header.Set("Accept", tableAccept)
			h.ServeHTTP(rec, req)
			if got := ageCell(t, rec); got != tc.want {
				t.Errorf("after %v: age %q, want %q", tc.after, got, tc.want)
			}
		}
	})
}

func ageCell(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	if rec.Code != http.StatusOK {
		t.Fatalf("code %d: %s", rec.Code, rec.Body)
	}
	table := decode(t, rec.Body.String()).(map[string]any)
	cells := table["rows"].([]any)[0].(map[string]any)["cells"].([]any)
	return cells[len(cells)-1].(string)
}

// TestWatchClientGoesAway shows that a watch leaves nothing behind when
// its client hangs up: the bubble ends only once every goroutine in it,
// the server's watch goroutine included, has returned. (The server here
// has no cleanup that would close its watches for us.)
func TestWatchClientGoesAway(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{})
		h := httpapi.NewHandler(srv)
		reqCtx, hangUp := context.WithCancel(context.Background())
		rec := httptest.NewRecorder()
		req := httptest.NewRequestWithContext(reqCtx, "GET", wPath+"?watch=true", nil)
		req.Host = "localhost"
		done := make(chan struct{})
		go func() {
			defer close(done)
			h.ServeHTTP(rec, req)
		}()
		synctest.Wait() // the watch is open and idle
		select {
		case <-done:
			t.Fatal("the watch ended by itself")
		default:
		}
		hangUp()
		<-done
		if rec.Code != http.StatusOK || rec.Body.Len() != 0 {
			t.Errorf("code %d, body %q", rec.Code, rec.Body)
		}
	})
}
