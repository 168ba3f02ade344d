package fieldmanager

import (
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Versions are the versions a kind's objects are written in: its own
// (the stored kind's) and those that serve it ([meta.ServedVersion],
// such as events.k8s.io/v1 for core/v1 Events). Each managedFields entry
// names the version its manager wrote in, and holds that version's field
// names ("f:note" in events.k8s.io/v1 where core/v1 has "f:message"). A
// write is compared in each manager's version, as Kubernetes' field
// manager converts the object into each, so that a writer in one version
// takes a field from a manager in another. The zero Versions knows only
// the stored kind's.
type Versions struct {
	served map[string]meta.ServedVersion // by apiVersion
}

// VersionsOf returns the versions of the stored kind gvk in scheme.
func VersionsOf(scheme *meta.Scheme, gvk meta.GroupVersionKind) Versions {
	var vs Versions
	for _, v := range scheme.ServedVersions() {
		if v.Stored != gvk {
			continue
		}
		if vs.served == nil {
			vs.served = map[string]meta.ServedVersion{}
		}
		vs.served[v.Info.TypeMeta().APIVersion] = v
	}
	return vs
}

// Served returns the served version apiVersion, if it is one.
func (vs Versions) Served(apiVersion string) (meta.ServedVersion, bool) {
	v, ok := vs.served[apiVersion]
	return v, ok
}

// Writer is who makes a write: its field manager, whether it writes
// the status subresource, and the version it writes in (empty: the
// stored kind's). Objects still come and go in the stored kind's form.
type Writer struct {
	Manager    string
	Status     bool
	APIVersion string
}

// kind returns the kind as apiVersion serves it: a served version's, or
// stored itself.
func (vs Versions) kind(stored meta.KindInfo, apiVersion string) meta.KindInfo {
	if v, ok := vs.served[apiVersion]; ok {
		return v.Info
	}
	return stored
}

// in returns obj, an object of the stored kind, as apiVersion's object;
// obj itself for the stored version (or one it does not serve).
func (vs Versions) in(obj meta.Object, apiVersion string) meta.Object {
	if v, ok := vs.served[apiVersion]; ok && obj != nil {
		return v.FromStoredObject(obj)
	}
	return obj
}

// toStored returns obj, an object of apiVersion, as the stored kind's.
func (vs Versions) toStored(obj meta.Object, apiVersion string, stored meta.KindInfo) meta.Object {
	v, ok := vs.served[apiVersion]
	if !ok {
		return obj
	}
	out := v.ToStored(obj)
	*out.GetTypeMeta() = stored.TypeMeta()
	return out
}

// views compares two states of an object (stored forms; a nil a is the
// empty object named name in ns) in any version, each once.
type views struct {
	stored   meta.KindInfo
	vs       Versions
	a, b     meta.Object
	name, ns string
	status   bool
	memo     map[string]*comparison
}

// in returns how b differs from a in version apiVersion.
func (v *views) in(apiVersion string) (*comparison, error) {
	if c, ok := v.memo[apiVersion]; ok {
		return c, nil
	}
	info := v.vs.kind(v.stored, apiVersion)
	var a map[string]any
	var err error
	if v.a == nil {
		a, err = emptyTree(info, v.name, v.ns)
	} else {
		a, err = objectTree(v.vs.in(v.a, apiVersion))
	}
	if err != nil {
		return nil, err
	}
	b, err := objectTree(v.vs.in(v.b, apiVersion))
	if err != nil {
		return nil, err
	}
	c := fieldSchemaOf(info).changes(a, b, v.status)
	if v.memo == nil {
		v.memo = map[string]*comparison{}
	}
	v.memo[apiVersion] = c
	return c, nil
}

// track records a write by id that views compares (structured-merge-diff's
// Updater.Update, in each manager's version): the writer takes every
// field it added or changed from the others, fields it removed leave every
// manager, and nothing ever conflicts.
func (ms managers) track(v *views, id meta.ManagedFieldsEntry, now time.Time) (managers, error) {
	cw, err := v.in(id.APIVersion)
	if err != nil || cw.empty() {
		return ms, err
	}
	if err := ms.takeIn(v, id); err != nil {
		return nil, err
	}
	var prev fieldSet
	if m := ms.find(id); m != nil {
		prev = m.set
	}
	return ms.put(id, prev.union(cw.changed()).minus(cw.removed), now), nil
}

// takeIn removes from every manager but id the fields the write views
// compares changed or removed, in that manager's version.
func (ms managers) takeIn(v *views, id meta.ManagedFieldsEntry) error {
	for _, m := range ms {
		if sameManager(m.ManagedFieldsEntry, id) {
			continue
		}
		c, err := v.in(m.APIVersion)
		if err != nil {
			return err
		}
		m.set = m.set.minus(c.changed().union(c.removed))
	}
	return nil
}
