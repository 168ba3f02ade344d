package compare

import (
	"context"
	"slices"
	"testing"

	"github.com/go-logr/logr"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kitchensync/kitchensync/apiserver/envtest/explore"
	"github.com/kitchensync/kitchensync/apiserver/envtest/explore/gallery"
)

var (
	parentGVK = schema.GroupVersionKind{Group: gallery.Group, Version: gallery.Version, Kind: "Parent"}
	childGVK  = schema.GroupVersionKind{Group: gallery.Group, Version: gallery.Version, Kind: "Child"}
)

func newUnstructured(gvk schema.GroupVersionKind) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	return u
}

// crFinalizer is gallery.EarlyFinalizer written as a controller-runtime
// reconciler of unstructured objects: it gives each Parent a Child named
// after it, guarded by a finalizer, and on deletion removes the finalizer
// before it deletes the child (the planted bug). With early false, it
// deletes the child first, as it should.
type crFinalizer struct {
	c     client.Client
	early bool
}

func (r *crFinalizer) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	p := newUnstructured(parentGVK)
	if err := r.c.Get(ctx, req.NamespacedName, p); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	child := newUnstructured(childGVK)
	child.SetNamespace(p.GetNamespace())
	child.SetName(p.GetName() + "-child")
	if !p.GetDeletionTimestamp().IsZero() {
		if !controllerutil.ContainsFinalizer(p, gallery.Finalizer) {
			return reconcile.Result{}, nil
		}
		return reconcile.Result{}, r.cleanUp(ctx, p, child)
	}
	if controllerutil.AddFinalizer(p, gallery.Finalizer) {
		return reconcile.Result{}, r.c.Update(ctx, p)
	}
	version, _, _ := unstructured.NestedString(p.Object, "spec", "version")
	child.SetLabels(map[string]string{gallery.ParentLabel: p.GetName()})
	if err := unstructured.SetNestedField(child.Object, version, "spec", "version"); err != nil {
		return reconcile.Result{}, err
	}
	if err := r.c.Create(ctx, child); err != nil && !apierrors.IsAlreadyExists(err) {
		return reconcile.Result{}, err
	}
	return reconcile.Result{}, nil
}

func (r *crFinalizer) cleanUp(ctx context.Context, p, child *unstructured.Unstructured) error {
	if !r.early {
		if err := r.c.Delete(ctx, child); client.IgnoreNotFound(err) != nil {
			return err
		}
	}
	controllerutil.RemoveFinalizer(p, gallery.Finalizer)
	if err := r.c.Update(ctx, p); err != nil {
		return err
	}
	if r.early { // BUG: the parent is gone already; a crash here leaves the child
		return client.IgnoreNotFound(r.c.Delete(ctx, child))
	}
	return nil
}

// startCRFinalizer returns the start function of a controller-runtime
// manager running crFinalizer against the explorer's front for it.
func startCRFinalizer(early bool) func(ctx context.Context, conn explore.Conn) error {
	return func(ctx context.Context, conn explore.Conn) error {
		mgr, err := ctrl.NewManager(&rest.Config{Host: conn.Host}, ctrl.Options{Metrics: metricsserver.Options{BindAddress: "0"}})
		if err != nil {
			return err
		}
		toParent := handler.EnqueueRequestsFromMapFunc(func(_ context.Context, o client.Object) []reconcile.Request {
			name := o.GetLabels()[gallery.ParentLabel]
			if name == "" {
				return nil
			}
			return []reconcile.Request{{NamespacedName: types.NamespacedName{Namespace: o.GetNamespace(), Name: name}}}
		})
		err = ctrl.NewControllerManagedBy(mgr).For(newUnstructured(parentGVK)).
			Watches(newUnstructured(childGVK), toParent).Named("finalizer").WithOptions(rerunnable).
			Complete(&crFinalizer{c: mgr.GetClient(), early: early})
		if err != nil {
			return err
		}
		return mgr.Start(ctx)
	}
}

// crScenario puts a controller-runtime controller under a short workload:
// a parent comes and goes.
func crScenario(early bool) explore.Scenario {
	return explore.Scenario{
		Kinds:       gallery.Kinds(),
		Controllers: []explore.Controller{{Name: "cr", Start: startCRFinalizer(early)}},
		Workload:    []explore.Step{gallery.Create("p1", "v1"), gallery.Delete("p1")},
		Invariants:  []explore.Invariant{gallery.OneChildPerParent()},
	}
}

// TestExploreControllerRuntime explores a controller-runtime reconciler
// with a planted bug (the finalizer removed before the cleanup), run by
// an unmodified Manager over HTTP through the explorer's front: a crash
// right after the finalizer's removal leaves the child behind, the plan
// is shrunk, and its replay line reproduces it. The same reconciler with
// the cleanup first is clean under one plan of every kind, and under a
// 410 on the parents' watch, after which client-go's reflector backs off
// for up to 1.6 s before it lists again (the explorer waits for it).
//
// Runs over HTTP are real time, about 2 s each: exploring every plan (38)
// of both took 3 minutes. So the planted bug is explored with crashes
// only (the kind that finds it; 5 plans), and the right one with the
// first plan of each kind (Options.MaxPlans 8: the kinds take turns).
func TestExploreControllerRuntime(t *testing.T) {
	ctrl.SetLogger(logr.Discard())
	opts := explore.Options{HTTP: true, Try: []explore.Kind{explore.Crash}}
	rep := explore.Explore(t, crScenario(true), opts)
	if len(rep.Violations) != 1 {
		t.Fatalf("found %d violations, want 1: %v", len(rep.Violations), rep.Violations)
	}
	v := rep.Violations[0]
	t.Logf("found after %d plans (%v); %d of %d plans fail; %d runs in %v\n%s",
		v.After, v.Elapsed, v.Hits, rep.Plans, rep.Runs, rep.Elapsed, v)
	if v.What != "end state" || !slices.ContainsFunc(v.Failing, func(p explore.Plan) bool { return p.String() == "crash:cr@2.w1" }) {
		t.Errorf("want the end state to differ after crash:cr@2.w1 (the finalizer's removal), got %s after %v", v.What, v.Failing)
	}
	if v.Plan.String() != "crash:cr@2.w1" {
		t.Errorf("shrunk to %s, want crash:cr@2.w1 (step 1 makes the parent that step 2 deletes: neither can go)", v.Plan)
	}
	replay := explore.Options{HTTP: true, Plan: v.Plan.String()}
	if again := explore.Explore(t, crScenario(true), replay); len(again.Violations) != 1 || again.Violations[0].What != v.What {
		t.Errorf("replaying %s: got %v", v.Plan, again.Violations)
	}
	right := explore.Explore(t, crScenario(false), explore.Options{HTTP: true, MaxPlans: len(explore.AllKinds())})
	for _, v := range right.Violations {
		t.Errorf("with the cleanup first: %s", v)
	}
	t.Logf("with the cleanup first: %d plans, %d runs in %v", right.Plans, right.Runs, right.Elapsed)
	replay.Plan = "expire:cr/parents@2.e1"
	for _, v := range explore.Explore(t, crScenario(false), replay).Violations {
		t.Errorf("with the cleanup first, replaying %s: %s", replay.Plan, v)
	}
}
