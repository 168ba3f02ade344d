package apiserver

import (
	"cmp"
	"slices"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// objectRef locates one stored object: its resource and storage key.
type objectRef struct {
	gr  meta.GroupResource
	key string
}

// ownerIndex maps an owner's UID to the objects whose ownerReferences
// name it, so that the garbage collector (package apiserver/gc) finds an
// owner's dependents without a scan. Guarded by the server's mu.
type ownerIndex map[string]map[objectRef]struct{}

// index keeps x up to date for a commit that turns prev into obj (or
// deletes it, for EventDeleted).
func (x ownerIndex) index(ref objectRef, typ meta.EventType, obj, prev *entry) {
	if prev != nil {
		for _, o := range prev.obj.GetObjectMeta().OwnerReferences {
			deps := x[o.UID]
			delete(deps, ref)
			if len(deps) == 0 {
				delete(x, o.UID)
			}
		}
	}
	if typ == meta.EventDeleted {
		return
	}
	for _, o := range obj.obj.GetObjectMeta().OwnerReferences {
		deps := x[o.UID]
		if deps == nil {
			deps = make(map[objectRef]struct{})
			x[o.UID] = deps
		}
		deps[ref] = struct{}{}
	}
}

// dependents returns, sorted, the objects that name uid as an owner.
func (x ownerIndex) dependents(uid string) []objectRef {
	var out []objectRef
	for ref := range x[uid] {
		out = append(out, ref)
	}
	slices.SortFunc(out, func(a, b objectRef) int {
		if a.gr != b.gr {
			return cmp.Compare(a.gr.String(), b.gr.String())
		}
		return cmp.Compare(a.key, b.key)
	})
	return out
}
