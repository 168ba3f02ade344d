package liveview_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/kitchensync/kitchensync/kitchen/liveview"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
	"github.com/kitchensync/kitchensync/trace"
)

// site runs a restaurant and its site behind the door opts describe,
// inside the test's bubble, and stops both when the test ends.
func site(t *testing.T, opts ...liveview.Option) *liveview.Site {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	r, err := restaurant.Open(ctx, restaurant.Config{Tracer: trace.New()})
	if err != nil {
		t.Fatal(err)
	}
	s := liveview.NewSite(ctx, r, opts...)
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	if !r.WaitReady(ctx) {
		t.Fatal("the restaurant did not open")
	}
	return s
}

// knock sends one request to s and returns the response.
func knock(s http.Handler, method, target, host string, header map[string]string) *http.Response {
	req := httptest.NewRequest(method, target, nil)
	req.Host = host
	for k, v := range header {
		req.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, req)
	return w.Result()
}

const ordersPath = "/apis/menu.example.com/v1/namespaces/dinner/orders"

func TestDoorRefusesARebindingHost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := site(t)
		wide := site(t, liveview.WithAcceptHosts(regexp.MustCompile(`^kitchen\.internal$`)))
		for _, tc := range []struct {
			name, method, target, host string
			site                       http.Handler
			want                       int
		}{
			{"page on loopback", "GET", "/", "127.0.0.1:8080", s, 200},
			{"page on localhost", "GET", "/", "localhost:8080", s, 200},
			{"page on [::1]", "GET", "/", "[::1]:8080", s, 200},
			{"page rebound", "GET", "/", "evil.example.com:8080", s, 403},
			{"page under .localhost", "GET", "/", "evil.localhost:8080", s, 403},
			{"events rebound", "GET", "/events", "evil.example.com", s, 403},
			{"order rebound", "GET", "/orders/order-001", "evil.example.com", s, 403},
			{"button rebound", "POST", "/actions/place", "evil.example.com", s, 403},
			{"API rebound", "GET", ordersPath, "evil.example.com", s, 403},
			{"API on loopback", "GET", ordersPath, "127.0.0.1", s, 200},
			{"accepted host", "GET", ordersPath, "kitchen.internal:80", wide, 200},
			{"accepted host, page", "GET", "/", "kitchen.internal", wide, 200},
			{"loopback no longer implied", "GET", "/", "127.0.0.1", wide, 403},
			{"other host", "GET", "/", "evil.example.com", wide, 403},
		} {
			if got := knock(tc.site, tc.method, tc.target, tc.host, nil).StatusCode; got != tc.want {
				t.Errorf("%s: %s %s Host %s = %d, want %d", tc.name, tc.method, tc.target, tc.host, got, tc.want)
			}
		}
	})
}

func TestDoorAsksForTheToken(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := site(t, liveview.WithBearerToken("s3cret"))
		const host = "127.0.0.1:8080"
		cookie := liveview.TokenCookie + "=s3cret"
		for _, tc := range []struct {
			name, method, target string
			header               map[string]string
			want                 int
		}{
			{"page without token", "GET", "/", nil, 401},
			{"API without token", "GET", ordersPath, nil, 401},
			{"button without token", "POST", "/actions/place", nil, 401},
			{"API wrong token", "GET", ordersPath, map[string]string{"Authorization": "Bearer nope"}, 401},
			{"page wrong cookie", "GET", "/", map[string]string{"Cookie": liveview.TokenCookie + "=nope"}, 401},
			{"page wrong ?token=", "GET", "/?token=nope", nil, 401},
			{"API with header", "GET", ordersPath, map[string]string{"Authorization": "Bearer s3cret"}, 200},
			{"API with the scheme in lower case", "GET", ordersPath, map[string]string{"Authorization": "bearer s3cret"}, 200},
			{"API with cookie", "GET", ordersPath, map[string]string{"Cookie": cookie}, 200},
			{"page with cookie", "GET", "/", map[string]string{"Cookie": cookie}, 200},
			{"button with cookie", "POST", "/actions/place", map[string]string{"Cookie": cookie}, 200},
		} {
			if got := knock(s, tc.method, tc.target, host, tc.header).StatusCode; got != tc.want {
				t.Errorf("%s: %s %s = %d, want %d", tc.name, tc.method, tc.target, got, tc.want)
			}
		}

		res := knock(s, "GET", "/?token=s3cret&x=1", host, nil)
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/?x=1" {
			t.Errorf("?token= answered %d to %q, want 303 to /?x=1", res.StatusCode, res.Header.Get("Location"))
		}
		c := res.Cookies()
		if len(c) != 1 || c[0].Name != liveview.TokenCookie || c[0].Value != "s3cret" || !c[0].HttpOnly ||
			c[0].SameSite != http.SameSiteStrictMode || c[0].Path != "/" {
			t.Errorf("?token= set cookies %+v, want one HttpOnly SameSite=Strict %s", c, liveview.TokenCookie)
		}
	})
}

func TestDoorRefusesCrossSiteButtons(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := site(t)
		const host = "127.0.0.1:8080"
		for _, tc := range []struct {
			name   string
			header map[string]string
			want   int
		}{
			{"cross-site fetch", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
			{"same-site, other origin", map[string]string{"Sec-Fetch-Site": "same-site"}, 403},
			{"foreign Origin", map[string]string{"Origin": "http://evil.example.com"}, 403},
			{"other loopback port", map[string]string{"Origin": "http://127.0.0.1:9999"}, 403},
			{"the page itself", map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": "http://" + host}, 200},
			{"same Origin", map[string]string{"Origin": "http://" + host}, 200},
			{"not a browser (curl)", nil, 200},
		} {
			res := knock(s, "POST", "/actions/place", host, tc.header)
			if res.StatusCode != tc.want {
				t.Errorf("%s: POST /actions/place = %d, want %d", tc.name, res.StatusCode, tc.want)
			}
		}
		if got := knock(s, "GET", "/", host, map[string]string{"Sec-Fetch-Site": "cross-site"}).StatusCode; got != 200 {
			t.Errorf("a link from another site to the page = %d, want 200 (only buttons are refused)", got)
		}
	})
}

// The API beside the page is a door too: a write from another site is
// refused on every route and method, and so is the "simple" POST a page
// elsewhere can send without asking (a Blob body, no Content-Type).
func TestDoorRefusesCrossSiteAPIWrites(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := site(t)
		order := `{"apiVersion":"menu.example.com/v1","kind":"Order","metadata":{"name":"evil"},"spec":{"dish":"soup"}}`
		for _, tc := range []struct {
			name, method, target string
			header               map[string]string
			want                 int
		}{
			{"cross-site POST", "POST", ordersPath, map[string]string{"Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"}, 403},
			{"cross-site DELETE", "DELETE", ordersPath + "/order-001", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
			{"foreign Origin PATCH", "PATCH", ordersPath + "/order-001", map[string]string{"Origin": "http://evil.example.com", "Content-Type": "application/merge-patch+json"}, 403},
			{"a Blob body, no Content-Type", "POST", ordersPath, nil, 415},
			{"text/plain", "POST", ordersPath, map[string]string{"Content-Type": "text/plain"}, 415},
		} {
			req := httptest.NewRequest(tc.method, tc.target, strings.NewReader(order))
			req.Host = "127.0.0.1:8080"
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			w := httptest.NewRecorder()
			s.ServeHTTP(w, req)
			if w.Code != tc.want {
				t.Errorf("%s: %s %s = %d %s, want %d", tc.name, tc.method, tc.target, w.Code, w.Body, tc.want)
			}
		}
	})
}

func TestDoorQuotesTheRefusedHost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		res := knock(site(t), "GET", "/", "evil\x1b[31m", nil)
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != 403 || strings.ContainsRune(string(b), '\x1b') {
			t.Errorf("%d, body %q: want 403 without the raw escape", res.StatusCode, b)
		}
	})
}
