package httpapi_test

import (
	"encoding/binary"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver"
)

// The Accept headers of client-go's metadata client (protobuf first) and
// their JSON forms.
const (
	metaAccept     = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json"
	metaListAccept = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json"
	metaJSON       = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1"
	metaListJSON   = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1"
)

// w1Meta is w1 (see seeded) as a PartialObjectMetadata.
const w1Meta = `{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"w1","namespace":"default","uid":"<uid>","resourceVersion":"2","generation":1,"creationTimestamp":"<time>","labels":{"app":"shop"}}}`

// TestMetadataOnlyJSON: a client that asks for PartialObjectMetadata gets
// each object's metadata alone, a list of them for a list, and each watch
// event's object so (a bookmark's too); the wrong form for the request is
// 406 naming the Go type kube-apiserver names.
func TestMetadataOnlyJSON(t *testing.T) {
	ts := serve(t, seeded(t, apiserver.Options{}))
	for _, tc := range []struct {
		name, path, accept string
		code               int
		want               string
	}{
		{"object", w1Path, metaJSON, 200, w1Meta},
		{"list", wPath + "?labelSelector=app%3Dshop", metaListJSON, 200,
			`{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"5"},"items":[` + w1Meta + `]}`},
		{"empty list", wPath + "?labelSelector=app%3Dnone", metaListJSON, 200,
			`{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"5"},"items":null}`},
		{"object form of a list", wPath, metaJSON, 406, `{"apiVersion":"v1","kind":"Status","status":"Failure",` +
			`"message":"you requested PartialObjectMetadata, but the requested object is a list (*unstructured.UnstructuredList)","reason":"NotAcceptable","code":406}`},
		{"list form of an object", w1Path, metaListJSON, 406, `{"apiVersion":"v1","kind":"Status","status":"Failure",` +
			`"message":"you requested PartialObjectMetadataList, but the requested object is not a list (*unstructured.Unstructured)","reason":"NotAcceptable","code":406}`},
		{"an error is a Status", wPath + "/nope", metaAccept, 404, `{"apiVersion":"v1","kind":"Status","status":"Failure",` +
			`"message":"widgets.test.kitchensync.io \"nope\" not found","reason":"NotFound","details":{"name":"nope","group":"test.kitchensync.io","kind":"widgets"},"code":404}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := do(t, ts, "GET", tc.path, "", "Accept", tc.accept)
			if diff := cmp.Diff(decode(t, tc.want), got.Body); diff != "" || got.Code != tc.code {
				t.Errorf("code %d (want %d), body (-want +got):\n%s", got.Code, tc.code, diff)
			}
		})
	}

	s := watch(t, ts.URL+wPath+"?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&labelSelector=app%3Dshop",
		"Accept", metaAccept[len("application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,"):])
	s.expect(event("ADDED", w1Meta), event("BOOKMARK",
		`{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"5","annotations":{"k8s.io/initial-events-end":"true"}}}`))
}

// TestMetadataOnlyWrites: a write's answer is the written object's
// metadata; a delete's Success stays a Status.
func TestMetadataOnlyWrites(t *testing.T) {
	ts := serve(t, seeded(t, apiserver.Options{}))
	got := do(t, ts, "PATCH", w1Path, `{"metadata":{"labels":{"more":"yes"}}}`,
		"Content-Type", "application/merge-patch+json", "Accept", metaJSON)
	want := `{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"w1","namespace":"default","uid":"<uid>","resourceVersion":"6","generation":1,"creationTimestamp":"<time>","labels":{"app":"shop","more":"yes"}}}`
	if diff := cmp.Diff(decode(t, want), got.Body); diff != "" {
		t.Errorf("patch (-want +got):\n%s", diff)
	}
	got = do(t, ts, "DELETE", w1Path, "", "Accept", metaJSON)
	want = `{"apiVersion":"v1","kind":"Status","status":"Success","details":{"name":"w1","group":"test.kitchensync.io","kind":"widgets","uid":"<uid>"}}`
	if diff := cmp.Diff(decode(t, want), got.Body); diff != "" {
		t.Errorf("delete (-want +got):\n%s", diff)
	}
	got = do(t, ts, "DELETE", wPath+"?labelSelector=app%3Dnone", "", "Accept", metaJSON)
	if got.Code != 406 {
		t.Errorf("deletecollection asking for one object's metadata: %d %s, want 406", got.Code, got.Raw)
	}
}

// TestMetadataOnlyProtobuf: in protobuf, for a custom kind too (the form
// is meta.k8s.io's): an object is a PartialObjectMetadata {1: metadata}
// in the envelope, a list a PartialObjectMetadataList {1: listMeta, 2:
// items}, a watch's frames carry PartialObjectMetadata bodies.
func TestMetadataOnlyProtobuf(t *testing.T) {
	ts := serve(t, seeded(t, apiserver.Options{}))
	resp, body := get(t, ts.URL+w1Path, metaAccept)
	apiVersion, kind, raw := unwrap(t, body)
	om := parseFields(t, parseFields(t, raw).bytes[1][0])
	got := []string{resp.Header.Get("Content-Type"), apiVersion, kind, string(om.bytes[1][0]), string(om.bytes[6][0])}
	want := []string{"application/vnd.kubernetes.protobuf", "meta.k8s.io/v1", "PartialObjectMetadata", "w1", "2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("object (-want +got):\n%s", diff)
	}

	_, body = get(t, ts.URL+"/apis/test.kitchensync.io/v1/widgets", metaListAccept)
	apiVersion, kind, raw = unwrap(t, body)
	list := parseFields(t, raw)
	got = []string{apiVersion, kind, string(parseFields(t, list.bytes[1][0]).bytes[2][0])}
	for _, item := range list.bytes[2] {
		got = append(got, string(parseFields(t, parseFields(t, item).bytes[1][0]).bytes[1][0]))
	}
	want = []string{"meta.k8s.io/v1", "PartialObjectMetadataList", "5", "w1", "w2", "w3"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("list (-want +got):\n%s", diff)
	}

	resp, body = get(t, ts.URL+"/apis/test.kitchensync.io/v1/widgets?watch=true&resourceVersion=3&timeoutSeconds=1", metaAccept)
	frames := parseFrames(t, body)
	got = []string{resp.Header.Get("Content-Type")}
	for _, f := range frames {
		ev := parseFields(t, f)
		apiVersion, kind, raw := unwrap(t, parseFields(t, ev.bytes[2][0]).bytes[1][0])
		name := parseFields(t, parseFields(t, raw).bytes[1][0]).bytes[1][0]
		got = append(got, string(ev.bytes[1][0])+" "+apiVersion+" "+kind+" "+string(name))
	}
	want = []string{"application/vnd.kubernetes.protobuf;stream=watch", "ADDED meta.k8s.io/v1 PartialObjectMetadata w3"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("watch (-want +got):\n%s", diff)
	}
}

// parseFrames splits a protobuf watch stream into its frames' WatchEvent
// messages.
func parseFrames(t *testing.T, b []byte) [][]byte {
	t.Helper()
	var out [][]byte
	for len(b) > 0 {
		if len(b) < 4 || int(binary.BigEndian.Uint32(b)) > len(b)-4 {
			t.Fatalf("truncated frame: %q", b)
		}
		n := binary.BigEndian.Uint32(b)
		out = append(out, b[4:4+n])
		b = b[4+n:]
	}
	return out
}
