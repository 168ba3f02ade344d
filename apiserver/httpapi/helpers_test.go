package httpapi_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// seeded returns a server with four objects, in this order (so with
// resourceVersions 2 to 5):
//
//	widgets default/w1 {color: red, size: 1}, labels app=shop
//	widgets default/w2 {color: blue}
//	widgets other/w3   {color: red}
//	gadgets g1         {mode: fast}
func seeded(t testing.TB, opts apiserver.Options) *apiserver.Server {
	t.Helper()
	srv := apiservertest.NewServerWithOptions(t, opts)
	ctx := context.Background()
	widgets := client.New[*apiservertest.Widget](srv)
	w1 := apiservertest.NewWidget("default", "w1")
	w1.Labels = map[string]string{"app": "shop"}
	w1.Spec = apiservertest.WidgetSpec{Color: "red", Size: 1}
	w2 := apiservertest.NewWidget("default", "w2")
	w2.Spec.Color = "blue"
	w3 := apiservertest.NewWidget("other", "w3")
	w3.Spec.Color = "red"
	for _, w := range []*apiservertest.Widget{w1, w2, w3} {
		if _, err := widgets.Create(ctx, w, meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	g1 := apiservertest.NewGadget("g1")
	g1.Spec.Mode = "fast"
	if _, err := client.New[*apiservertest.Gadget](srv).Create(ctx, g1, meta.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	return srv
}

// serve starts an HTTP server for srv, closed when the test ends. Close
// waits for every handler to return, so a test that ends proves that no
// request (watches included) outlived it.
func serve(t *testing.T, srv *apiserver.Server, opts ...httpapi.Option) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(httpapi.NewHandler(srv, opts...))
	t.Cleanup(ts.Close)
	return ts
}

// response is a decoded HTTP response.
type response struct {
	Code   int
	Header http.Header
	Body   any // decoded JSON, normalized
	Raw    string
}

// do sends a request and decodes its JSON response. header holds
// name/value pairs; a body goes as JSON unless they name another
// Content-Type (as every client names one).
func do(t *testing.T, ts *httptest.Server, method, path, body string, header ...string) response {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	switch ct := resp.Header.Get("Content-Type"); {
	case ct == "text/plain; charset=utf-8" && resp.StatusCode == http.StatusNotFound:
		// A path the server does not serve, answered as Go's
		// http.NotFound: the body is a string.
		return response{Code: resp.StatusCode, Header: resp.Header, Body: strings.TrimSpace(string(raw)), Raw: string(raw)}
	case ct != "application/json":
		t.Errorf("%s %s: Content-Type %q, want application/json", method, path, ct)
	}
	return response{Code: resp.StatusCode, Header: resp.Header, Body: decode(t, string(raw)), Raw: string(raw)}
}

// decode parses JSON and normalizes what changes from run to run.
func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("decoding %q: %v", s, err)
	}
	return normalize(v)
}

// normalize replaces uids and timestamps with
// placeholders, so that expected bodies can be written out in full; it
// drops metadata.managedFields (apply_test.go checks those).
func normalize(v any) any {
	switch v := v.(type) {
	case map[string]any:
		delete(v, "managedFields")
		for k, val := range v {
			if _, isString := val.(string); isString && (k == "creationTimestamp" || k == "deletionTimestamp") {
				v[k] = "<time>"
				continue
			}
			v[k] = normalize(val)
		}
	case []any:
		for i := range v {
			v[i] = normalize(v[i])
		}
	case string:
		return uuid.ReplaceAllString(v, "<uid>")
	}
	return v
}

// uuid matches the uids the server makes, wherever they appear.
var uuid = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

var (
	ctx     = context.Background()
	widgets = apiservertest.WidgetsResource
)
