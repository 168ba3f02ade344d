package httpapi_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiextensions"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// menusCRD defines Menu in two versions; served1 and storage1 say
// whether v1 is served and whether it is the storage version (v1beta1,
// always served, is then the other).
func menusCRD(served1, storage1 bool) string {
	b := func(v bool) string {
		if v {
			return "true"
		}
		return "false"
	}
	schema := `"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"dish":{"type":"string"}}}}}}`
	return `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"menus.restaurant.example.com"},
"spec":{"group":"restaurant.example.com","scope":"Namespaced","names":{"plural":"menus","kind":"Menu"},"versions":[
 {"name":"v1beta1","served":true,"storage":` + b(!storage1) + `,` + schema + `},
 {"name":"v1","served":` + b(served1) + `,"storage":` + b(storage1) + `,` + schema + `}]}}`
}

// crdServer serves CustomResourceDefinitions, with def applied.
func crdServer(t *testing.T, def string) *apiserver.Server {
	t.Helper()
	srv := apiserver.NewServer(meta.NewScheme(), apiserver.Options{})
	if _, err := apiextensions.Install(srv); err != nil {
		t.Fatal(err)
	}
	crds, err := apiextensions.Decode([]byte(def))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := apiextensions.Apply(t.Context(), srv, crds...); err != nil {
		t.Fatal(err)
	}
	return srv
}

const (
	menusV1      = "/apis/restaurant.example.com/v1/namespaces/default/menus"
	menusV1beta1 = "/apis/restaurant.example.com/v1beta1/namespaces/default/menus"
)

// menu is a Menu in version at resourceVersion rv ("": none), as the
// server answers it (uid and times normalized).
func menu(version, rv, generation, dish string) string {
	md := `"name":"m1","namespace":"default"`
	if rv != "" {
		md += `,"uid":"<uid>","resourceVersion":"` + rv + `","generation":` + generation + `,"creationTimestamp":"<time>"`
	}
	return `{"apiVersion":"restaurant.example.com/` + version + `","kind":"Menu","metadata":{` + md + `},"spec":{"dish":"` + dish + `"}}`
}

// rvOf is the resourceVersion of the object a response holds.
func rvOf(t *testing.T, r response) string {
	t.Helper()
	body, _ := r.Body.(map[string]any)
	md, _ := body["metadata"].(map[string]any)
	rv, ok := md["resourceVersion"].(string)
	if !ok {
		t.Fatalf("no resourceVersion in %d %s", r.Code, r.Raw)
	}
	return rv
}

// check compares a response's code and body with want.
func check(t *testing.T, what string, got response, code int, want string) {
	t.Helper()
	if got.Code != code {
		t.Errorf("%s: %d, want %d: %s", what, got.Code, code, got.Raw)
	}
	if diff := cmp.Diff(decode(t, want), got.Body); diff != "" {
		t.Errorf("%s (-want +got):\n%s", what, diff)
	}
}

// TestCRDTwoVersions: an object written in one served version is read,
// updated, listed and watched in the other (conversion None relabels
// apiVersion), and discovery prefers v1 over v1beta1 whichever is stored.
func TestCRDTwoVersions(t *testing.T) {
	for _, storage1 := range []bool{true, false} {
		ts := serve(t, crdServer(t, menusCRD(true, storage1)))
		check(t, "group", do(t, ts, "GET", "/apis/restaurant.example.com", ""), 200,
			`{"kind":"APIGroup","apiVersion":"v1","name":"restaurant.example.com","versions":[
			 {"groupVersion":"restaurant.example.com/v1","version":"v1"},{"groupVersion":"restaurant.example.com/v1beta1","version":"v1beta1"}],
			 "preferredVersion":{"groupVersion":"restaurant.example.com/v1","version":"v1"}}`)
		created := do(t, ts, "POST", menusV1beta1, menu("v1beta1", "", "", "soup"))
		rv := rvOf(t, created)
		check(t, "create in v1beta1", created, 201, menu("v1beta1", rv, "1", "soup"))
		check(t, "get in v1", do(t, ts, "GET", menusV1+"/m1", ""), 200, menu("v1", rv, "1", "soup"))
		w := watch(t, ts.URL+menusV1beta1+"?watch=true&resourceVersion="+rv)
		updated := do(t, ts, "PUT", menusV1+"/m1",
			`{"apiVersion":"restaurant.example.com/v1","kind":"Menu","metadata":{"name":"m1","resourceVersion":"`+rv+`"},"spec":{"dish":"stew"}}`)
		rv2 := rvOf(t, updated)
		check(t, "update in v1", updated, 200, menu("v1", rv2, "2", "stew"))
		w.expect(event("MODIFIED", menu("v1beta1", rv2, "2", "stew")))
		check(t, "list in v1beta1", do(t, ts, "GET", menusV1beta1, ""), 200,
			`{"apiVersion":"restaurant.example.com/v1beta1","kind":"MenuList","metadata":{"resourceVersion":"`+rv2+`"},"items":[`+
				menu("v1beta1", rv2, "2", "stew")+`]}`)
	}
}

// TestCRDUnservedStorageVersion: a storage version marked served: false
// is stored, but only the served version is routed and discovered, as
// on the real server (whose discovery then has no storageVersionHash).
func TestCRDUnservedStorageVersion(t *testing.T) {
	srv := crdServer(t, menusCRD(false, true))
	ts := serve(t, srv)
	check(t, "group", do(t, ts, "GET", "/apis/restaurant.example.com", ""), 200,
		`{"kind":"APIGroup","apiVersion":"v1","name":"restaurant.example.com","versions":[
		 {"groupVersion":"restaurant.example.com/v1beta1","version":"v1beta1"}],
		 "preferredVersion":{"groupVersion":"restaurant.example.com/v1beta1","version":"v1beta1"}}`)
	check(t, "resources in v1beta1", do(t, ts, "GET", "/apis/restaurant.example.com/v1beta1", ""), 200,
		`{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"restaurant.example.com/v1beta1","resources":[
		 {"name":"menus","singularName":"menu","namespaced":true,"kind":"Menu",
		  "verbs":["delete","deletecollection","get","list","patch","create","update","watch"]}]}`)
	// As for any path the server does not serve (so does the real
	// server): Go's plain-text 404.
	notFound := `"404 page not found"`
	check(t, "resources in v1", do(t, ts, "GET", "/apis/restaurant.example.com/v1", ""), 404, notFound)
	check(t, "create in v1", do(t, ts, "POST", menusV1, menu("v1", "", "", "soup")), 404, notFound)
	created := do(t, ts, "POST", menusV1beta1, menu("v1beta1", "", "", "soup"))
	rv := rvOf(t, created)
	check(t, "create in v1beta1", created, 201, menu("v1beta1", rv, "1", "soup"))
	check(t, "get in v1", do(t, ts, "GET", menusV1+"/m1", ""), 404, notFound)
	paths := do(t, ts, "GET", "/openapi/v3", "").Body.(map[string]any)["paths"].(map[string]any)
	if _, ok := paths["apis/restaurant.example.com/v1"]; ok {
		t.Errorf("/openapi/v3 publishes the unserved v1: %v", paths)
	}
	// In process, the object is where it is stored: v1.
	obj, err := client.ForResource[*meta.Unstructured](srv, meta.GroupVersionResource{Group: "restaurant.example.com", Version: "v1", Resource: "menus"}).
		Namespace("default").Get(t.Context(), "m1", meta.GetOptions{})
	if err != nil || obj.APIVersion != "restaurant.example.com/v1" {
		t.Errorf("stored: %v, %v", obj, err)
	}
}
