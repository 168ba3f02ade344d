package httpapi_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Note is a kind of the core group (group ""), served under /api/v1 like
// a ConfigMap.
type Note struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
	Data            map[string]string `json:"data,omitempty"`
}

func (n *Note) DeepCopyObject() meta.Object {
	out := *n
	out.ObjectMeta = n.ObjectMeta.DeepCopy()
	return &out
}

func TestCoreGroup(t *testing.T) {
	scheme := meta.NewScheme()
	if err := scheme.Register(meta.KindInfo{Version: "v1", Kind: "Note", Resource: "notes", Namespaced: true,
		New: func() meta.Object { return &Note{} }}); err != nil {
		t.Fatal(err)
	}
	ts := serve(t, apiserver.NewServer(scheme, apiserver.Options{}))
	for _, step := range []struct {
		method, path, body string
		code               int
		want               string
	}{
		{"GET", "/api", "", 200, `{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[]}`},
		{"GET", "/api/v1", "", 200, `{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"v1","resources":[
			{"name":"notes","singularName":"note","namespaced":true,"kind":"Note","verbs":["create","delete","deletecollection","get","list","patch","update","watch"],"storageVersionHash":"VFrsjJC/ll4="}]}`},
		{"GET", "/apis", "", 200, `{"kind":"APIGroupList","apiVersion":"v1","groups":[]}`},
		{"POST", "/api/v1/namespaces/default/notes", `{"metadata":{"name":"n1"},"data":{"k":"v"}}`, 201,
			`{"apiVersion":"v1","kind":"Note","metadata":{"name":"n1","namespace":"default","uid":"<uid>","resourceVersion":"2","generation":1,"creationTimestamp":"<time>"},"data":{"k":"v"}}`},
		{"GET", "/api/v1/namespaces/default/notes/n1/status", "", 404, failure(404, "NotFound", `notes "n1" not found`, `{"name":"n1","kind":"notes"}`)},
	} {
		got := do(t, ts, step.method, step.path, step.body)
		if diff := cmp.Diff(decode(t, step.want), got.Body); diff != "" || got.Code != step.code {
			t.Errorf("%s %s: code %d, body (-want +got):\n%s", step.method, step.path, got.Code, diff)
		}
	}
}
