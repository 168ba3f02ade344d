package httpapi_test

import (
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// TestKubectlStrategicMergePatch: client-side kubectl apply of a Lease
// (a built-in kind) creates it, then changes it with a strategic merge
// patch, which kubectl sends for the kinds it knows; kubectl patch's
// default type is strategic too. A custom kind still answers such a
// patch 415, as the real server answers it for a custom resource.
func TestKubectlStrategicMergePatch(t *testing.T) {
	s := meta.NewScheme()
	if err := builtin.Register(s); err != nil {
		t.Fatal(err)
	}
	if err := s.Register(apiservertest.WidgetKind()); err != nil {
		t.Fatal(err)
	}
	k := newKubectl(t, serve(t, apiserver.NewServer(s, apiserver.Options{})).URL)
	head := "apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: lock\n  namespace: default\n"
	lease := k.file("lease.yaml", head+"  finalizers: [example.com/a]\nspec:\n  holderIdentity: alice\n  leaseDurationSeconds: 15\n")
	k.must("lease.coordination.k8s.io/lock created\n", "apply", "-f", lease)

	// Changed: the holder; gone: the duration (kubectl's three-way patch
	// deletes it); a finalizer added to the list.
	k.file("lease.yaml", head+"  finalizers: [example.com/a, example.com/b]\nspec:\n  holderIdentity: bob\n")
	k.must("lease.coordination.k8s.io/lock configured\n", "apply", "-f", lease)
	k.must("bob  example.com/a example.com/b\n", "get", "lease", "lock", "-o",
		`jsonpath={.spec.holderIdentity} {.spec.leaseDurationSeconds} {.metadata.finalizers[*]}{"\n"}`)

	k.must("lease.coordination.k8s.io/lock patched\n", "patch", "lease", "lock", "-p",
		`{"metadata":{"$deleteFromPrimitiveList/finalizers":["example.com/a","example.com/b"]},"spec":{"leaseTransitions":1}}`)
	k.must("bob 1 \n", "get", "lease", "lock", "-o",
		`jsonpath={.spec.holderIdentity} {.spec.leaseTransitions} {.metadata.finalizers[*]}{"\n"}`)

	k.must("widget.test.kitchensync.io/w created\n", "create", "-f", k.file("w.yaml",
		"apiVersion: test.kitchensync.io/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: default\n"))
	k.fail("error: application/strategic-merge-patch+json is not supported by test.kitchensync.io/v1, Kind=Widget: "+
		"the body of the request was in an unknown format - accepted media types include: "+
		"application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml\n", "patch", "widget", "w", "--type=strategic", "-p", `{"spec":{"color":"red"}}`)
}
