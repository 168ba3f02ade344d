// Package strategicpatch applies strategic merge patches
// ([meta.StrategicMergePatchType]), Kubernetes' own patch format for its
// built-in kinds: what client-side kubectl apply, kubectl patch and
// kubectl edit send for them. It is a JSON merge patch
// (maps merge key by key, null deletes, a list replaces the list) with
// two differences: some lists merge instead (each kind's Go type says
// which, with patchStrategy and patchMergeKey tags), and "$"-directives
// steer the merge.
//
// Only kinds that declare KindInfo.StrategicMergePatch take it: a custom
// resource has no Go type on the server to carry those tags, so the real
// server answers 415 for it, and so does this one.
//
// The subset implemented is what the built-in kinds need:
//   - merging lists: metadata.finalizers (a set of strings: the patch's
//     are added), metadata.ownerReferences (merged item by item on uid),
//     and the kind's keyed lists (KindInfo.ListMapKeys; merged on their
//     first key);
//   - directives: "$patch": "replace" and "delete" in a map or a list item,
//     "$retainKeys", "$deleteFromPrimitiveList/<list>" and
//     "$setElementOrder/<list>" (the items it names come first, in its
//     order).
//
// Other directives are 400, and every other list is replaced.
//
// In the kitchen, it is the correction slip a head waiter staples to an
// order: "add a side of fries, drop the onions", where a plain merge
// patch could only hand over a whole new list of sides. Like
// k8s.io/apimachinery/pkg/util/strategicpatch, which reads the merge
// rules from Go struct tags; here they come from the kind's
// [meta.KindInfo]. The API server (package apiserver) calls [Merge] for a
// PATCH with this content type.
package strategicpatch
