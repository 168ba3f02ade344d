package fieldmanager

import (
	"reflect"
	"sync"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// emptyTree is an object of the kind with nothing set but its identity:
// what a create starts from. Every create of a kind starts from the same
// tree but for its name and namespace, so the tree of the kind's empty
// object is made once (encoded and decoded) and copied after.
func emptyTree(info meta.KindInfo, name, ns string) (map[string]any, error) {
	obj := info.New()
	key := emptyKey{info.GroupVersionKind(), reflect.TypeOf(obj)}
	empty, ok := emptyTrees.Load(key)
	if !ok {
		*obj.GetTypeMeta() = info.TypeMeta()
		tree, err := objectTree(obj)
		if err != nil {
			return nil, err
		}
		empty, _ = emptyTrees.LoadOrStore(key, tree)
	}
	tree := meta.DeepCopyJSONValue(empty).(map[string]any)
	md, _ := tree["metadata"].(map[string]any)
	if md == nil && (name != "" || ns != "") {
		md = map[string]any{}
		tree["metadata"] = md
	}
	if name != "" { // name and namespace are omitted when empty
		md["name"] = name
	}
	if ns != "" {
		md["namespace"] = ns
	}
	return tree, nil
}

// emptyTrees holds the tree of each kind's empty object (read-only),
// by emptyKey: a kind of one version, in one Go type.
var emptyTrees sync.Map

type emptyKey struct {
	gvk meta.GroupVersionKind
	typ reflect.Type
}
