package fieldmanager

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// emptyTree, copied from the kind's cached tree, is what encoding the
// empty object with its name and namespace gives, for typed kinds (the
// built-in ones) and an unstructured one, every time; and a caller
// changing the tree it got changes nobody else's.
func TestEmptyTree(t *testing.T) {
	crd := meta.KindInfo{Group: "test.kitchensync.io", Version: "v1", Kind: "Gizmo", Resource: "gizmos", Namespaced: true}
	crd.New = func() meta.Object { return meta.NewUnstructured(crd.GroupVersionKind()) }
	for _, info := range []meta.KindInfo{builtin.EventKind(), builtin.LeaseKind(), builtin.NamespaceKind(), crd} {
		for _, id := range [][2]string{{"a", "ns"}, {"b", ""}, {"", ""}, {"a", "ns"}} {
			obj := info.New()
			*obj.GetTypeMeta() = info.TypeMeta()
			obj.GetObjectMeta().Name, obj.GetObjectMeta().Namespace = id[0], id[1]
			want, err := objectTree(obj)
			if err != nil {
				t.Fatal(err)
			}
			got, err := emptyTree(info, id[0], id[1])
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("%s %q: (-encoded +emptyTree):\n%s", info.Kind, id, diff)
			}
			got["metadata"].(map[string]any)["name"] = "changed"
		}
	}
}
