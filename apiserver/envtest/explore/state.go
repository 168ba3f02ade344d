package explore

import (
	"context"
	"strings"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Objects is the default end state of a run: every object of every kind
// the server serves, keyed "Kind namespace/name", each passed through
// [Normalize]. Two runs of a correct controller under different plans
// end with the same Objects.
func Objects(ctx context.Context, api client.Interface) (map[string]meta.Object, error) {
	out := map[string]meta.Object{}
	for _, info := range api.Scheme().Kinds() {
		list, err := api.ResourceFor(info.GroupVersionResource(), "").List(ctx, meta.ListOptions{})
		if err != nil {
			return nil, err
		}
		for _, obj := range list.Items {
			out[info.Kind+" "+keyOf(obj)] = Normalize(obj)
		}
	}
	return out, nil
}

// Normalize returns a copy of obj without what differs between runs that
// reach the same state by different paths: resourceVersion, uid,
// generation, timestamps (a deletionTimestamp is kept as set, at time
// zero), managedFields, and the uids in ownerReferences.
func Normalize(obj meta.Object) meta.Object {
	obj = obj.DeepCopyObject()
	m := obj.GetObjectMeta()
	m.ResourceVersion, m.UID, m.Generation = "", "", 0
	m.CreationTimestamp = meta.Time{}
	if m.DeletionTimestamp != nil {
		m.DeletionTimestamp = &meta.Time{}
	}
	m.ManagedFields = nil
	for i := range m.OwnerReferences {
		m.OwnerReferences[i].UID = ""
	}
	return obj
}

// endState reads a run's end state with the scenario's function.
func (x *explorer) endState(ctx context.Context, api client.Interface) (any, error) {
	if x.s.EndState != nil {
		return x.s.EndState(ctx, api)
	}
	return Objects(ctx, api)
}

// diff compares two end states: "" if equal, else go-cmp's diff (-want
// the reference's, +got the run's). go-cmp sprinkles its output with
// non-breaking spaces at random, to keep tests from depending on its
// exact form; a report is read by people, so they are made plain again.
func (x *explorer) diff(want, got any) string {
	return strings.ReplaceAll(cmp.Diff(want, got, x.s.Compare...), "\u00a0", " ")
}
