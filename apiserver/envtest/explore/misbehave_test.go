package explore_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/envtest/explore"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/reconcile"
)

// restless bumps every widget's status on every event, its own writes
// included: it never settles.
func restless(ctx context.Context, conn explore.Conn) error {
	f := informer.NewSharedInformerFactory(conn.API, 0)
	widgets := informer.InformerFor[*apiservertest.Widget](f)
	cache, err := reconcile.NewClient(conn.API, widgets.GetIndexer())
	if err != nil {
		return err
	}
	ctrl, err := reconcile.NewController("restless", reconcile.ReconcilerFunc(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
		w, err := cache.Get(ctx, req.NamespacedName)
		if err != nil {
			return reconcile.Result{}, nil
		}
		w.Status.ObservedGeneration++
		_, err = cache.UpdateStatus(ctx, w)
		return reconcile.Result{}, err
	}), reconcile.Options{})
	if err != nil {
		return err
	}
	if err := reconcile.For(ctrl, widgets); err != nil {
		return err
	}
	f.Start(ctx)
	defer f.Shutdown()
	return ctrl.Start(ctx)
}

// TestReferenceRunViolations: what goes wrong without any perturbation
// is reported as a violation of the reference run (plan "none"), and
// nothing more is explored.
func TestReferenceRunViolations(t *testing.T) {
	widgets := []meta.KindInfo{apiservertest.WidgetKind()}
	for _, tc := range []struct {
		name, what, message string
		s                   explore.Scenario
	}{
		{"a hot loop", "settle", "did not settle", explore.Scenario{
			Kinds: widgets, Controllers: []explore.Controller{{Name: "restless", Start: restless}},
			Workload: []explore.Step{paint("w1", "red")},
		}},
		{"a controller that quits", "controller", "stopped by itself: boom", explore.Scenario{
			Kinds: widgets, Controllers: []explore.Controller{{Name: "quitter", Start: func(context.Context, explore.Conn) error {
				return errors.New("boom")
			}}},
		}},
		{"a step that fails", "step", `step 2 "w1 again" failed`, explore.Scenario{
			Kinds: widgets, Controllers: []explore.Controller{{Name: "painter", Start: painter}},
			Workload: []explore.Step{paint("w1", "red"), {Name: "w1 again", Do: func(ctx context.Context, api client.Interface) error {
				_, err := client.New[*apiservertest.Widget](api).Create(ctx, apiservertest.NewWidget("default", "w1"), meta.CreateOptions{})
				return err
			}}},
		}},
	} {
		rep := explore.Explore(t, tc.s, explore.Options{MaxSteps: 200})
		if len(rep.Violations) != 1 || rep.Plans != 0 {
			t.Errorf("%s: %d plans, violations %v; want the reference's only", tc.name, rep.Plans, rep.Violations)
			continue
		}
		v := rep.Violations[0]
		if v.What != tc.what || !strings.Contains(v.Message, tc.message) || v.Plan.String() != "none" || v.After != 0 {
			t.Errorf("%s: got %s %q after %d plans (plan %s), want %s %q of the reference", tc.name, v.What, v.Message, v.After, v.Plan, tc.what, tc.message)
		}
	}
}
