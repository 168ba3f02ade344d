package apiserver

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/kitchensync/kitchensync/apiserver/fieldmanager"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/namespaces"
)

// Update replaces the object named by obj's metadata (name, and namespace
// or the client's) with obj, if obj's resourceVersion is the stored one; otherwise it fails with 409 Conflict
// (read again, reapply the change, retry). It returns the stored result.
//
// As in Kubernetes, changes to status are ignored (write status with
// [ResourceClient.UpdateStatus]), as are changes to the server-owned
// metadata (creationTimestamp, deletionTimestamp, generation);
// metadata.generation goes up by one when spec changes. An update that
// changes nothing makes no new resourceVersion and no event, and returns
// the stored object. On an object being deleted, new finalizers are
// forbidden, and the update that removes the last finalizer deletes the
// object: a DELETED event carries the last stored state (still listing
// the finalizer), and Update returns the object as updated, with the
// resourceVersion it had, as kube-apiserver answers.
//
// An update without resourceVersion is unconditional (it replaces what
// is stored) for kinds with [meta.KindInfo.AllowUnconditionalUpdate], such as
// Namespace and Event; for the others, custom resources among them, it is
// 422 Invalid.
//
// For a kind with [meta.KindInfo.AllowCreateOnUpdate] (Event, Lease), an
// update of an object that does not exist creates it, as Create would
// (its resourceVersion ignored); see [ResourceClient.UpdateObject] to
// tell the two apart. For the others it is 404 NotFound.
//
// Errors: 404 NotFound; 409 Conflict for a stale resourceVersion or a
// uid that is not the stored object's; 422 Invalid for an empty
// resourceVersion (see above), a changed namespace, bad labels or
// annotations, or new finalizers while deleting; 400 and 500 as for
// Create.
func (c *ResourceClient) Update(ctx context.Context, obj meta.Object, opts meta.UpdateOptions) (meta.Object, error) {
	return c.update(ctx, obj, opts, false)
}

// UpdateStatus writes obj's status through the status subresource: only
// status changes, and metadata.generation does not move. (A namespace is
// the exception, as in Kubernetes: its status update also takes
// metadata, labels included, from obj; only spec stays as stored.) The
// resourceVersion rules are those of Update. A kind without a Status field
// has no status subresource: 404 NotFound.
func (c *ResourceClient) UpdateStatus(ctx context.Context, obj meta.Object, opts meta.UpdateOptions) (meta.Object, error) {
	return c.update(ctx, obj, opts, true)
}

func (c *ResourceClient) update(ctx context.Context, obj meta.Object, opts meta.UpdateOptions, status bool) (meta.Object, error) {
	out, _, err := c.updateObject(ctx, obj, opts, status)
	return out, err
}

// updateObject is Update or UpdateStatus; it reports whether the object
// was created (see [meta.KindInfo.AllowCreateOnUpdate]).
func (c *ResourceClient) updateObject(ctx context.Context, obj meta.Object, opts meta.UpdateOptions, status bool) (meta.Object, bool, error) {
	info, err := c.begin(ctx, VerbUpdate)
	if err != nil {
		return nil, false, err
	}
	if err := c.checkBody(info, obj); err != nil {
		return nil, false, err
	}
	if status && !hasStatus(info, obj) {
		return nil, false, errUnknownResource(meta.GroupResource{Group: info.Group, Resource: info.Resource + "/status"})
	}
	m := obj.GetObjectMeta()
	if m.Name == "" {
		var errs meta.FieldErrors
		errs.Required("metadata.name", "name is required for an update")
		return nil, false, errs.ToError(info.GroupKind(), "")
	}
	ns, err := c.namespaceFor(info, m.Name, m.Namespace)
	if err != nil {
		return nil, false, err
	}
	var created bool
	out, err := c.srv.mutateCopy(info.GroupResource(), objectKey(ns, m.Name), func(old *entry) (change, error) {
		next := obj.DeepCopyObject()
		next.GetObjectMeta().Namespace = ns
		if created = old == nil && info.AllowCreateOnUpdate && !status; created {
			return c.prepareCreateOnUpdate(info, next, opts)
		}
		return c.srv.prepareUpdate(info, old, next, status, opts.DryRun, c.updateTracker(opts.FieldManager))
	})
	if err != nil {
		return nil, false, err
	}
	return out, created, nil
}

// prepareUpdate decides what replacing old by next means, applying the
// rules described on Update and UpdateStatus, and track's for
// metadata.managedFields. It owns next.
func (s *Server) prepareUpdate(info meta.KindInfo, old *entry, next meta.Object, status, dryRun bool, track fieldTracker) (change, error) {
	nm := next.GetObjectMeta()
	if old == nil {
		return change{}, meta.NewNotFound(info.GroupResource(), nm.Name)
	}
	om := old.obj.GetObjectMeta()
	if err := checkUpdate(info, om, nm); err != nil {
		if meta.IsConflict(err) {
			s.traceConflictLocked(info.Kind, next, om.ResourceVersion)
		}
		return change{}, err
	}
	kf := fieldsOf(next)
	if status && !namespaces.IsNamespace(next) {
		// Only status comes from the request; even metadata stays as
		// stored (Kubernetes' ResetObjectMetaForStatus).
		in := next
		next = old.obj.DeepCopyObject()
		copyStatus(next, in, kf)
	} else if err := s.prepareSpecUpdate(info, old, next, kf, status); err != nil {
		return change{}, err
	}
	if err := info.NormalizeObject(next, old.obj); err != nil {
		return change{}, err
	}
	if err := track(info, old.obj, next, status); err != nil {
		return change{}, err
	}
	info.SetTypeMeta(next.GetTypeMeta())
	e, err := s.encodeUpdate(info, old, next, status, kf)
	if err != nil {
		return change{}, err
	}
	if bytes.Equal(e.content, old.content) {
		return change{obj: old}, nil // a no-op: no new resourceVersion, no event
	}
	ch := change{typ: meta.EventModified, obj: e}
	if om.DeletionTimestamp != nil && namespaces.Finalized(next) {
		ch = deleteDuringUpdate(old, e)
	}
	if dryRun {
		ch.typ = ""
	}
	ch.out = s.writerCopy(e, old)
	return ch, nil
}

// encodeUpdate encodes next, the new state of old, once: its generation
// follows its spec (see nextGeneration) unless status is being written or
// the kind keeps no generation; then it is validated.
func (s *Server) encodeUpdate(info meta.KindInfo, old *entry, next meta.Object, status bool, kf kindFields) (*entry, error) {
	enc, err := encodeContent(next, kf)
	if err != nil {
		return nil, err
	}
	if !status && !info.NoGeneration {
		if enc, err = nextGeneration(old, next, enc, kf); err != nil {
			return nil, err
		}
	}
	if err := info.ValidateUpdateOf(next, old.obj); err != nil {
		return nil, err
	}
	return s.entryOf(next, enc)
}

// deleteDuringUpdate is the change of an update (next) that removes the
// last finalizer of an object being deleted (old): the object goes, as
// kube-apiserver's registry deletes it — the update itself is never
// stored, so the DELETED event carries the last stored state, finalizers
// and all, and the caller gets the object it asked for, with the
// resourceVersion it read (no write made it).
func deleteDuringUpdate(old, next *entry) change {
	next.obj.GetObjectMeta().ResourceVersion = old.obj.GetObjectMeta().ResourceVersion
	last := &entry{obj: old.obj.DeepCopyObject(), content: old.content, spec: old.spec}
	return change{typ: meta.EventDeleted, obj: last, reply: next}
}

// checkUpdate checks the uid and resourceVersion an update carries
// against the stored metadata om, in kube-apiserver's order: a uid is a
// precondition, checked first; then an update without resourceVersion is
// unconditional if the kind allows it, and invalid if not.
func checkUpdate(info meta.KindInfo, om, nm *meta.ObjectMeta) error {
	switch {
	case nm.UID != "" && nm.UID != om.UID:
		return errUIDPrecondition(info, om, nm.UID)
	case nm.ResourceVersion == "" && info.AllowUnconditionalUpdate:
		return nil
	case nm.ResourceVersion == "":
		// Worded as kube-apiserver's storage words it: the resource
		// (not the kind) in the message and details, the value as 0.
		var errs meta.FieldErrors
		errs.Invalid("metadata.resourceVersion", 0, "must be specified for an update")
		return errs.ToError(meta.GroupKind{Group: info.Group, Kind: info.Resource}, nm.Name)
	case nm.ResourceVersion != om.ResourceVersion:
		return errConflict(info, nm.Name)
	}
	return nil
}

// prepareSpecUpdate applies the rules of a main-resource update to next:
// status and server-owned metadata come from old (the generation too:
// encodeUpdate moves it if spec changed), and no finalizer may be added
// to an object being deleted. With status set (a namespace's status
// update, which Kubernetes' namespaceStatusStrategy does not reset to the
// stored metadata), spec comes from old instead of status.
func (s *Server) prepareSpecUpdate(info meta.KindInfo, old *entry, next meta.Object, kf kindFields, status bool) error {
	nm, om := next.GetObjectMeta(), old.obj.GetObjectMeta()
	switch {
	case status && kf.spec >= 0:
		copyField(next, old.obj, kf.spec)
	case !status && hasStatus(info, next):
		copyStatus(next, old.obj, kf) // shared, never mutated: old is immutable
	}
	nm.UID = om.UID
	nm.CreationTimestamp = om.CreationTimestamp
	nm.DeletionTimestamp, nm.DeletionGracePeriodSeconds = om.DeletionTimestamp, om.DeletionGracePeriodSeconds
	nm.Generation = om.Generation
	namespaces.PrepareForUpdate(old.obj, next)
	var errs meta.FieldErrors
	// Labels and annotations the update leaves as stored were checked
	// when they were written: only changed ones are checked again.
	if !maps.Equal(nm.Labels, om.Labels) {
		errs = append(errs, meta.ValidateLabels("metadata.labels", nm.Labels)...)
	}
	if !maps.Equal(nm.Annotations, om.Annotations) {
		errs = append(errs, meta.ValidateAnnotations("metadata.annotations", nm.Annotations)...)
	}
	errs = append(errs, meta.ValidateOwnerReferences("metadata.ownerReferences", nm.OwnerReferences)...)
	errs = append(errs, meta.ValidateFinalizers("metadata.finalizers", nm.Finalizers)...)
	if om.DeletionTimestamp != nil {
		var added []string
		for _, f := range nm.Finalizers {
			if !slices.Contains(om.Finalizers, f) {
				added = append(added, f)
			}
		}
		if len(added) > 0 {
			errs.Forbidden("metadata.finalizers", fmt.Sprintf(
				"no new finalizers can be added if the object is being deleted, found new finalizers %q", added))
		}
	}
	return errs.ToError(info.GroupKind(), nm.Name)
}

// fieldTracker sets next's metadata.managedFields for a write that turns
// live into next (after the rules of the version it is made in, if
// any); status says the write is to the status subresource.
type fieldTracker func(info meta.KindInfo, live, next meta.Object, status bool) error

// updateTracker records writes other than apply by manager through c
// ([fieldmanager.TrackUpdate]).
func (c *ResourceClient) updateTracker(manager string) fieldTracker {
	return func(info meta.KindInfo, live, next meta.Object, status bool) error {
		vs := fieldmanager.VersionsOf(c.srv.scheme, info.GroupVersionKind())
		if err := c.checkServed(info, vs, next, live); err != nil {
			return err
		}
		return fieldmanager.TrackUpdate(info, vs, live, next, c.writer(manager, status))
	}
}

// UpdateObject is [ResourceClient.Update], and also reports whether the
// update created the object: for a kind with [meta.KindInfo.AllowCreateOnUpdate],
// an update of an object that does not exist creates it, and the HTTP
// front answers 201 Created instead of 200 OK, as kube-apiserver does.
func (c *ResourceClient) UpdateObject(ctx context.Context, obj meta.Object, opts meta.UpdateOptions) (meta.Object, bool, error) {
	return c.updateObject(ctx, obj, opts, false)
}
