package gallery

import (
	"context"
	"log/slog"
	"reflect"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/envtest/explore"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/reconcile"
)

// StaleCache creates a child from a stale cache: it lists the parent's
// children in its cache and, finding none, creates one with a generated
// name. Right after it creates one, its cache may not show it yet (the
// children's informer lags); if the parent wakes it again meanwhile, it
// creates a second child.
//
// Found by: lag (stale state) of the children's informer. The fix: a
// fixed name, so that a second create fails with AlreadyExists (as
// [Correct] does), or expectations, as the ReplicaSet controller keeps.
func StaleCache() explore.Controller {
	return newController(func(c clients) *reconciler {
		return &reconciler{clients: c, finalizer: true, ensure: c.ensureByList, cleanUp: c.cleanUpByList}
	}, nil)
}

func (c clients) ensureByList(ctx context.Context, p *Parent) error {
	kids, err := c.children.List(ctx, p.Namespace, meta.SelectorFromSet(map[string]string{ParentLabel: p.Name}))
	if err != nil {
		return err
	}
	if len(kids) == 0 {
		if _, err := c.children.Create(ctx, newChild(p, "")); err != nil { // BUG: the cache may be behind
			return err
		}
	} else if kid := kids[0]; kid.Spec.Version != p.Spec.Version {
		kid.Spec.Version = p.Spec.Version
		if _, err := c.children.Update(ctx, kid); err != nil {
			return err
		}
	}
	return c.markReady(ctx, p)
}

func (c clients) cleanUpByList(ctx context.Context, p *Parent) error {
	kids, err := c.children.List(ctx, p.Namespace, meta.SelectorFromSet(map[string]string{ParentLabel: p.Name}))
	if err != nil {
		return err
	}
	for _, kid := range kids {
		if err := c.children.Delete(ctx, kid); err != nil && !meta.IsNotFound(err) {
			return err
		}
	}
	reconcile.RemoveFinalizer(p, Finalizer)
	_, err = c.parents.Update(ctx, p)
	return err
}

// EventNotState reacts to the event instead of the state: it deletes a
// parent's child when its informer hands it the parent's delete, and
// keeps no finalizer. A delete it never sees — made while it was down —
// leaves the child behind for good.
//
// Found by: down (unobserved state) across the step that deletes a
// parent. The fix: a finalizer, so that the deletion is a state
// (deletionTimestamp) that a restarted controller still finds, as
// [Correct] does; or an owner reference, for the garbage collector.
func EventNotState() explore.Controller {
	return newController(func(c clients) *reconciler {
		return &reconciler{clients: c, ensure: c.ensure}
	}, func(ctx context.Context, c clients, parents *informer.SharedIndexInformer[*Parent]) error {
		_, err := parents.AddEventHandler(informer.ResourceEventHandlerFuncs[*Parent]{
			DeleteFunc: func(p *Parent, _ bool) { // BUG: only if this process sees the event
				if err := c.children.Delete(ctx, childRef(p.Namespace, childName(p))); err != nil && !meta.IsNotFound(err) {
					slog.Debug("gallery: deleting a child", "err", err)
				}
			},
		})
		return err
	})
}

// NotIdempotent makes a create that is not safe across a crash: it creates
// the child with a generated name, then records the name in the parent's
// status, and creates a child whenever the status names none. It even
// reads the parent from the API server rather than from its cache, so
// that a lagging cache cannot fool it. But a crash between the two writes
// leaves a child the status does not name, and the restarted controller
// creates another.
//
// Found by: crash (intermediate state) right after the create. The fix: a
// fixed name, or finding children by label before creating one.
func NotIdempotent() explore.Controller {
	return newController(func(c clients) *reconciler {
		return &reconciler{clients: c, finalizer: true, ensure: c.ensureRemembered, cleanUp: c.cleanUpRemembered}
	}, nil)
}

func (c clients) ensureRemembered(ctx context.Context, p *Parent) error {
	p, err := client.New[*Parent](c.api).Namespace(p.Namespace).Get(ctx, p.Name, meta.GetOptions{})
	if err != nil {
		return err
	}
	if p.Status.Child == "" {
		kid, err := c.children.Create(ctx, newChild(p, ""))
		if err != nil {
			return err
		}
		p.Status.Child = kid.Name // BUG: a crash before this write forgets the child
		p.Status.Phase, p.Status.ObservedGeneration = Ready, p.Generation
		_, err = c.parents.UpdateStatus(ctx, p)
		return err
	}
	kid, err := c.children.Get(ctx, keyOf(p.Namespace, p.Status.Child))
	if err != nil {
		return err
	}
	if kid.Spec.Version != p.Spec.Version {
		kid.Spec.Version = p.Spec.Version
		if _, err := c.children.Update(ctx, kid); err != nil {
			return err
		}
	}
	return c.markReady(ctx, p)
}

func (c clients) cleanUpRemembered(ctx context.Context, p *Parent) error {
	if p.Status.Child != "" {
		if err := c.children.Delete(ctx, childRef(p.Namespace, p.Status.Child)); err != nil && !meta.IsNotFound(err) {
			return err
		}
	}
	reconcile.RemoveFinalizer(p, Finalizer)
	_, err := c.parents.Update(ctx, p)
	return err
}

// StatusDeepEqual decides whether there is work by comparing the status
// with the spec (reflect.DeepEqual of the spec it last applied, recorded
// in the status, and the spec), and records the spec in the status before
// it does the work. A crash, or a 409 Conflict on the child's update,
// between the two leaves a status that says "done" and a child that is
// not: the controller never looks at the child again.
//
// Found by: crash (intermediate state) after the status write, or
// conflict on the child's update. The fix: compare the spec with the
// world (the child), and report in the status after the work, as
// [Correct] does.
func StatusDeepEqual() explore.Controller {
	return newController(func(c clients) *reconciler {
		return &reconciler{clients: c, finalizer: true, ensure: c.ensureByStatus, cleanUp: c.cleanUp}
	}, nil)
}

func (c clients) ensureByStatus(ctx context.Context, p *Parent) error {
	if p.Status.Applied != nil && reflect.DeepEqual(*p.Status.Applied, p.Spec) { // BUG: trusts its own notes
		return nil
	}
	applied := p.Spec
	p.Status.Applied = &applied
	p.Status.Phase, p.Status.ObservedGeneration = Ready, p.Generation
	if _, err := c.parents.UpdateStatus(ctx, p); err != nil {
		return err
	}
	kid, err := c.children.Get(ctx, keyOf(p.Namespace, childName(p)))
	switch {
	case meta.IsNotFound(err):
		_, err = c.children.Create(ctx, newChild(p, childName(p)))
	case err == nil && kid.Spec.Version != p.Spec.Version:
		kid.Spec.Version = p.Spec.Version
		_, err = c.children.Update(ctx, kid)
	}
	return err
}

// EarlyFinalizer removes its finalizer before the cleanup finishes: on
// deletion it first lets the parent go, then deletes the child. A crash
// between the two leaves the child behind, with no parent left to remind
// anyone.
//
// Found by: crash (intermediate state) after the finalizer's removal. The
// fix: clean up first, remove the finalizer last, as [Correct] does.
func EarlyFinalizer() explore.Controller {
	return newController(func(c clients) *reconciler {
		return &reconciler{clients: c, finalizer: true, ensure: c.ensure, cleanUp: c.cleanUpLate}
	}, nil)
}

func (c clients) cleanUpLate(ctx context.Context, p *Parent) error {
	reconcile.RemoveFinalizer(p, Finalizer) // BUG: the parent goes before its child
	if _, err := c.parents.Update(ctx, p); err != nil {
		return err
	}
	if err := c.children.Delete(ctx, childRef(p.Namespace, childName(p))); err != nil && !meta.IsNotFound(err) {
		return err
	}
	return nil
}
