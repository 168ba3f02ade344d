package httpapi_test

// Native fuzz targets. CI (.ci/run) runs each for a few seconds; for a
// longer local run, one target at a time:
//
//	go test -run '^$' -fuzz FuzzHandler -fuzztime 10m ./apiserver/httpapi/

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
)

// FuzzHandler sends requests of every method with fuzzed paths, queries
// and bodies (delete options among them): no panic, never a 500, always a
// JSON answer, but for the plain-text 404 of a path not served.
func FuzzHandler(f *testing.F) {
	for _, c := range []struct {
		method      uint8
		path, query string
		body        string
	}{
		{0, wPath, "labelSelector=app%3Dshop&limit=1", ""},
		{0, w1Path, "resourceVersion=abc", ""},
		{1, wPath, "fieldValidation=Strict", `{"metadata":{"name":"w9"},"spec":{"color":"red","color":"blue"}}`},
		{2, w1Path, "", `{"metadata":{"name":"w1","resourceVersion":"2"}}`},
		{3, w1Path, "", `[{"op":"test","path":""}]`},
		{4, w1Path, "", `{"propagationPolicy":"Bogus"}`},
		{4, w1Path, "", `{"gracePeriodSeconds":"soon","preconditions":{"uid":"x"}}`},
		{4, w1Path, "propagationPolicy=Orphan&dryRun=All", ""},
		{0, "/apis", "", ""},
		{0, "/apis/%1b%5b31m", "", ""},
	} {
		f.Add(c.method, c.path, c.query, c.body)
	}
	srv := seeded(f, apiserver.Options{})
	h := httpapi.NewHandler(srv)
	methods := []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}
	f.Fuzz(func(t *testing.T, m uint8, path, query, body string) {
		if !strings.HasPrefix(path, "/") || strings.Contains(query, "watch") {
			return // not a request line; watches stream until the client goes
		}
		req, err := http.NewRequest(methods[int(m)%len(methods)], "http://localhost"+path+"?"+query, strings.NewReader(body))
		if err != nil {
			return
		}
		if req.Method == "PATCH" {
			req.Header.Set("Content-Type", []string{"application/merge-patch+json", "application/json-patch+json"}[int(m)/len(methods)%2])
		}
		req.Body = http.MaxBytesReader(nil, req.Body, 1<<20)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		notServed := rec.Code == http.StatusNotFound && rec.Body.String() == "404 page not found\n"
		if rec.Code >= 500 || rec.Header().Get("Content-Type") != "application/json" && !notServed {
			t.Errorf("%s %s?%s: %d %q %s", req.Method, path, query, rec.Code, rec.Header().Get("Content-Type"), rec.Body)
		}
	})
}
