package httpapi_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// deleteCollection sends DELETE on url with the Accept header.
func deleteCollection(t *testing.T, url, accept string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodDelete, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", accept)
	return doRaw(t, req)
}

// TestDeleteCollectionForms: deletecollection answers the deleted objects
// in the form Accept asks for, as a list is answered: the list kind in
// the protobuf envelope, a Table, or JSON whose items (of a built-in
// kind) carry no apiVersion and kind; an Accept it cannot answer is 406,
// and then nothing is deleted.
func TestDeleteCollectionForms(t *testing.T) {
	srv, url := protobufServer(t)
	leases := labelledLeases(t, srv, "pb", "table", "json", "none")
	path := url + "/apis/coordination.k8s.io/v1/namespaces/default/leases?labelSelector=set%3D"
	var got []string

	resp, body := deleteCollection(t, path+"pb", pbAccept)
	apiVersion, kind, raw := unwrap(t, body)
	item := parseFields(t, parseFields(t, parseFields(t, raw).bytes[2][0]).bytes[1][0])
	got = append(got, resp.Header.Get("Content-Type"), apiVersion, kind, string(item.bytes[1][0]))

	resp, body = deleteCollection(t, path+"table", "application/json;as=Table;v=v1;g=meta.k8s.io")
	tbl := decode(t, string(body)).(map[string]any)
	row := tbl["rows"].([]any)[0].(map[string]any)
	got = append(got, resp.Header.Get("Content-Type"), tbl["kind"].(string), row["cells"].([]any)[0].(string))

	resp, body = deleteCollection(t, path+"json", "application/json")
	list := decode(t, string(body)).(map[string]any)
	_, hasKind := list["items"].([]any)[0].(map[string]any)["kind"]
	got = append(got, resp.Header.Get("Content-Type"), list["kind"].(string), map[bool]string{true: "item kind", false: "no item kind"}[hasKind])

	resp, _ = deleteCollection(t, path+"none", "text/plain")
	remaining, _, err := leases.List(context.Background(), meta.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, resp.Status, remaining[0].Name)

	want := []string{
		"application/vnd.kubernetes.protobuf", "coordination.k8s.io/v1", "LeaseList", "pb",
		"application/json", "Table", "table",
		"application/json", "LeaseList", "no item kind",
		"406 Not Acceptable", "none",
	}
	if diff := cmp.Diff(want, got); diff != "" || len(remaining) != 1 {
		t.Errorf("deletecollection answers (-want +got):\n%s\nremaining %d leases, want 1", diff, len(remaining))
	}
}

// labelledLeases creates Leases in namespace default, each labelled
// set=its name, and returns their client.
func labelledLeases(t *testing.T, srv *apiserver.Server, names ...string) *client.Client[*builtin.Lease] {
	t.Helper()
	leases := client.New[*builtin.Lease](srv).Namespace("default")
	for _, name := range names {
		l := &builtin.Lease{ObjectMeta: meta.ObjectMeta{Name: name, Labels: map[string]string{"set": name}}}
		if _, err := leases.Create(context.Background(), l, meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	return leases
}
