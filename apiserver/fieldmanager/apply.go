package fieldmanager

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	yaml "go.yaml.in/yaml/v3"
)

// Apply merges the apply configuration data (YAML or JSON) of manager into
// live, the stored object (nil if there is none: apply creates), and
// returns the object to store, with its managedFields updated: the
// manager's fields become exactly the configuration's, fields it no
// longer applies and no one else owns are removed, and changing a field
// another manager owns is a 409 Conflict ([meta.IsConflict]) unless force
// takes it. ns and name are the request's; status says the apply is to
// the status subresource. live is not changed.
func Apply(info meta.KindInfo, live meta.Object, ns, name string, data []byte, manager string, status, force bool) (meta.Object, error) {
	config, err := decodeApplyConfig(info, ns, name, data)
	if err != nil {
		return nil, err
	}
	tree, ms, err := liveForApply(info, live, ns, name)
	if err != nil {
		return nil, err
	}
	return applyConfig(info, tree, config, ms, manager, status, force)
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
	return live, ms.update(c, updaterID(info, "before-first-apply", false), time.Now()), nil
}

// applyConfig merges config into live for manager, updating and setting
// the managers, and returns the result as an object of the kind.
func applyConfig(info meta.KindInfo, live, config map[string]any, ms managers, manager string, status, force bool) (meta.Object, error) {
	fs := fieldSchemaOf(info)
	set := fieldSet{}
	err := fs.toFieldSet(config, "", nil, set)
	if p := undeclared(meta.SchemaOf(info), config, ""); err == nil && p != "" {
		err = fmt.Errorf("%s: field not declared in schema", p)
	}
	if err != nil {
		return nil, meta.NewBadRequest(fmt.Sprintf("failed to create typed patch object (%s): %v", gvknn(info, live), err))
	}
	set = set.without(untracked(status))
	id := meta.ManagedFieldsEntry{Manager: manager, Operation: meta.ManagedFieldsOperationApply, APIVersion: info.TypeMeta().APIVersion}
	if status {
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
	c := fs.changes(live, merged, status)
	if err := ms.conflicts(id, c.changed(), force); err != nil {
		return nil, err
	}
	ms.takeFrom(id, c.changed().union(c.removed))
	if c.empty() {
		// As structured-merge-diff: an apply that changes nothing leaves
		// its manager's time as it was (none, for a manager new to the
		// object), so that re-applying the same configuration writes
		// nothing at all.
		ms.find(id).Time = lastTime
	}
	return typedResult(info, merged, ms, id)
}

// typedResult decodes the merged tree into the kind, with the managers'
// entries as its managedFields. Applied fields the kind does not have are
// gone after decoding: the manager does not own them.
func typedResult(info meta.KindInfo, merged map[string]any, ms managers, id meta.ManagedFieldsEntry) (meta.Object, error) {
	b, err := json.Marshal(merged)
	if err != nil {
		return nil, meta.NewInternalError(err)
	}
	next := info.New()
	if err := json.Unmarshal(b, next); err != nil {
		return nil, meta.NewBadRequest(fmt.Sprintf("the applied object does not decode as a %s: %v", info.Kind, err))
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
