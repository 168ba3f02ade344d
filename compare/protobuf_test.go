package compare

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/utils/ptr"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/envtest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// protobufCase is an object to create, at path, of the kind; got returns
// an empty object of the kind to decode the answer into.
type protobufCase struct {
	path string
	kind meta.KindInfo
	obj  runtime.Object
	got  func() meta.Object
}

// protobufCases are client-go objects with every field this server keeps
// set, as client-go's typed clients would send them.
func protobufCases() map[string]protobufCase {
	now := metav1.NewTime(time.Date(2026, 12, 2, 1, 2, 3, 0, time.UTC))
	micro := metav1.NewMicroTime(time.Date(2026, 12, 2, 1, 2, 3, 456789000, time.UTC))
	om := metav1.ObjectMeta{Namespace: "default", Labels: map[string]string{"a": "1", "b": "2"},
		Annotations: map[string]string{"note": "x"}, Finalizers: []string{"example.com/keep"},
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: "owner",
			UID: "u-1", Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(false)}}}
	lease := &coordinationv1.Lease{
		TypeMeta: metav1.TypeMeta{APIVersion: "coordination.k8s.io/v1", Kind: "Lease"}, ObjectMeta: om,
		Spec: coordinationv1.LeaseSpec{HolderIdentity: ptr.To("me"), LeaseDurationSeconds: ptr.To[int32](15),
			AcquireTime: &micro, RenewTime: &micro, LeaseTransitions: ptr.To[int32](3)}}
	lease.Name = "lock"
	event := &corev1.Event{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Event"}, ObjectMeta: om,
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "default", Name: "p", UID: types.UID("u-2"),
			APIVersion: "v1", ResourceVersion: "7", FieldPath: "spec.containers{c}"},
		Reason: "Started", Message: "it started", Source: corev1.EventSource{Component: "kubelet", Host: "node-1"},
		FirstTimestamp: now, LastTimestamp: now, Count: 2, Type: "Normal", EventTime: micro,
		Series: &corev1.EventSeries{Count: 4, LastObservedTime: micro}, Action: "Start",
		Related:             &corev1.ObjectReference{Kind: "Node", Name: "node-1"},
		ReportingController: "kubelet", ReportingInstance: "node-1"}
	event.Name = "p.1"
	namespace := &corev1.Namespace{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"}, ObjectMeta: om,
		Spec:   corev1.NamespaceSpec{Finalizers: []corev1.FinalizerName{"kubernetes"}},
		Status: corev1.NamespaceStatus{Phase: corev1.NamespaceActive}}
	namespace.Namespace, namespace.Name = "", "kitchen"
	return map[string]protobufCase{
		"Lease": {"/apis/coordination.k8s.io/v1/namespaces/default/leases", builtin.LeaseKind(), lease,
			func() meta.Object { return &builtin.Lease{} }},
		"Event": {"/api/v1/namespaces/default/events", builtin.EventKind(), event,
			func() meta.Object { return &builtin.Event{} }},
		"Namespace": {"/api/v1/namespaces", builtin.NamespaceKind(), namespace,
			func() meta.Object { return &builtin.Namespace{} }},
	}
}

// TestProtobufRequestBodies sends built-in objects in Kubernetes' protobuf
// envelope, encoded by client-go's own generated code, and checks that the
// server stores what it stores for the same object sent as JSON.
func TestProtobufRequestBodies(t *testing.T) {
	pb := protobuf.NewSerializer(clientgoscheme.Scheme, clientgoscheme.Scheme)
	for name, tc := range protobufCases() {
		t.Run(name, func(t *testing.T) {
			stored := map[string]meta.Object{}
			for _, enc := range []string{"json", "protobuf"} {
				env := envtest.Start(t, envtest.Options{Kinds: []meta.KindInfo{tc.kind}})
				var body bytes.Buffer
				ct := "application/json"
				if enc == "protobuf" {
					ct = "application/vnd.kubernetes.protobuf"
					require.NoError(t, pb.Encode(tc.obj, &body))
				} else {
					require.NoError(t, json.NewEncoder(&body).Encode(tc.obj))
				}
				out := send(t, http.MethodPost, env.Config.Host+tc.path, ct, body.Bytes())
				require.Equal(t, http.StatusCreated, out.code, "%s", out.body)
				obj := tc.got()
				require.NoError(t, json.Unmarshal(out.body, obj))
				stored[enc] = obj
			}
			require.NotEmpty(t, stored["protobuf"].GetObjectMeta().Labels, "labels were lost")
			ignore := cmpopts.IgnoreFields(meta.ObjectMeta{}, "UID", "CreationTimestamp", "ManagedFields")
			if diff := cmp.Diff(stored["json"], stored["protobuf"], ignore); diff != "" {
				t.Errorf("stored from protobuf differs from stored from JSON (-json +protobuf):\n%s", diff)
			}
		})
	}
}

// TestProtobufNegotiation: an Accept that allows only protobuf is 406 for
// a kind that cannot write it (a custom kind, as on the real server); one
// that puts JSON first is answered in JSON; a malformed envelope is 400.
func TestProtobufNegotiation(t *testing.T) {
	env := envtest.Start(t, envtest.Options{Kinds: []meta.KindInfo{builtin.LeaseKind(), apiservertest.WidgetKind()}})
	pb := protobuf.NewSerializer(clientgoscheme.Scheme, clientgoscheme.Scheme)
	tc := protobufCases()["Lease"]
	var body bytes.Buffer
	require.NoError(t, pb.Encode(tc.obj, &body))

	out := send(t, http.MethodGet, env.Config.Host+"/apis/test.kitchensync.io/v1/namespaces/default/widgets", "", nil,
		"Accept", "application/vnd.kubernetes.protobuf")
	require.Equal(t, http.StatusNotAcceptable, out.code, "%s", out.body)
	require.Equal(t, "application/json", out.contentType)

	out = send(t, http.MethodPost, env.Config.Host+tc.path, "application/vnd.kubernetes.protobuf", body.Bytes(),
		"Accept", "application/json, application/vnd.kubernetes.protobuf")
	require.Equal(t, http.StatusCreated, out.code, "%s", out.body)
	require.Equal(t, "application/json", out.contentType)

	out = send(t, http.MethodPost, env.Config.Host+"/apis/coordination.k8s.io/v1/namespaces/default/leases",
		"application/vnd.kubernetes.protobuf", []byte("k8s\x00\x0a\x03abc"))
	require.Equal(t, http.StatusBadRequest, out.code, "%s", out.body)
}

type response struct {
	code        int
	contentType string
	body        []byte
}

func send(t *testing.T, method, url, contentType string, body []byte, header ...string) response {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", contentType)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return response{code: resp.StatusCode, contentType: resp.Header.Get("Content-Type"), body: b}
}

// TestProtobufAnswers: each built-in kind is answered in the protobuf
// envelope to a client that prefers it (or accepts only it), and
// client-go's own decoder reads the same object from it as from the JSON
// answer.
func TestProtobufAnswers(t *testing.T) {
	pb := protobuf.NewSerializer(clientgoscheme.Scheme, clientgoscheme.Scheme)
	for name, tc := range protobufCases() {
		t.Run(name, func(t *testing.T) {
			env := envtest.Start(t, envtest.Options{Kinds: []meta.KindInfo{tc.kind}})
			var body bytes.Buffer
			require.NoError(t, pb.Encode(tc.obj, &body))
			out := send(t, http.MethodPost, env.Config.Host+tc.path, "application/vnd.kubernetes.protobuf", body.Bytes(),
				"Accept", "application/vnd.kubernetes.protobuf, application/json")
			require.Equal(t, http.StatusCreated, out.code, "%s", out.body)
			require.Equal(t, "application/vnd.kubernetes.protobuf", out.contentType)
			name := tc.obj.(metav1.Object).GetName()

			for _, accept := range []string{"application/vnd.kubernetes.protobuf, application/json", "application/vnd.kubernetes.protobuf"} {
				out = send(t, http.MethodGet, env.Config.Host+tc.path+"/"+name, "", nil, "Accept", accept)
				require.Equal(t, http.StatusOK, out.code, "%s", out.body)
				require.Equal(t, "application/vnd.kubernetes.protobuf", out.contentType)
				fromProtobuf, _, err := pb.Decode(out.body, nil, empty(tc.obj))
				require.NoError(t, err)
				out = send(t, http.MethodGet, env.Config.Host+tc.path+"/"+name, "", nil, "Accept", "application/json")
				require.Equal(t, http.StatusOK, out.code, "%s", out.body)
				fromJSON := empty(tc.obj)
				require.NoError(t, json.Unmarshal(out.body, fromJSON))
				want, err := json.Marshal(fromJSON)
				require.NoError(t, err)
				got, err := json.Marshal(fromProtobuf)
				require.NoError(t, err)
				require.JSONEq(t, string(want), string(got))
			}
		})
	}
}

// empty returns a new, empty object of obj's type.
func empty(obj runtime.Object) runtime.Object {
	return reflect.New(reflect.TypeOf(obj).Elem()).Interface().(runtime.Object)
}
