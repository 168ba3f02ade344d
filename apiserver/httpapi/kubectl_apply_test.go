package httpapi_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
)

// TestKubectlServerSideApply has two field managers apply the same widget
// with kubectl apply --server-side: the second one's different color is a
// conflict, answered with the real server's message naming the owner and
// the field, until --force-conflicts takes the field over.
func TestKubectlServerSideApply(t *testing.T) {
	srv := apiservertest.NewServer(t)
	k := newKubectl(t, serve(t, srv).URL)
	head := "apiVersion: test.kitchensync.io/v1\nkind: Widget\nmetadata:\n  name: w9\n"
	alice := k.file("alice.yaml", head+"spec:\n  color: red\n  size: 2\n")
	bob := k.file("bob.yaml", head+"spec:\n  color: blue\n")

	k.must("widget.test.kitchensync.io/w9 serverside-applied\n",
		"apply", "--server-side", "--field-manager=alice", "-f", alice)
	_, errOut, ok := k.run("apply", "--server-side", "--field-manager=bob", "-f", bob)
	wantFirst := `error: Apply failed with 1 conflict: conflict with "alice": .spec.color` + "\n"
	if ok || !strings.HasPrefix(errOut, wantFirst) || !strings.Contains(errOut, "--force-conflicts") {
		t.Fatalf("second apply: ok=%v, stderr:\n%s\nwant it to start with %q", ok, errOut, wantFirst)
	}
	k.must("widget.test.kitchensync.io/w9 serverside-applied\n",
		"apply", "--server-side", "--field-manager=bob", "--force-conflicts", "-f", bob)
	k.must("blue 2\n", "get", "widget", "w9", "-o", `jsonpath={.spec.color} {.spec.size}{"\n"}`)
	managers(k, `alice Apply {"f:spec":{"f:size":{}}}`, `bob Apply {"f:spec":{"f:color":{}}}`)

	// alice stops applying size: nobody else owns it, so it goes.
	k.file("alice.yaml", head+"spec:\n  color: blue\n")
	k.must("widget.test.kitchensync.io/w9 serverside-applied\n",
		"apply", "--server-side", "--field-manager=alice", "-f", alice)
	k.must("blue \n", "get", "widget", "w9", "-o", `jsonpath={.spec.color} {.spec.size}{"\n"}`)

	// A client-side writer becomes a manager too (operation Update).
	k.must("widget.test.kitchensync.io/w9 patched\n", "patch", "widget", "w9", "--type=merge", "-p", `{"spec":{"size":7}}`)
	managers(k, `alice Apply {"f:spec":{"f:color":{}}}`, `bob Apply {"f:spec":{"f:color":{}}}`,
		`kubectl-patch Update {"f:spec":{"f:size":{}}}`)
}

// TestKubectlReapplyChangesNothing applies the same manifest twice with
// kubectl apply --server-side: the second apply writes nothing, as on
// kube-apiserver (same resourceVersion, same time for the manager), so a
// controller watching the widget hears of nothing.
func TestKubectlReapplyChangesNothing(t *testing.T) {
	srv := apiservertest.NewServer(t)
	k := newKubectl(t, serve(t, srv).URL)
	manifest := k.file("w.yaml", "apiVersion: test.kitchensync.io/v1\nkind: Widget\nmetadata:\n  name: w8\n  labels:\n    team: red\nspec:\n  color: red\n")
	apply := []string{"apply", "--server-side", "--field-manager=alice", "-f", manifest}
	state := []string{"get", "widget", "w8", "--show-managed-fields", "-o",
		`jsonpath={.metadata.resourceVersion} {.metadata.managedFields[0].time}{"\n"}`}
	k.must("widget.test.kitchensync.io/w8 serverside-applied\n", apply...)
	before, _, _ := k.run(state...)
	k.must("widget.test.kitchensync.io/w8 serverside-applied\n", apply...)
	k.must(before, state...)
	if rv := srv.ResourceVersion(); !strings.HasPrefix(before, rv+" ") {
		t.Errorf("the server moved to %s after a re-apply (state before: %s)", rv, before)
	}
}

// managers checks w9's metadata.managedFields, one "manager operation
// fieldsV1" line each, sorted (entries written in the same second may
// come in either order).
func managers(k *kubectl, want ...string) {
	k.t.Helper()
	out, errOut, ok := k.run("get", "widget", "w9", "--show-managed-fields", "-o",
		`jsonpath={range .metadata.managedFields[*]}{.manager} {.operation} {.fieldsV1}{"\n"}{end}`)
	if !ok {
		k.t.Fatalf("kubectl get: %s", errOut)
	}
	got := strings.Split(strings.TrimSpace(out), "\n")
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		k.t.Errorf("managedFields (-want +got):\n%s", diff)
	}
}
