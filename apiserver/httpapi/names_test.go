package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
)

// Over HTTP as in process (the server's TestEveryWriteChecksNamesAlike),
// every write that may create an object refuses a bad name or namespace:
// POST, PUT, a merge patch and an apply, each with every bad value, in
// the path and in the body. None is answered 2xx, and nothing is stored.
func TestEveryWriteRefusesBadNamesOverHTTP(t *testing.T) {
	srv := apiservertest.NewServer(t)
	h := httpapi.NewHandler(srv)
	bad := []string{"..", "Bad_NS", "a/b", "\x1b[31mred", "-a", "a.", "a b", strings.Repeat("a", 254)}
	const base = "/apis/test.kitchensync.io/v1/namespaces/"
	for _, v := range bad {
		for _, at := range []struct{ ns, name string }{{"ns", v}, {v, "good"}} {
			body := `{"apiVersion":"test.kitchensync.io/v1","kind":"Widget","metadata":{"name":` + quote(at.name) + `,"namespace":` + quote(at.ns) + `}}`
			collection := base + url.PathEscape(at.ns) + "/widgets"
			object := collection + "/" + url.PathEscape(at.name)
			for _, r := range []struct{ method, path, contentType string }{
				{"POST", collection, "application/json"},
				{"PUT", object, "application/json"},
				{"PATCH", object, "application/merge-patch+json"},
				{"PATCH", object + "?fieldManager=m", "application/apply-patch+yaml"},
			} {
				req := httptest.NewRequest(r.method, "http://localhost"+r.path, strings.NewReader(body))
				req.Host = "localhost"
				req.Header.Set("Content-Type", r.contentType)
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code < 400 || rec.Code >= 500 {
					t.Errorf("%s %s (%s): %d %s, want it refused", r.method, r.path, r.contentType, rec.Code, rec.Body)
				}
			}
		}
	}
	req := httptest.NewRequest("GET", "http://localhost/apis/test.kitchensync.io/v1/widgets", nil)
	req.Host = "localhost"
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), `"name"`) {
		t.Errorf("after the bad writes the list is %d %s, want no widget", rec.Code, rec.Body)
	}
}

func quote(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 || r == '"' || r == '\\' {
			b.WriteString(`\u00` + string("0123456789abcdef"[r>>4]) + string("0123456789abcdef"[r&15]))
		} else {
			b.WriteRune(r)
		}
	}
	return `"` + b.String() + `"`
}
