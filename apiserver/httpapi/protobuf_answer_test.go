package httpapi_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// pbFields is a protobuf message read into its fields, by number:
// varints as numbers, length-delimited fields as bytes.
type pbFields struct {
	bytes  map[protowire.Number][][]byte
	varint map[protowire.Number]uint64
}

func parseFields(t *testing.T, b []byte) pbFields {
	t.Helper()
	f := pbFields{bytes: map[protowire.Number][][]byte{}, varint: map[protowire.Number]uint64{}}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			t.Fatalf("bad tag: %v", protowire.ParseError(n))
		}
		b = b[n:]
		switch typ {
		case protowire.VarintType:
			f.varint[num], n = protowire.ConsumeVarint(b)
		case protowire.BytesType:
			var v []byte
			v, n = protowire.ConsumeBytes(b)
			f.bytes[num] = append(f.bytes[num], v)
		default:
			t.Fatalf("field %d: unexpected wire type %d", num, typ)
		}
		if n < 0 {
			t.Fatalf("field %d: %v", num, protowire.ParseError(n))
		}
		b = b[n:]
	}
	return f
}

// unwrap checks the magic and reads the envelope: the typeMeta's
// apiVersion and kind, and the raw message.
func unwrap(t *testing.T, body []byte) (apiVersion, kind string, raw []byte) {
	t.Helper()
	rest, ok := bytes.CutPrefix(body, []byte("k8s\x00"))
	if !ok {
		t.Fatalf("no magic: %q", body)
	}
	env := parseFields(t, rest)
	tm := parseFields(t, env.bytes[1][0])
	return string(tm.bytes[1][0]), string(tm.bytes[2][0]), env.bytes[2][0]
}

func protobufServer(t *testing.T) (*apiserver.Server, string) {
	t.Helper()
	s := meta.NewScheme()
	if err := builtin.Register(s); err != nil {
		t.Fatal(err)
	}
	srv := apiserver.NewServer(s, apiserver.Options{})
	return srv, serve(t, srv).URL
}

func get(t *testing.T, url, accept string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", accept)
	return doRaw(t, req)
}

// doRaw sends req and reads the whole answer.
func doRaw(t *testing.T, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

const pbAccept = "application/vnd.kubernetes.protobuf, application/json"

// TestProtobufListAndError: a list of a built-in kind is its List kind
// in the envelope (ListMeta, then one item per object), and an error is a
// meta/v1 Status in the envelope, to a client that prefers protobuf.
func TestProtobufListAndError(t *testing.T) {
	srv, url := protobufServer(t)
	leases := client.New[*builtin.Lease](srv).Namespace("default")
	for _, name := range []string{"a", "b"} {
		if _, err := leases.Create(context.Background(), &builtin.Lease{ObjectMeta: meta.ObjectMeta{Name: name}}, meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	resp, body := get(t, url+"/apis/coordination.k8s.io/v1/namespaces/default/leases", pbAccept)
	if ct := resp.Header.Get("Content-Type"); ct != "application/vnd.kubernetes.protobuf" {
		t.Fatalf("list Content-Type %q", ct)
	}
	apiVersion, kind, raw := unwrap(t, body)
	list := parseFields(t, raw)
	om := parseFields(t, list.bytes[1][0])
	got := []string{apiVersion, kind, string(om.bytes[2][0])}
	for _, item := range list.bytes[2] {
		got = append(got, string(parseFields(t, parseFields(t, item).bytes[1][0]).bytes[1][0]))
	}
	if diff := cmp.Diff([]string{"coordination.k8s.io/v1", "LeaseList", "3", "a", "b"}, got); diff != "" {
		t.Errorf("list (-want +got):\n%s", diff)
	}

	resp, body = get(t, url+"/apis/coordination.k8s.io/v1/namespaces/default/leases/missing", pbAccept)
	apiVersion, kind, raw = unwrap(t, body)
	st := parseFields(t, raw)
	got = []string{resp.Status, apiVersion, kind, string(st.bytes[2][0]), string(st.bytes[3][0]), string(st.bytes[4][0])}
	want := []string{"404 Not Found", "v1", "Status", "Failure", `leases.coordination.k8s.io "missing" not found`, "NotFound"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}
	if st.varint[6] != 404 {
		t.Errorf("Status code %d, want 404", st.varint[6])
	}
}

// TestProtobufWatchFrames: a watch of a built-in kind, to a client that
// prefers protobuf, is a stream of length-prefixed WatchEvents whose
// object is a whole protobuf body.
func TestProtobufWatchFrames(t *testing.T) {
	srv, url := protobufServer(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"/apis/coordination.k8s.io/v1/namespaces/default/leases?watch=true&resourceVersion=1", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", pbAccept)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "application/vnd.kubernetes.protobuf;stream=watch" {
		t.Fatalf("watch Content-Type %q", ct)
	}
	leases := client.New[*builtin.Lease](srv).Namespace("default")
	if _, err := leases.Create(ctx, &builtin.Lease{ObjectMeta: meta.ObjectMeta{Name: "lock"}}, meta.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(resp.Body)
	var size [4]byte
	if _, err := io.ReadFull(r, size[:]); err != nil {
		t.Fatal(err)
	}
	frame := make([]byte, binary.BigEndian.Uint32(size[:]))
	if _, err := io.ReadFull(r, frame); err != nil {
		t.Fatal(err)
	}
	ev := parseFields(t, frame)
	apiVersion, kind, raw := unwrap(t, parseFields(t, ev.bytes[2][0]).bytes[1][0])
	name := parseFields(t, parseFields(t, raw).bytes[1][0]).bytes[1][0]
	got := []string{string(ev.bytes[1][0]), apiVersion, kind, string(name)}
	if diff := cmp.Diff([]string{"ADDED", "coordination.k8s.io/v1", "Lease", "lock"}, got); diff != "" {
		t.Errorf("frame (-want +got):\n%s", diff)
	}
}

// TestProtobufStrictFieldValidation: fieldValidation=Strict does not
// apply to a protobuf body, as in kube-apiserver (its protobuf decoder
// has no strict mode): a field the kind does not know is dropped, with
// neither an error nor a warning. A JSON body with the same unknown field
// is refused.
func TestProtobufStrictFieldValidation(t *testing.T) {
	_, url := protobufServer(t)
	msg := func(b []byte, num protowire.Number, v []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), v)
	}
	om := msg(nil, 1, []byte("lock"))
	lease := msg(msg(nil, 1, om), 99, []byte("a field from the future"))
	typeMeta := msg(msg(nil, 1, []byte("coordination.k8s.io/v1")), 2, []byte("Lease"))
	body := msg(msg([]byte("k8s\x00"), 1, typeMeta), 2, lease)
	for _, tc := range []struct {
		contentType string
		body        []byte
		want        int
	}{
		{"application/vnd.kubernetes.protobuf", body, http.StatusCreated},
		{"application/json", []byte(`{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"lock2"},"future":1}`), http.StatusBadRequest},
	} {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost,
			url+"/apis/coordination.k8s.io/v1/namespaces/default/leases?fieldValidation=Strict", bytes.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", tc.contentType)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.want || resp.Header.Get("Warning") != "" {
			t.Errorf("%s: %s, Warning %q, want %d without a warning: %s", tc.contentType, resp.Status, resp.Header.Get("Warning"), tc.want, out)
		}
	}
}
