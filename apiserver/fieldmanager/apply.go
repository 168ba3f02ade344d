package fieldmanager

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	yaml "go.yaml.in/yaml/v3"
)

// Apply merges the apply configuration data (YAML or JSON) of w's
// manager into live, the stored object of kind info (nil if there is
// none: apply creates), and returns the object to store, with its
// managedFields updated: the manager's fields become exactly the
// configuration's, fields it no longer applies and no one else owns are
// removed, and changing a field another manager owns is a 409 Conflict
// ([meta.IsConflict]) unless force takes it. The configuration is in the
// version w writes in (one of vs), and so is the manager's entry; the
// others' fields are compared in theirs. ns and name are the request's;
// w.Status says the apply is to the status subresource. live is not
// changed; the result is of the stored kind.
func Apply(info meta.KindInfo, vs Versions, live meta.Object, ns, name string, data []byte, w Writer, force bool) (meta.Object, error) {
	in := vs.kind(info, w.APIVersion)
	config, err := decodeApplyConfig(in, ns, name, data)
	if err != nil {
		return nil, err
	}
	tree, ms, err := liveForApply(in, vs.in(live, w.APIVersion), ns, name)
	if err != nil {
		return nil, err
	}
	a := applier{info: info, in: in, vs: vs, live: live, name: name, ns: ns, w: w}
	next, err := a.apply(tree, config, ms, force)
	if err != nil {
		return nil, err
	}
	return vs.toStored(next, w.APIVersion, info), nil
}

// applier is one apply: the stored kind info, the kind in the version
// the configuration is in, the stored object and the writer.
type applier struct {
	info, in meta.KindInfo
	vs       Versions
	live     meta.Object
	name, ns string
	w        Writer
}

// decodeApplyConfig reads an apply configuration (YAML, or JSON, which is
// YAML) and checks that it is for this kind and object.
func decodeApplyConfig(info meta.KindInfo, ns, name string, data []byte) (map[string]any, error) {
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return nil, meta.NewBadRequest(fmt.Sprintf("error decoding patch: %v", err))
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, meta.NewBadRequest(fmt.Sprintf("error decoding patch: %v", err))
	}
	config, err := decodeTree(b)
	if err != nil || config == nil {
		return nil, meta.NewBadRequest(fmt.Sprintf("error decoding patch: the patch is not a YAML object: %q", truncated(data, 100)))
	}
	apiVersion, _ := config["apiVersion"].(string)
	if gv := meta.ParseGroupVersion(apiVersion); gv != groupVersionOf(info) {
		return nil, meta.NewBadRequest(fmt.Sprintf("Incorrect version specified in apply patch. "+
			"Specified patch version: %s, expected: %s", gv, groupVersionOf(info)))
	}
	if kind, _ := config["kind"].(string); kind != info.Kind {
		return nil, meta.NewBadRequest(fmt.Sprintf("the kind in the apply patch (%q) is not %q", kind, info.Kind))
	}
	om, _ := config["metadata"].(map[string]any)
	if om == nil {
		om = map[string]any{}
		config["metadata"] = om
	}
	if objName, _ := om["name"].(string); objName != name {
		return nil, meta.NewBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", objName, name))
	}
	if objNS, _ := om["namespace"].(string); objNS != "" && objNS != ns {
		return nil, meta.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	if _, ok := om["managedFields"]; ok {
		return nil, meta.NewBadRequest("metadata.managedFields must be nil")
	}
	return config, nil
}

// liveForApply returns the object an apply starts from, as a tree, and
// its managers. An object with fields but no managers gets one, named
// "before-first-apply", owning all its fields, as on the real server.
func liveForApply(info meta.KindInfo, obj meta.Object, ns, name string) (map[string]any, managers, error) {
	empty, err := emptyTree(info, name, ns)
	if err != nil || obj == nil {
		return empty, nil, err
	}
	live, err := objectTree(obj)
	if err != nil {
		return nil, nil, err
	}
	ms, err := decodeManagers(obj.GetObjectMeta().ManagedFields)
	if err != nil || len(ms) > 0 {
		return live, ms, err
	}
	c := fieldSchemaOf(info).changes(empty, live, false)
	return live, ms.update(c, updaterID(info, Writer{Manager: "before-first-apply"}), time.Now()), nil
}

// apply merges config into live (trees in the applier's version) for
// the manager, updating and setting the managers, and returns the result
// as an object of the kind in that version.
func (a applier) apply(live, config map[string]any, ms managers, force bool) (meta.Object, error) {
	fs := fieldSchemaOf(a.in)
	set := fieldSet{}
	err := fs.toFieldSet(config, "", nil, set)
	if p := undeclared(meta.SchemaOf(a.in), config, ""); err == nil && p != "" {
		err = fmt.Errorf("%s: field not declared in schema", p)
	}
	if err != nil {
		return nil, meta.NewBadRequest(fmt.Sprintf("failed to create typed patch object (%s): %v", gvknn(a.in, live), err))
	}
	set = set.without(untracked(a.w.Status))
	id := meta.ManagedFieldsEntry{Manager: a.w.Manager, Operation: meta.ManagedFieldsOperationApply, APIVersion: a.in.TypeMeta().APIVersion}
	if a.w.Status {
		id.Subresource = "status"
	}
	var last fieldSet
	var lastTime *meta.Time
	if m := ms.find(id); m != nil {
		last, lastTime = m.set, m.Time
	}
	merged := fs.merge(live, config, "").(map[string]any)
	ms = ms.put(id, set, time.Now())
	for _, p := range last.minus(ms.owned()).sorted() {
		remove(merged, splitPath(p))
	}
	v, err := a.views(live, merged)
	if err != nil {
		return nil, err
	}
	c, _ := v.in(id.APIVersion)
	if err := ms.conflictsIn(v, id, force); err != nil {
		return nil, err
	}
	if err := ms.takeIn(v, id); err != nil {
		return nil, err
	}
	if c.empty() {
		// As structured-merge-diff: an apply that changes nothing leaves
		// its manager's time as it was (none, for a manager new to the
		// object), so that re-applying the same configuration writes
		// nothing at all.
		ms.find(id).Time = lastTime
	}
	return typedResult(a.in, merged, ms, id)
}

// views compares live and merged, trees in the applier's version, in
// every version: in the applier's, as trees (so that a field the Go type
// would fill in does not count as applied); in the others, converted
// from the stored forms.
func (a applier) views(live, merged map[string]any) (*views, error) {
	next, err := decodeInto(a.in, merged)
	if err != nil {
		return nil, err
	}
	v := &views{stored: a.info, vs: a.vs, a: a.live, b: a.vs.toStored(next, a.w.APIVersion, a.info),
		name: a.name, ns: a.ns, status: a.w.Status}
	v.memo = map[string]*comparison{a.in.TypeMeta().APIVersion: fieldSchemaOf(a.in).changes(live, merged, a.w.Status)}
	return v, nil
}

// decodeInto decodes tree into a new object of the kind.
func decodeInto(info meta.KindInfo, tree map[string]any) (meta.Object, error) {
	b, err := json.Marshal(tree)
	if err != nil {
		return nil, meta.NewInternalError(err)
	}
	obj := info.New()
	if err := json.Unmarshal(b, obj); err != nil {
		return nil, meta.NewBadRequest(fmt.Sprintf("the applied object does not decode as a %s: %v", info.Kind, err))
	}
	return obj, nil
}

// typedResult decodes the merged tree into the kind, with the managers'
// entries as its managedFields. Applied fields the kind does not have are
// gone after decoding: the manager does not own them.
func typedResult(info meta.KindInfo, merged map[string]any, ms managers, id meta.ManagedFieldsEntry) (meta.Object, error) {
	next, err := decodeInto(info, merged)
	if err != nil {
		return nil, err
	}
	typed, err := objectTree(next)
	if err != nil {
		return nil, err
	}
	m := ms.find(id)
	for p := range m.set {
		if !has(typed, splitPath(p)) {
			delete(m.set, p)
		}
	}
	next.GetObjectMeta().ManagedFields = ms.encode()
	return next, nil
}

// gvknn names an object as structured-merge-diff's errors do:
// "namespace/name; group/version, Kind=Kind".
func gvknn(info meta.KindInfo, live map[string]any) string {
	om, _ := live["metadata"].(map[string]any)
	ns, _ := om["namespace"].(string)
	name, _ := om["name"].(string)
	gvk := info.GroupVersionKind()
	return fmt.Sprintf("%s/%s; %s, Kind=%s", ns, name, groupVersionOf(info), gvk.Kind)
}

func groupVersionOf(info meta.KindInfo) meta.GroupVersion {
	return meta.GroupVersion{Group: info.Group, Version: info.Version}
}

// truncated returns b as a string, cut to n bytes and "..." if longer.
func truncated(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "..."
}
