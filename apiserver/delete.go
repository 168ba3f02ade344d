package apiserver

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/namespaces"
)

// Delete deletes the object name; see [ResourceClient.DeleteObject] for
// what that means. It returns only the error.
func (c *ResourceClient) Delete(ctx context.Context, name string, opts meta.DeleteOptions) error {
	_, _, err := c.DeleteObject(ctx, name, opts)
	return err
}

// DeleteObject deletes the object name as kube-apiserver's registry does,
// and returns the object's state after the call and whether it is gone.
//
// Without finalizers the object is gone at once: a DELETED event carries
// its final state with the deletion's resourceVersion, and gone is true.
// With finalizers it is only marked: metadata.deletionTimestamp is set,
// deletionGracePeriodSeconds becomes 0 and the generation moves on (a
// MODIFIED event), and the object goes when an update removes the last
// finalizer. Deleting an object that is already being deleted changes
// nothing, unless opts ask for another propagation policy, whose
// finalizer then replaces the old one.
//
// The propagation policy ([meta.DeletionPropagation]) is carried out by the
// server's garbage collector (see [Options.DisableGarbageCollection]):
// Foreground and Orphan hold the object with a finalizer of their own
// until the collector, [gc.Delay] later, deletes or releases its
// dependents (and then the object, even one with none).
//
// Errors: 422 Invalid for bad options (nothing changes); 404 NotFound;
// 409 Conflict when a precondition (uid, resourceVersion) does not hold.
func (c *ResourceClient) DeleteObject(ctx context.Context, name string, opts meta.DeleteOptions) (meta.Object, bool, error) {
	info, err := c.begin(ctx, VerbDelete)
	if err != nil {
		return nil, false, err
	}
	if err := ValidateDeleteOptions(opts); err != nil {
		return nil, false, err
	}
	return c.deleteObject(info, name, opts)
}

// deleteObject is DeleteObject once the request is counted and opts are
// checked.
func (c *ResourceClient) deleteObject(info meta.KindInfo, name string, opts meta.DeleteOptions) (meta.Object, bool, error) {
	key, err := c.key(info, name)
	if err != nil {
		return nil, false, err
	}
	if err := namespaces.CheckDelete(info, name); err != nil {
		return nil, false, err
	}
	var gone bool
	e, err := c.srv.mutate(info.GroupResource(), key, func(old *entry) (change, error) {
		if old == nil {
			return change{}, meta.NewNotFound(info.GroupResource(), name)
		}
		if err := checkPreconditions(info, old.obj.GetObjectMeta(), opts.Preconditions); err != nil {
			return change{}, err
		}
		ch, err := c.srv.prepareDelete(old, opts)
		gone = ch.typ == meta.EventDeleted
		if opts.DryRun {
			ch.typ = ""
		}
		return ch, err
	})
	if err != nil {
		return nil, false, err
	}
	return e.obj.DeepCopyObject(), gone, nil
}

// ValidateDeleteOptions checks opts as Kubernetes does before a delete,
// returning 422 Invalid for the kind DeleteOptions.meta.k8s.io with one
// cause per problem, or nil.
func ValidateDeleteOptions(opts meta.DeleteOptions) error {
	var errs meta.FieldErrors
	p := opts.PropagationPolicy
	if opts.OrphanDependents != nil && p != nil {
		errs.Invalid("propagationPolicy", string(*p), "orphanDependents and deletionPropagation cannot be both set")
	}
	if p != nil && *p != meta.DeletePropagationForeground && *p != meta.DeletePropagationBackground && *p != meta.DeletePropagationOrphan {
		errs.NotSupported("propagationPolicy", string(*p), []string{
			string(meta.DeletePropagationForeground), string(meta.DeletePropagationBackground), string(meta.DeletePropagationOrphan), "nil"})
	}
	return errs.ToError(meta.GroupKind{Group: "meta.k8s.io", Kind: "DeleteOptions"}, "")
}

// prepareDelete decides what deleting old with opts means: with no
// finalizers left (after the propagation policy's own is added or
// removed) a deletion; else a mark, or nothing if old is marked already
// with the same finalizers.
func (s *Server) prepareDelete(old *entry, opts meta.DeleteOptions) (change, error) {
	if namespaces.Held(old.obj) {
		return s.prepareNamespaceDelete(old, opts)
	}
	next := old.obj.DeepCopyObject()
	if info, err := s.scheme.KindFor(next); err == nil && info.BeforeDelete != nil {
		info.BeforeDelete(next)
	}
	nm := next.GetObjectMeta()
	if !s.opts.DisableGarbageCollection {
		nm.Finalizers = propagationFinalizers(nm.Finalizers, opts)
	}
	typ := meta.EventDeleted
	if len(nm.Finalizers) > 0 {
		markAsDeleting(nm, time.Now())
		typ = meta.EventModified
	}
	e, err := s.newEntry(next)
	if err != nil {
		return change{}, err
	}
	if typ == meta.EventModified && bytes.Equal(e.content, old.content) {
		return change{obj: old}, nil // marked already
	}
	return change{typ: typ, obj: e}, nil
}

// markAsDeleting starts the deletion of an object held by finalizers, as
// Kubernetes' registry does: deletionTimestamp (kept if set) and a
// deletionGracePeriodSeconds of 0; the generation moves once, so that a
// controller filtering on generation changes still hears that it has
// cleanup to do.
func markAsDeleting(m *meta.ObjectMeta, now time.Time) {
	if m.DeletionTimestamp == nil { // else marked already, or by the kind's BeforeDelete
		ts := meta.NewTime(now)
		m.DeletionTimestamp = &ts
		zero := int64(0)
		m.DeletionGracePeriodSeconds = &zero
		if m.Generation > 0 {
			m.Generation++
		}
	}
}

// propagationFinalizers returns fins with the garbage collector's
// finalizers set as opts ask: an explicit OrphanDependents or
// PropagationPolicy decides; without one, a finalizer already there
// stays (so a second plain delete does not undo a foreground one). The
// original slice comes back when nothing changes.
func propagationFinalizers(fins []string, opts meta.DeleteOptions) []string {
	orphan := slices.Contains(fins, meta.FinalizerOrphanDependents)
	foreground := !orphan && slices.Contains(fins, meta.FinalizerDeleteDependents)
	switch {
	case opts.OrphanDependents != nil:
		orphan, foreground = *opts.OrphanDependents, false
	case opts.PropagationPolicy != nil:
		orphan = *opts.PropagationPolicy == meta.DeletePropagationOrphan
		foreground = *opts.PropagationPolicy == meta.DeletePropagationForeground
	}
	out := slices.DeleteFunc(slices.Clone(fins), func(f string) bool {
		return f == meta.FinalizerOrphanDependents || f == meta.FinalizerDeleteDependents
	})
	if orphan {
		out = append(out, meta.FinalizerOrphanDependents)
	}
	if foreground {
		out = append(out, meta.FinalizerDeleteDependents)
	}
	if sameSet(out, fins) {
		return fins
	}
	return out
}

// sameSet reports whether a and b hold the same strings, in any order.
func sameSet(a, b []string) bool {
	for _, s := range a {
		if !slices.Contains(b, s) {
			return false
		}
	}
	for _, s := range b {
		if !slices.Contains(a, s) {
			return false
		}
	}
	return true
}

// checkPreconditions returns 409 Conflict, worded as kube-apiserver's
// storage words it (naming the kind, not the resource), when p does not
// hold for the stored object m.
func checkPreconditions(info meta.KindInfo, m *meta.ObjectMeta, p *meta.Preconditions) error {
	if p == nil {
		return nil
	}
	gk := meta.GroupResource{Group: info.Group, Resource: info.Kind}
	if p.UID != nil && *p.UID != m.UID {
		return meta.NewConflict(gk, m.Name, preconditionError(fmt.Sprintf(
			"the UID in the precondition (%s) does not match the UID in record (%s). The object might have been deleted and then recreated",
			*p.UID, m.UID)))
	}
	if p.ResourceVersion != nil && *p.ResourceVersion != m.ResourceVersion {
		return meta.NewConflict(gk, m.Name, preconditionError(fmt.Sprintf(
			"the ResourceVersion in the precondition (%s) does not match the ResourceVersion in record (%s). The object might have been modified",
			*p.ResourceVersion, m.ResourceVersion)))
	}
	return nil
}

// prepareNamespaceDelete is kube-apiserver's delete of a namespace that
// is not being deleted yet, or still holds spec.finalizers. The first
// delete only marks it, finalizers or not: deletionTimestamp (with no
// grace period and no generation change, unlike other kinds), phase
// Terminating, and the propagation policy's finalizer; it answers the
// namespace so marked. Later deletes change nothing while spec.finalizers
// remain. (Once they are gone, a delete is an ordinary one: the
// namespace goes, or waits for its metadata.finalizers.)
func (s *Server) prepareNamespaceDelete(old *entry, opts meta.DeleteOptions) (change, error) {
	if old.obj.GetObjectMeta().DeletionTimestamp != nil {
		return change{obj: old}, nil // terminating already
	}
	next := old.obj.DeepCopyObject()
	nm := next.GetObjectMeta()
	ts := meta.NewTime(time.Now())
	nm.DeletionTimestamp = &ts
	next.(namespaces.Object).SetNamespacePhase(namespaces.NamespaceTerminating)
	if !s.opts.DisableGarbageCollection {
		nm.Finalizers = propagationFinalizers(nm.Finalizers, opts)
	}
	return s.modified(next)
}

// modified is the change that stores next, a modified copy.
func (s *Server) modified(next meta.Object) (change, error) {
	e, err := s.newEntry(next)
	if err != nil {
		return change{}, err
	}
	return change{typ: meta.EventModified, obj: e}, nil
}
