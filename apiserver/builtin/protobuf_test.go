package builtin

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/namespaces"
)

// message appends the fields built by each to a new message.
func message(fields ...func([]byte) []byte) []byte {
	var b []byte
	for _, f := range fields {
		b = f(b)
	}
	return b
}

func str(num protowire.Number, s string) func([]byte) []byte {
	return func(b []byte) []byte {
		return protowire.AppendString(protowire.AppendTag(b, num, protowire.BytesType), s)
	}
}

func varint(num protowire.Number, v uint64) func([]byte) []byte {
	return func(b []byte) []byte {
		return protowire.AppendVarint(protowire.AppendTag(b, num, protowire.VarintType), v)
	}
}

func embed(num protowire.Number, m []byte) func([]byte) []byte {
	return func(b []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), m)
	}
}

func TestLeaseUnmarshalProtobuf(t *testing.T) {
	at := time.Date(2026, 12, 2, 1, 2, 3, 456789123, time.UTC)
	stamp := message(varint(1, uint64(at.Unix())), varint(2, uint64(at.Nanosecond())))
	b := message(
		embed(1, message(str(1, "lock"), str(3, "kube-system"), embed(11, message(str(1, "app"), str(2, "chef"))),
			str(14, "example.com/keep"), varint(99, 1))),
		embed(2, message(str(1, "me"), varint(2, 15), embed(3, stamp), embed(4, stamp), varint(5, 2))),
		str(42, "a field from a newer version is skipped"))
	var got Lease
	if err := got.UnmarshalProtobuf(b); err != nil {
		t.Fatal(err)
	}
	micro := NewMicroTime(at)
	want := Lease{
		ObjectMeta: meta.ObjectMeta{Name: "lock", Namespace: "kube-system",
			Labels: map[string]string{"app": "chef"}, Finalizers: []string{"example.com/keep"}},
		Spec: LeaseSpec{HolderIdentity: new("me"), LeaseDurationSeconds: new(int32(15)),
			AcquireTime: &micro, RenewTime: &micro, LeaseTransitions: new(int32(2))},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("UnmarshalProtobuf (-want +got):\n%s", diff)
	}
}

func TestUnmarshalProtobufNamesTheBadField(t *testing.T) {
	for name, tc := range map[string]struct {
		b    []byte
		want string
	}{
		"wrong wire type": {message(embed(2, message(varint(1, 7)))), "Lease: field 2: spec: field 1: wire type 0, want 2"},
		"truncated":       {message(embed(1, message(str(1, "lock"))))[:4], "Lease: field 1: unexpected EOF"},
	} {
		t.Run(name, func(t *testing.T) {
			var l Lease
			err := l.UnmarshalProtobuf(tc.b)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("UnmarshalProtobuf = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestLeaseProtobufRoundTrip(t *testing.T) {
	micro := NewMicroTime(time.Date(2026, 12, 2, 1, 2, 3, 456789000, time.UTC))
	now := meta.NewTime(time.Date(2026, 12, 2, 1, 2, 3, 0, time.UTC).Local())
	want := &Lease{
		ObjectMeta: meta.ObjectMeta{Name: "lock", Namespace: "kube-system", UID: "u", ResourceVersion: "7",
			CreationTimestamp: now, Labels: map[string]string{"b": "2", "a": "1"},
			OwnerReferences: []meta.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: "p", UID: "u2", Controller: new(true)}},
			ManagedFields: []meta.ManagedFieldsEntry{{Manager: "m", Operation: "Update", APIVersion: "coordination.k8s.io/v1",
				Time: &now, FieldsType: "FieldsV1", FieldsV1: []byte(`{"f:spec":{}}`)}}},
		Spec: LeaseSpec{HolderIdentity: new("me"), LeaseDurationSeconds: new(int32(15)), RenewTime: &micro,
			LeaseTransitions: new(int32(-1))},
	}
	b, err := want.MarshalProtobuf()
	if err != nil {
		t.Fatal(err)
	}
	got := &Lease{}
	if err := got.UnmarshalProtobuf(b); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

// protobufKind is what the built-in kinds have in common.
type protobufKind interface {
	meta.Object
	MarshalProtobuf() ([]byte, error)
	UnmarshalProtobuf([]byte) error
}

// TestProtobufRoundTrip: what MarshalProtobuf writes, UnmarshalProtobuf
// reads back unchanged, for every built-in kind; unset times stay unset.
func TestProtobufRoundTrip(t *testing.T) {
	micro := NewMicroTime(time.Date(2026, 12, 2, 1, 2, 3, 456789000, time.UTC))
	now := meta.NewTime(time.Date(2026, 12, 2, 1, 2, 3, 0, time.UTC).Local())
	for _, tc := range []struct {
		name       string
		want, into protobufKind
	}{
		{"Event", &Event{ObjectMeta: meta.ObjectMeta{Name: "w.1", Namespace: "default"},
			InvolvedObject: ObjectReference{Kind: "Widget", Namespace: "default", Name: "w", UID: "u", APIVersion: "example.com/v1", FieldPath: "spec"},
			Reason:         "Painted", Message: "painted w", Source: EventSource{Component: "painter", Host: "h"},
			FirstTimestamp: now, LastTimestamp: now, Count: 3, Type: EventTypeNormal}, &Event{}},
		{"Event, newer fields", &Event{ObjectMeta: meta.ObjectMeta{Name: "w.2"}, EventTime: micro,
			Series: &EventSeries{Count: 2, LastObservedTime: micro}, Action: "Paint",
			Related: &ObjectReference{Kind: "Pod", Name: "p"}, ReportingController: "example.com/painter", ReportingInstance: "painter-1"}, &Event{}},
		{"events.k8s.io/v1 Event", &EventsV1Event{ObjectMeta: meta.ObjectMeta{Name: "w.3", Namespace: "default"},
			EventTime: micro, Series: &EventsV1Series{Count: 2, LastObservedTime: micro},
			ReportingController: "example.com/painter", ReportingInstance: "painter-1", Action: "Paint", Reason: "Painted",
			Regarding: ObjectReference{Kind: "Widget", Name: "w"}, Related: &ObjectReference{Kind: "Pod", Name: "p"},
			Note: "painted w", Type: EventTypeWarning, DeprecatedSource: EventSource{Component: "c", Host: "h"},
			DeprecatedFirstTimestamp: now, DeprecatedLastTimestamp: now, DeprecatedCount: 4}, &EventsV1Event{}},
		{"events.k8s.io/v1 Event, deprecated fields unset", &EventsV1Event{ObjectMeta: meta.ObjectMeta{Name: "w.4"},
			EventTime: micro, Note: "n"}, &EventsV1Event{}},
		{"Namespace", &Namespace{ObjectMeta: meta.ObjectMeta{Name: "shop", CreationTimestamp: now},
			Spec: NamespaceSpec{Finalizers: []string{"kubernetes"}}, Status: NamespaceStatus{Phase: "Active"}}, &Namespace{}},
		{"Namespace, terminating", &Namespace{ObjectMeta: meta.ObjectMeta{Name: "shop", CreationTimestamp: now, DeletionTimestamp: &now},
			Spec: NamespaceSpec{Finalizers: []string{"kubernetes"}}, Status: NamespaceStatus{Phase: "Terminating",
				Conditions: []meta.Condition{{Type: namespaces.NamespaceContentRemaining, Status: meta.ConditionTrue,
					LastTransitionTime: now, Reason: "SomeResourcesRemain", Message: "Some resources are remaining: leases.coordination.k8s.io has 1 resource instances"}}}}, &Namespace{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := tc.want.MarshalProtobuf()
			if err != nil {
				t.Fatal(err)
			}
			if err := tc.into.UnmarshalProtobuf(b); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, tc.into); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		})
	}
}
