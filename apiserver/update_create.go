package apiserver

import (
	"github.com/kitchensync/kitchensync/apiserver/fieldmanager"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// prepareCreateOnUpdate is the change of an update that creates next, an
// object not stored yet, as kube-apiserver's registry makes it when the
// kind's strategy allows create on update: a uid in next is a
// precondition no missing object meets (409 Conflict); the namespace is
// admitted as for a create; its resourceVersion is ignored; then next is
// prepared and validated as Create prepares a new object. It owns next.
func (c *ResourceClient) prepareCreateOnUpdate(info meta.KindInfo, next meta.Object, opts meta.UpdateOptions) (change, error) {
	s := c.srv
	m := next.GetObjectMeta()
	if m.UID != "" {
		return change{}, errUIDPrecondition(info, &meta.ObjectMeta{Name: m.Name, Namespace: m.Namespace}, m.UID)
	}
	if err := s.checkNamespace(info, m); err != nil {
		return change{}, err
	}
	m.ResourceVersion = ""
	info.SetTypeMeta(next.GetTypeMeta())
	vs := fieldmanager.VersionsOf(s.scheme, info.GroupVersionKind())
	if err := c.checkServed(info, vs, next, nil); err != nil {
		return change{}, err
	}
	if err := fieldmanager.TrackCreate(info, vs, next, c.writer(opts.FieldManager, false)); err != nil {
		return change{}, err
	}
	return s.createChange(info, next, opts.DryRun)
}
