package gallery

import (
	"context"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/envtest/explore"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/reconcile"
)

// Name is the name of every gallery controller, in plans
// ("crash:ctrl@2.w1").
const Name = "ctrl"

// Ready is the Phase of a Parent whose child carries its version.
const Ready = "Ready"

// clients are what a gallery reconciler reads (from the cache) and writes
// (to the server) through.
type clients struct {
	parents  *reconcile.Client[*Parent]
	children *reconcile.Client[*Child]
	api      client.Interface // for reads that must not be stale
}

// reconciler is the shape every gallery controller shares: it reads the
// Parent from the cache, guards the cleanup with a finalizer (if
// finalizer), and delegates the two jobs that the planted bugs get wrong:
// making the child match the parent (ensure), and cleaning up when the
// parent is deleted (cleanUp).
type reconciler struct {
	clients
	finalizer bool
	ensure    func(ctx context.Context, p *Parent) error
	cleanUp   func(ctx context.Context, p *Parent) error
}

// Reconcile reads the parent from the cache and, as its state asks,
// cleans up, adds the finalizer, or makes the child match.
func (r *reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	p, err := r.parents.Get(ctx, req.NamespacedName)
	if meta.IsNotFound(err) {
		return reconcile.Result{}, nil // gone: nothing to do
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	if p.DeletionTimestamp != nil {
		if !hasFinalizer(p) {
			return reconcile.Result{}, nil
		}
		return reconcile.Result{}, r.cleanUp(ctx, p)
	}
	if r.finalizer && reconcile.AddFinalizer(p, Finalizer) {
		_, err := r.parents.Update(ctx, p) // its event reconciles p again
		return reconcile.Result{}, err
	}
	return reconcile.Result{}, r.ensure(ctx, p)
}

// newController returns a gallery controller: an informer per kind, and a
// reconcile.Controller for Parents that also wakes for the children of
// each (found by [ParentLabel]). build makes its reconciler; handle, if
// set, adds handlers of its own to the parents' informer.
func newController(build func(clients) *reconciler, handle func(context.Context, clients, *informer.SharedIndexInformer[*Parent]) error) explore.Controller {
	return explore.Controller{Name: Name, Start: func(ctx context.Context, conn explore.Conn) error {
		f := informer.NewSharedInformerFactory(conn.API, 0)
		parents, children := informer.InformerFor[*Parent](f), informer.InformerFor[*Child](f)
		pc, err := reconcile.NewClient(conn.API, parents.GetIndexer())
		if err != nil {
			return err
		}
		cc, err := reconcile.NewClient(conn.API, children.GetIndexer())
		if err != nil {
			return err
		}
		cl := clients{parents: pc, children: cc, api: conn.API}
		ctrl, err := reconcile.NewController(Name, build(cl), reconcile.Options{Tracer: conn.Tracer})
		if err != nil {
			return err
		}
		if err := reconcile.For(ctrl, parents); err != nil {
			return err
		}
		if err := reconcile.Watches(ctrl, children, parentOf); err != nil {
			return err
		}
		if handle != nil {
			if err := handle(ctx, cl, parents); err != nil {
				return err
			}
		}
		f.Start(ctx)
		defer f.Shutdown()
		return ctrl.Start(ctx)
	}}
}

// parentOf maps a child to its parent's request.
func parentOf(_ context.Context, c *Child) []reconcile.Request {
	p := c.Labels[ParentLabel]
	if p == "" {
		return nil
	}
	return []reconcile.Request{{NamespacedName: reconcile.NamespacedName{Namespace: c.Namespace, Name: p}}}
}

// Correct is the gallery's controller done right: it gives each Parent
// one Child with a fixed name, updates it to the parent's version, marks
// the parent Ready, and on deletion deletes the child before it lets the
// parent go. The explorer finds nothing wrong with it.
func Correct() explore.Controller {
	return newController(func(c clients) *reconciler {
		return &reconciler{clients: c, finalizer: true, ensure: c.ensure, cleanUp: c.cleanUp}
	}, nil)
}

// ensure looks at the world, not at its own notes: the child under its
// fixed name, created if missing (a second create fails with
// AlreadyExists: the cache is behind, try again), updated if behind.
func (c clients) ensure(ctx context.Context, p *Parent) error {
	kid, err := c.children.Get(ctx, keyOf(p.Namespace, childName(p)))
	switch {
	case meta.IsNotFound(err):
		if _, err := c.children.Create(ctx, newChild(p, childName(p))); err != nil {
			return err
		}
	case err != nil:
		return err
	case kid.Spec.Version != p.Spec.Version:
		kid.Spec.Version = p.Spec.Version
		if _, err := c.children.Update(ctx, kid); err != nil {
			return err
		}
	}
	return c.markReady(ctx, p)
}

// markReady reports, after the work, that p's generation is done.
func (c clients) markReady(ctx context.Context, p *Parent) error {
	if p.Status.Phase == Ready && p.Status.ObservedGeneration == p.Generation {
		return nil
	}
	p.Status.Phase, p.Status.ObservedGeneration = Ready, p.Generation
	_, err := c.parents.UpdateStatus(ctx, p)
	return err
}

// cleanUp deletes the child first, and only then removes the finalizer.
func (c clients) cleanUp(ctx context.Context, p *Parent) error {
	if err := c.children.Delete(ctx, childRef(p.Namespace, childName(p))); err != nil && !meta.IsNotFound(err) {
		return err
	}
	reconcile.RemoveFinalizer(p, Finalizer)
	_, err := c.parents.Update(ctx, p)
	return err
}

func keyOf(namespace, name string) reconcile.NamespacedName {
	return reconcile.NamespacedName{Namespace: namespace, Name: name}
}

// childRef names a child, for a delete.
func childRef(namespace, name string) *Child {
	return &Child{ObjectMeta: meta.ObjectMeta{Namespace: namespace, Name: name}}
}
