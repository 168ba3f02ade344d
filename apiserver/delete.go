package apiserver

import (
	"context"
	"fmt"
	"time"
)

// Delete deletes the object name. Without finalizers it is gone at once:
// a DELETED event carries its final state with the deletion's
// resourceVersion. With finalizers, Delete only marks it: it sets
// metadata.deletionTimestamp (a MODIFIED event), and the object goes when
// an update removes the last finalizer. Deleting an object that is already
// being deleted succeeds and changes nothing.
//
// Errors: 404 NotFound; 409 Conflict when a precondition (uid,
// resourceVersion) does not hold.
func (c *ResourceClient) Delete(ctx context.Context, name string, opts DeleteOptions) error {
	info, err := c.begin(ctx, VerbDelete)
	if err != nil {
		return err
	}
	key, err := c.key(info, name)
	if err != nil {
		return err
	}
	_, err = c.srv.mutate(info.GroupResource(), key, func(old *entry) (change, error) {
		if old == nil {
			return change{}, NewNotFound(info.GroupResource(), name)
		}
		if err := checkPreconditions(info, old.obj.GetObjectMeta(), opts.Preconditions); err != nil {
			return change{}, err
		}
		return c.srv.prepareDelete(old, opts.DryRun)
	})
	return err
}

// prepareDelete decides what deleting old means: a deletion, or with
// finalizers a deletionTimestamp (once).
func (s *Server) prepareDelete(old *entry, dryRun bool) (change, error) {
	om := old.obj.GetObjectMeta()
	next := old.obj.DeepCopyObject()
	typ := EventDeleted
	if len(om.Finalizers) > 0 {
		if om.DeletionTimestamp != nil {
			return change{obj: old}, nil // already being deleted
		}
		now := NewTime(time.Now())
		nm := next.GetObjectMeta()
		nm.DeletionTimestamp = &now
		// As Kubernetes does when it marks an object for deletion: the
		// generation moves, so that a controller filtering on generation
		// changes still hears that it has cleanup to do.
		if nm.Generation > 0 {
			nm.Generation++
		}
		typ = EventModified
	}
	e, err := s.newEntry(next)
	if err != nil {
		return change{}, err
	}
	if dryRun {
		return change{obj: e}, nil
	}
	return change{typ: typ, obj: e}, nil
}

// checkPreconditions returns 409 Conflict, worded as Kubernetes words it,
// when p does not hold for the stored object m.
func checkPreconditions(info KindInfo, m *ObjectMeta, p *Preconditions) error {
	if p == nil {
		return nil
	}
	if p.UID != nil && *p.UID != m.UID {
		return NewConflict(info.GroupResource(), m.Name, preconditionError(fmt.Sprintf(
			"Precondition failed: UID in precondition: %v, UID in object meta: %v", *p.UID, m.UID)))
	}
	if p.ResourceVersion != nil && *p.ResourceVersion != m.ResourceVersion {
		return NewConflict(info.GroupResource(), m.Name, preconditionError(fmt.Sprintf(
			"Precondition failed: ResourceVersion in precondition: %v, ResourceVersion in object meta: %v",
			*p.ResourceVersion, m.ResourceVersion)))
	}
	return nil
}

// preconditionError words a failed precondition as Kubernetes does (with a
// capital letter, which Go style discourages for error strings).
type preconditionError string

func (e preconditionError) Error() string { return string(e) }
