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
	tree := copyTree(empty.(map[string]any))
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

// copyTree returns a copy of tree that shares no map or slice with it.
func copyTree(tree map[string]any) map[string]any {
	out := make(map[string]any, len(tree))
	for k, v := range tree {
		out[k] = copyValue(v)
	}
	return out
}

func copyValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		return copyTree(v)
	case []any:
		out := make([]any, len(v))
		for i, item := range v {
			out[i] = copyValue(item)
		}
		return out
	}
	return v
}
