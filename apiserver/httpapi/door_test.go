package httpapi_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
)

// request sends a GET of the widgets with the given Host and headers.
func request(t *testing.T, url, host string, header ...string) response {
	t.Helper()
	req, err := http.NewRequest("GET", url+wPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{Code: resp.StatusCode, Body: decode(t, string(raw)), Raw: string(raw)}
}

func TestDoorAcceptsOnlyLoopbackHostsByDefault(t *testing.T) {
	ts := serve(t, seeded(t, apiserver.Options{}))
	for _, host := range []string{"localhost:8001", "127.0.0.1", "127.1.2.3:80", "[::1]:8001", "LOCALHOST"} {
		if got := request(t, ts.URL, host); got.Code != 200 {
			t.Errorf("Host %s: %d %s, want 200", host, got.Code, got.Raw)
		}
	}
	for _, host := range []string{"evil.example.com", "evil.example.com:8001", "10.0.0.1", "localhost.evil.example.com", "evil.localhost", "kitchen.localhost:8001"} {
		got := request(t, ts.URL, host)
		want := failure(403, "Forbidden", `host "`+hostOnly(host)+`" is not accepted: this server answers only the hosts it was told to (by default loopback names: localhost, 127.0.0.1, ::1; see httpapi.WithAcceptHosts)`, "")
		if got.Code != 403 || !equalJSON(t, want, got.Body) {
			t.Errorf("Host %s: %d %s, want 403", host, got.Code, got.Raw)
		}
	}
}

func TestDoorWithAcceptHostsAndToken(t *testing.T) {
	srv := seeded(t, apiserver.Options{})
	ts := serve(t, srv, httpapi.WithAcceptHosts(regexp.MustCompile(`^kitchen\.internal$`)), httpapi.WithBearerToken("s3cret"))
	auth := []string{"Authorization", "Bearer s3cret"}
	if got := request(t, ts.URL, "kitchen.internal:8001", auth...); got.Code != 200 {
		t.Errorf("accepted host with the token: %d %s", got.Code, got.Raw)
	}
	for _, scheme := range []string{"bearer", "BEARER", "Bearer "} { // as kube-apiserver reads it
		if got := request(t, ts.URL, "kitchen.internal", "Authorization", scheme+" s3cret"); got.Code != 200 {
			t.Errorf("Authorization %q: %d %s, want 200", scheme+" s3cret", got.Code, got.Raw)
		}
	}
	if got := request(t, ts.URL, "127.0.0.1", auth...); got.Code != 403 {
		t.Errorf("a host outside the list: %d, want 403 (the list replaces the default)", got.Code)
	}
	unauthorized := failure(401, "Unauthorized", "Unauthorized", "")
	for _, header := range [][]string{nil, {"Authorization", "Bearer wrong"}, {"Authorization", "Basic czNjcmV0"}} {
		got := request(t, ts.URL, "kitchen.internal", header...)
		if got.Code != 401 || !equalJSON(t, unauthorized, got.Body) {
			t.Errorf("Authorization %q: %d %s, want 401", header, got.Code, got.Raw)
		}
	}
}

func hostOnly(host string) string {
	if i := len(host) - len(":8001"); i > 0 && host[i:] == ":8001" {
		return host[:i]
	}
	return host
}

func equalJSON(t *testing.T, want string, got any) bool {
	t.Helper()
	return cmp.Equal(decode(t, want), got)
}

// What a web page on another site can make a browser send without asking
// first (a "simple" request), and what it can only send if the server
// agreed (which it never does), are all refused: a write marked as
// cross-origin is 403, a write with a body but no Content-Type (a Blob
// body) or a form's is 415. kubectl, client-go and the live view's own
// page are let through.
func TestDoorRefusesCrossSiteWrites(t *testing.T) {
	h := httpapi.NewHandler(seeded(t, apiserver.Options{}))
	body := `{"metadata":{"name":"w9"}}`
	tests := []struct {
		name   string
		method string
		header []string
		code   int
	}{
		{"a Blob body (no Content-Type)", "POST", nil, 415},
		{"a form", "POST", []string{"Content-Type", "application/x-www-form-urlencoded"}, 415},
		{"text/plain", "POST", []string{"Content-Type", "text/plain"}, 415},
		{"marked cross-site by the browser", "POST", []string{"Content-Type", "application/json", "Sec-Fetch-Site", "cross-site"}, 403},
		{"an Origin that is not the Host", "POST", []string{"Content-Type", "application/json", "Origin", "http://evil.example.com"}, 403},
		{"a cross-site DELETE", "DELETE", []string{"Sec-Fetch-Site", "cross-site"}, 403},
		{"a DELETE with a text/plain body", "DELETE", []string{"Content-Type", "text/plain"}, 415},
		{"the page itself (same origin)", "POST", []string{"Content-Type", "application/json", "Sec-Fetch-Site", "same-origin"}, 201},
		{"kubectl (no browser headers)", "POST", []string{"Content-Type", "application/yaml"}, 201},
	}
	for i, tt := range tests {
		path, b := wPath, strings.Replace(body, "w9", fmt.Sprintf("w%d", 10+i), 1)
		if tt.method == "DELETE" {
			path = w1Path
		}
		req := httptest.NewRequest(tt.method, "http://localhost"+path, strings.NewReader(b))
		req.Host = "localhost:8001"
		for j := 0; j+1 < len(tt.header); j += 2 {
			req.Header.Set(tt.header[j], tt.header[j+1])
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tt.code {
			t.Errorf("%s: %d %s, want %d", tt.name, rec.Code, rec.Body, tt.code)
		}
	}
}
