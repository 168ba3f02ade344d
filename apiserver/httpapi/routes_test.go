package httpapi_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
)

// The seeded objects as the server returns them.
const (
	w1JSON = `{"apiVersion":"test.kitchensync.io/v1","kind":"Widget","metadata":{"name":"w1","namespace":"default","uid":"<uid>","resourceVersion":"2","generation":1,"creationTimestamp":"<time>","labels":{"app":"shop"}},"spec":{"color":"red","size":1}}`
	w2JSON = `{"apiVersion":"test.kitchensync.io/v1","kind":"Widget","metadata":{"name":"w2","namespace":"default","uid":"<uid>","resourceVersion":"3","generation":1,"creationTimestamp":"<time>"},"spec":{"color":"blue"}}`
	w3JSON = `{"apiVersion":"test.kitchensync.io/v1","kind":"Widget","metadata":{"name":"w3","namespace":"other","uid":"<uid>","resourceVersion":"4","generation":1,"creationTimestamp":"<time>"},"spec":{"color":"red"}}`
	g1JSON = `{"apiVersion":"test.kitchensync.io/v1","kind":"Gadget","metadata":{"name":"g1","uid":"<uid>","resourceVersion":"5","generation":1,"creationTimestamp":"<time>"},"spec":{"mode":"fast"}}`
)

// failure is the JSON of a failure Status.
func failure(code int, reason, message string, details string) string {
	if details != "" {
		details = `,"details":` + details
	}
	return fmt.Sprintf(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":%q,"reason":%q%s,"code":%d}`,
		message, reason, details, code)
}

const (
	wPath  = "/apis/test.kitchensync.io/v1/namespaces/default/widgets"
	w1Path = wPath + "/w1"
	gPath  = "/apis/test.kitchensync.io/v1/gadgets"
)

// notFoundPath is the plain-text 404 of a path the server does not serve,
// as JSON (a string).
const notFoundPath = `"404 page not found"`

// w1NotFound and g1NotFound are the JSON 404s of a subresource the kind
// does not have: the object is "not found", as for a custom resource.
var (
	w1NotFound = failure(404, "NotFound", `widgets.test.kitchensync.io "w1" not found`, `{"name":"w1","group":"test.kitchensync.io","kind":"widgets"}`)
	g1NotFound = failure(404, "NotFound", `gadgets.test.kitchensync.io "g1" not found`, `{"name":"g1","group":"test.kitchensync.io","kind":"gadgets"}`)
)

type routeCase struct {
	name   string
	method string
	path   string
	body   string
	header []string // name/value pairs
	code   int
	want   string // JSON
	// wantHeader are response headers that must be present ("" for
	// absent), several values joined by " | ".
	wantHeader map[string]string
	// setup, if set, prepares the seeded server.
	setup func(srv *apiserver.Server)
}

func TestDiscovery(t *testing.T) {
	version := fmt.Sprintf(`{"major":"1","minor":"32","gitVersion":"v1.32.0-kitchensync","gitCommit":"","gitTreeState":"clean","buildDate":"","goVersion":%q,"compiler":%q,"platform":%q}`,
		runtime.Version(), runtime.Compiler, runtime.GOOS+"/"+runtime.GOARCH)
	gv := `{"groupVersion":"test.kitchensync.io/v1","version":"v1"}`
	group := `{"name":"test.kitchensync.io","versions":[` + gv + `],"preferredVersion":` + gv + `}`
	runRoutes(t, []routeCase{
		{name: "version", method: "GET", path: "/version", code: 200, want: version},
		{name: "core group has no versions without core kinds", method: "GET", path: "/api", code: 200,
			want: `{"kind":"APIVersions","versions":[],"serverAddressByClientCIDRs":[]}`},
		{name: "core v1 without core kinds", method: "GET", path: "/api/v1", code: 404, want: notFoundPath},
		{name: "groups", method: "GET", path: "/apis", code: 200,
			want: `{"kind":"APIGroupList","apiVersion":"v1","groups":[` + group + `]}`},
		{name: "group", method: "GET", path: "/apis/test.kitchensync.io", code: 200,
			want: `{"kind":"APIGroup","apiVersion":"v1",` + group[1:]},
		{name: "resources, with the status subresource of the kind that has one", method: "GET",
			path: "/apis/test.kitchensync.io/v1", code: 200, want: `{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"test.kitchensync.io/v1","resources":[
				{"name":"gadgets","singularName":"gadget","namespaced":false,"kind":"Gadget","verbs":["delete","deletecollection","get","list","patch","create","update","watch"],"storageVersionHash":"hfEfHApp0L0="},
				{"name":"widgets","singularName":"widget","namespaced":true,"kind":"Widget","verbs":["delete","deletecollection","get","list","patch","create","update","watch"],"storageVersionHash":"0UzEsg+WOYo="},
				{"name":"widgets/status","singularName":"","namespaced":true,"kind":"Widget","verbs":["get","patch","update"]}]}`},
		{name: "unknown group", method: "GET", path: "/apis/nope.example.com", code: 404, want: notFoundPath},
		{name: "unknown version", method: "GET", path: "/apis/test.kitchensync.io/v2", code: 404, want: notFoundPath},
		{name: "unknown path", method: "GET", path: "/healthz", code: 404, want: notFoundPath},
		{name: "openapi v2 is not served", method: "GET", path: "/openapi/v2", code: 404, want: notFoundPath},
		{name: "openapi v3 root", method: "GET", path: "/openapi/v3", code: 200,
			want: `{"paths":{"apis/test.kitchensync.io/v1":{"serverRelativeURL":"/openapi/v3/apis/test.kitchensync.io/v1"}}}`},
		{name: "openapi v3 of a group version declares fieldValidation", method: "GET", path: "/openapi/v3/apis/test.kitchensync.io/v1", code: 200,
			want: `{"openapi":"3.0.0","info":{"title":"kitchensync","version":"v1.32.0"},"components":` + testSchemas + `,"paths":{
				"/apis/test.kitchensync.io/v1/gadgets/{name}":{"patch":{"description":"partially update the specified Gadget","x-kubernetes-group-version-kind":{"group":"test.kitchensync.io","version":"v1","kind":"Gadget"},
					"parameters":[{"name":"fieldValidation","in":"query","description":"Ignore, Warn (the default) or Strict: what to do with unknown fields in the body.","schema":{"type":"string"}}],"responses":{"200":{"description":"OK"}}}},
				"/apis/test.kitchensync.io/v1/namespaces/{namespace}/widgets/{name}":{"patch":{"description":"partially update the specified Widget","x-kubernetes-group-version-kind":{"group":"test.kitchensync.io","version":"v1","kind":"Widget"},
					"parameters":[{"name":"fieldValidation","in":"query","description":"Ignore, Warn (the default) or Strict: what to do with unknown fields in the body.","schema":{"type":"string"}}],"responses":{"200":{"description":"OK"}}}}}}`},
		{name: "discovery is read-only", method: "POST", path: "/apis", code: 405,
			want:       failure(405, "MethodNotAllowed", "POST is not allowed on /apis: use GET", ""),
			wantHeader: map[string]string{"Allow": "GET"}},
	})
}

// runRoutes runs each case against a freshly seeded server.
func runRoutes(t *testing.T, cases []routeCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// An hour from now, every object is "60m" old.
			later := httpapi.WithClock(func() time.Time { return time.Now().Add(time.Hour) })
			srv := seeded(t, apiserver.Options{})
			if tc.setup != nil {
				tc.setup(srv)
			}
			ts := serve(t, srv, later)
			got := do(t, ts, tc.method, tc.path, tc.body, tc.header...)
			if got.Code != tc.code {
				t.Errorf("%s %s: code %d, want %d; body %s", tc.method, tc.path, got.Code, tc.code, got.Raw)
			}
			if diff := cmp.Diff(decode(t, tc.want), got.Body); diff != "" {
				t.Errorf("%s %s: body (-want +got):\n%s", tc.method, tc.path, diff)
			}
			for k, v := range tc.wantHeader {
				if got := strings.Join(got.Header.Values(k), " | "); got != v {
					t.Errorf("header %s = %q, want %q", k, got, v)
				}
			}
		})
	}
}

func TestRead(t *testing.T) {
	list := func(items ...string) string {
		return `{"apiVersion":"test.kitchensync.io/v1","kind":"WidgetList","metadata":{"resourceVersion":"5"},"items":[` +
			strings.Join(items, ",") + `]}`
	}
	runRoutes(t, []routeCase{
		{name: "get", method: "GET", path: w1Path, code: 200, want: w1JSON},
		{name: "get status is the object", method: "GET", path: w1Path + "/status", code: 200, want: w1JSON},
		{name: "get with a resourceVersion that is not one", method: "GET", path: w1Path + "?resourceVersion=abc", code: 400,
			want: failure(400, "BadRequest", `invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax`, "")},
		{name: "get cluster-scoped", method: "GET", path: gPath + "/g1", code: 200, want: g1JSON},
		{name: "get missing", method: "GET", path: wPath + "/nope", code: 404,
			want: failure(404, "NotFound", `widgets.test.kitchensync.io "nope" not found`,
				`{"name":"nope","group":"test.kitchensync.io","kind":"widgets"}`)},
		{name: "list a namespace", method: "GET", path: wPath, code: 200, want: list(w1JSON, w2JSON)},
		{name: "list all namespaces", method: "GET", path: "/apis/test.kitchensync.io/v1/widgets", code: 200,
			want: list(w1JSON, w2JSON, w3JSON)},
		{name: "label selector", method: "GET", path: wPath + "?labelSelector=app%3Dshop", code: 200, want: list(w1JSON)},
		{name: "field selector across namespaces", method: "GET", path: "/apis/test.kitchensync.io/v1/widgets?fieldSelector=spec.color%3Dred",
			code: 200, want: list(w1JSON, w3JSON)},
		{name: "unknown field selector", method: "GET", path: wPath + "?fieldSelector=spec.size%3D1", code: 400,
			want: failure(400, "BadRequest", `field label not supported: spec.size`, "")},
		{name: "bad limit", method: "GET", path: wPath + "?limit=ten", code: 400,
			want: failure(400, "BadRequest", `invalid query parameter limit="ten": must be an integer`, "")},
		{name: "bad watch", method: "GET", path: wPath + "?watch=maybe", code: 400,
			want: failure(400, "BadRequest", `invalid query parameter watch="maybe": must be true or false`, "")},
		{name: "namespaced path of a cluster-scoped kind", method: "GET", path: "/apis/test.kitchensync.io/v1/namespaces/default/gadgets/g1", code: 404, want: notFoundPath},
		{name: "cluster path of a namespaced object", method: "GET", path: "/apis/test.kitchensync.io/v1/widgets/w1", code: 404, want: notFoundPath},
		{name: "unknown subresource", method: "GET", path: w1Path + "/scale", code: 404, want: w1NotFound},
		{name: "status of a kind without status", method: "GET", path: gPath + "/g1/status", code: 404, want: g1NotFound},
		{name: "too deep", method: "GET", path: w1Path + "/status/more", code: 404, want: notFoundPath},
		{name: "empty segment", method: "GET", path: "/apis/test.kitchensync.io/v1/namespaces//widgets", code: 404, want: notFoundPath},
		{name: "unknown resource", method: "GET", path: "/apis/test.kitchensync.io/v1/namespaces/default/gizmos", code: 404, want: notFoundPath},
		{name: "table of a list", method: "GET", path: wPath, header: []string{"Accept", tableAccept}, code: 200,
			want: `{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"5"},"columnDefinitions":` + widgetColumns + `,"rows":[
				{"cells":["w1","red","60m"],"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"w1","namespace":"default","uid":"<uid>","resourceVersion":"2","generation":1,"creationTimestamp":"<time>","labels":{"app":"shop"}}}},
				{"cells":["w2","blue","60m"],"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"w2","namespace":"default","uid":"<uid>","resourceVersion":"3","generation":1,"creationTimestamp":"<time>"}}}]}`},
		{name: "plain JSON preferred over a table", method: "GET", path: w1Path,
			header: []string{"Accept", "application/json, " + tableAccept}, code: 200, want: w1JSON},
		{name: "only unknown representations", method: "GET", path: w1Path,
			header: []string{"Accept", "application/json;as=Scale;v=v1;g=autoscaling"}, code: 406,
			want: failure(406, "NotAcceptable", `only the following media types are accepted: application/json, application/json;as=Table;v=v1;g=meta.k8s.io (asked for "application/json;as=Scale;v=v1;g=autoscaling")`, "")},
	})
}

// tableAccept is what kubectl get sends.
const tableAccept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json"

const widgetColumns = `[
	{"name":"Name","type":"string","format":"name","description":"Name must be unique within a namespace.","priority":0},
	{"name":"Color","type":"string","format":"","description":"The field spec.color (field selector spec.color=...).","priority":0},
	{"name":"Age","type":"date","format":"","description":"How long ago the object was created (metadata.creationTimestamp).","priority":0}]`
