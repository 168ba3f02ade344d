package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
)

// badNames are names and namespaces no write may store.
var badNames = []string{"..", "Bad_NS", "a/b", "\x1b[31mred", "-a", "a.", "a b", strings.Repeat("a", 254)}

// namedKind is a kind the walks below write: Widgets (a status
// subresource) and Leases (created by PUT, strategic merge patches).
type namedKind struct {
	apiVersion, kind, base, resource string
}

var namedKinds = []namedKind{
	{"test.kitchensync.io/v1", "Widget", "/apis/test.kitchensync.io/v1/namespaces/", "widgets"},
	{"coordination.k8s.io/v1", "Lease", "/apis/coordination.k8s.io/v1/namespaces/", "leases"},
}

// namesHandler serves Widgets and Leases, in memory.
func namesHandler(t *testing.T) http.Handler {
	scheme := apiservertest.NewScheme()
	if err := builtin.Register(scheme); err != nil {
		t.Fatal(err)
	}
	return httpapi.NewHandler(apiserver.NewServer(scheme, apiserver.Options{}))
}

// write is one request of the walks below.
type write struct{ method, path, contentType, body string }

// send sends w to h and returns the answer.
func send(h http.Handler, w write) *httptest.ResponseRecorder {
	req := httptest.NewRequest(w.method, "http://localhost"+w.path, strings.NewReader(w.body))
	req.Host = "localhost"
	req.Header.Set("Content-Type", w.contentType)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// writesOf are every write of k's object name in namespace ns, with
// that name and namespace in the body too: POST, PUT, PUT of status, and
// every patch type (merge, JSON, strategic merge, apply), of the object
// and of its status.
func writesOf(k namedKind, ns, name string) []write {
	body := `{"apiVersion":"` + k.apiVersion + `","kind":"` + k.kind + `","metadata":{"name":` + quote(name) + `,"namespace":` + quote(ns) + `}}`
	labels := `{"metadata":{"labels":{"a":"b"}}}`
	jsonPatch := `[{"op":"add","path":"/metadata/labels","value":{"a":"b"}}]`
	collection := k.base + url.PathEscape(ns) + "/" + k.resource
	object := collection + "/" + url.PathEscape(name)
	var out []write
	for _, sub := range []string{"", "/status"} {
		out = append(out,
			write{"PUT", object + sub, "application/json", body},
			write{"PATCH", object + sub, "application/merge-patch+json", labels},
			write{"PATCH", object + sub, "application/json-patch+json", jsonPatch},
			write{"PATCH", object + sub, "application/strategic-merge-patch+json", labels},
			write{"PATCH", object + sub + "?fieldManager=m", "application/apply-patch+yaml", body})
	}
	return append(out, write{"POST", collection, "application/json", body})
}

// Over HTTP as in process (the server's TestEveryWriteChecksNamesAlike),
// every write refuses a bad name or namespace, in the path and in the
// body: those that may create (POST, apply, PUT of a Lease) as invalid,
// the others as not found (a strategic merge patch of a Widget, which
// takes none, 415). None is answered 2xx, and nothing is stored.
func TestEveryWriteRefusesBadNamesOverHTTP(t *testing.T) {
	h := namesHandler(t)
	for _, k := range namedKinds {
		for _, v := range badNames {
			for _, at := range []struct{ ns, name string }{{"ns", v}, {v, "good"}} {
				for _, w := range writesOf(k, at.ns, at.name) {
					if rec := send(h, w); rec.Code < 400 || rec.Code >= 500 {
						t.Errorf("%s %s (%s): %d %s, want it refused", w.method, w.path, w.contentType, rec.Code, rec.Body)
					}
				}
			}
		}
		checkOnly(t, h, k, "")
	}
}

// No write carries a stored object to a bad name or namespace: a body
// that names one, sent to the good object's path by PUT, PUT of status
// or any patch, is refused (400: not the object on the URL; or 422), and
// the object stays as it was.
func TestNoWriteRenamesToABadNameOverHTTP(t *testing.T) {
	h := namesHandler(t)
	for _, k := range namedKinds {
		good := writesOf(k, "ns", "good")
		created := send(h, good[len(good)-1]) // the POST
		if created.Code != http.StatusCreated {
			t.Fatalf("POST %s: %d %s", k.resource, created.Code, created.Body)
		}
		for _, v := range badNames {
			for _, md := range []string{`{"name":` + quote(v) + `}`, `{"name":"good","namespace":` + quote(v) + `}`} {
				for _, w := range renamesOf(k, md, good) {
					if rec := send(h, w); rec.Code != http.StatusBadRequest && rec.Code != http.StatusUnprocessableEntity {
						t.Errorf("%s %s (%s) with metadata %s: %d %s, want 400 or 422", w.method, w.path, w.contentType, md, rec.Code, rec.Body)
					}
				}
			}
		}
		checkOnly(t, h, k, `"resourceVersion":"`+resourceVersionOf(t, created.Body.String())+`"`)
	}
}

// renamesOf are the writes of good (writesOf the good object) with
// bodies that set metadata to md; those the kind does not serve (the
// status of a Lease, a strategic merge patch of a Widget) are left out.
func renamesOf(k namedKind, md string, good []write) []write {
	object := `{"apiVersion":"` + k.apiVersion + `","kind":"` + k.kind + `","metadata":` + md + `}`
	var out []write
	for _, w := range good {
		switch {
		case w.method == "POST",
			k.kind == "Lease" && strings.Contains(w.path, "/status"),
			k.kind == "Widget" && strings.HasPrefix(w.contentType, "application/strategic"):
			continue
		case w.contentType == "application/json-patch+json":
			w.body = `[{"op":"replace","path":"/metadata","value":` + md + `}]`
		case w.contentType == "application/merge-patch+json", strings.HasPrefix(w.contentType, "application/strategic"):
			w.body = `{"metadata":` + md + `}`
		default: // PUT, apply
			w.body = object
		}
		out = append(out, w)
	}
	return out
}

// checkOnly checks that k's list over HTTP holds no object, or (want
// not empty) exactly one whose JSON holds want.
func checkOnly(t *testing.T, h http.Handler, k namedKind, want string) {
	t.Helper()
	rec := send(h, write{"GET", strings.TrimSuffix(k.base, "namespaces/") + k.resource, "", ""})
	body := rec.Body.String()
	n := strings.Count(body, `"name":`)
	if rec.Code != http.StatusOK || want == "" && n > 0 || want != "" && (n != 1 || !strings.Contains(body, want)) {
		t.Errorf("after the bad writes, the %s are %d %s; want %d object(s) with %s", k.resource, rec.Code, body, min(len(want), 1), want)
	}
}

// resourceVersionOf reads metadata.resourceVersion out of an object's JSON.
func resourceVersionOf(t *testing.T, body string) string {
	_, rest, ok := strings.Cut(body, `"resourceVersion":"`)
	rv, _, ok2 := strings.Cut(rest, `"`)
	if !ok || !ok2 {
		t.Fatalf("no resourceVersion in %s", body)
	}
	return rv
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
