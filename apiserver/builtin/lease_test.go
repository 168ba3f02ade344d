package builtin_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

func ptr[T any](v T) *T { return &v }

// TestLeaseWireForm pins the JSON of a Lease: Kubernetes' field names and
// MicroTime's microseconds, and that it reads back the same.
func TestLeaseWireForm(t *testing.T) {
	at := builtin.NewMicroTime(time.Date(2026, 12, 1, 20, 0, 0, 123456789, time.UTC))
	l := &builtin.Lease{
		TypeMeta:   meta.TypeMeta{APIVersion: "coordination.k8s.io/v1", Kind: "Lease"},
		ObjectMeta: meta.ObjectMeta{Namespace: "kitchen", Name: "chef"},
		Spec: builtin.LeaseSpec{
			HolderIdentity: ptr("chef-1"), LeaseDurationSeconds: ptr(int32(15)),
			AcquireTime: &at, RenewTime: &at, LeaseTransitions: ptr(int32(2)),
		},
	}
	b, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"chef","namespace":"kitchen"},` +
		`"spec":{"holderIdentity":"chef-1","leaseDurationSeconds":15,"acquireTime":"2026-12-01T20:00:00.123456Z","renewTime":"2026-12-01T20:00:00.123456Z","leaseTransitions":2}}`
	if string(b) != want {
		t.Errorf("JSON:\n got %s\nwant %s", b, want)
	}
	var back builtin.Lease
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(l, &back); diff != "" {
		t.Errorf("read back (-sent +read):\n%s", diff)
	}
	if diff := cmp.Diff(l, l.DeepCopyObject()); diff != "" {
		t.Errorf("deep copy differs:\n%s", diff)
	}
}

// TestRegister checks that Register makes leases servable, and that a
// bad duration is refused naming the field.
func TestRegister(t *testing.T) {
	s := meta.NewScheme()
	if err := builtin.Register(s); err != nil {
		t.Fatal(err)
	}
	srv := apiserver.NewServer(s, apiserver.Options{})
	leases := srv.Resource(builtin.LeasesResource).Namespace("kitchen")
	l := &builtin.Lease{ObjectMeta: meta.ObjectMeta{Name: "chef"}, Spec: builtin.LeaseSpec{LeaseDurationSeconds: ptr(int32(0))}}
	_, err := leases.Create(t.Context(), l, meta.CreateOptions{})
	want := `Lease.coordination.k8s.io "chef" is invalid: spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0`
	if !meta.IsInvalid(err) || err.Error() != want {
		t.Errorf("Create = %v, want %s", err, want)
	}
	l.Spec.LeaseDurationSeconds = ptr(int32(15))
	if _, err := leases.Create(t.Context(), l, meta.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}
