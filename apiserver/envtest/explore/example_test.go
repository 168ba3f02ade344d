package explore_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/envtest/explore"
	"github.com/kitchensync/kitchensync/apiserver/envtest/explore/gallery"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/reconcile"
)

// The explorer finds a planted bug: a controller that removes its
// finalizer before it deletes the parent's child. A crash right after the
// finalizer's removal (write 4.w1: the first write of step 4) leaves the
// child behind. In a test, explore.Check(t, ...) would fail with this
// report; here runTest stands in for go test.
func Example() {
	var rep *explore.Report
	runTest(func(t *testing.T) {
		rep = explore.Explore(t, gallery.Scenario(gallery.EarlyFinalizer()), explore.Options{})
	})
	v := rep.Violations[0]
	fmt.Println(v.Message)
	fmt.Println("plan:", v.Plan)
	fmt.Println("found as:", v.Found)
	fmt.Println(v.Narration)
	fmt.Println(v.Diff)
	// Output:
	// the end state differs from the reference run's
	// plan: crash:ctrl@4.w1,skip:1,skip:3,skip:5-8
	// found as: crash:ctrl@4.w1
	// step 2: create parent p2 v1
	//    ...
	//    ctrl/parents <- MODIFIED Parent default/p2 rv=5
	//    controller[ctrl] reconcile-finished default/p2 worker=1 result=success
	// step 4: delete parent p2
	//    user -> delete Parent default/p2
	//    ctrl/parents <- MODIFIED Parent default/p2 rv=6
	//    ctrl -> update Parent default/p2 rv=6
	// >> ctrl crashed after write 4.w1
	//    controller[ctrl] reconcile-finished default/p2 worker=1 result=error err="explore: the controller has crashed (its process is gone)"
	//    ctrl restarted (incarnation 2)
	//    ctrl/children listed 1 at rv=7
	//    ctrl/parents listed 0 at rv=7
	//    controller[ctrl] reconcile-finished default/p2 worker=1 result=success
	// !! the end state differs from the reference run's
	//   map[string]meta.Object{
	// + 	"Child default/p2-child": &gallery.Child{
	// + 		TypeMeta: meta.TypeMeta{APIVersion: "gallery.kitchensync.io/v1", Kind: "Child"},
	// + 		ObjectMeta: meta.ObjectMeta{
	// + 			Name:      "p2-child",
	// + 			Namespace: "default",
	// + 			Labels:    map[string]string{"gallery.kitchensync.io/parent": "p2"},
	// + 		},
	// + 		Spec: gallery.ChildSpec{Version: "v1"},
	// + 	},
	//   }
}

// The gallery's correct controller gets through every plan.
func Example_correct() {
	var rep *explore.Report
	runTest(func(t *testing.T) {
		rep = explore.Explore(t, gallery.Scenario(gallery.Correct()), explore.Options{})
	})
	fmt.Printf("%d writes and %d events to perturb; %d plans, %d violations\n",
		rep.Writes, rep.Events, rep.Plans, len(rep.Violations))
	// Output:
	// 29 writes and 27 events to perturb; 196 plans, 0 violations
}

// painter is a controller of your own, as the explorer starts it: an
// informer factory and a reconcile.Controller, both on conn.API, running
// until ctx is done. It paints each Widget's status with its color.
func painter(ctx context.Context, conn explore.Conn) error {
	f := informer.NewSharedInformerFactory(conn.API, 0)
	widgets := informer.InformerFor[*apiservertest.Widget](f)
	cache, err := reconcile.NewClient(conn.API, widgets.GetIndexer())
	if err != nil {
		return err
	}
	paint := reconcile.ReconcilerFunc(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
		w, err := cache.Get(ctx, req.NamespacedName)
		if meta.IsNotFound(err) || err == nil && w.Status.Phase == "painted "+w.Spec.Color {
			return reconcile.Result{}, nil
		}
		if err != nil {
			return reconcile.Result{}, err
		}
		w.Status.Phase = "painted " + w.Spec.Color
		_, err = cache.UpdateStatus(ctx, w)
		return reconcile.Result{}, err
	})
	ctrl, err := reconcile.NewController("painter", paint, reconcile.Options{Tracer: conn.Tracer})
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

// paint is a workload step: a user sets a widget's color (creating it).
func paint(name, color string) explore.Step {
	return explore.Step{Name: name + " " + color, Do: func(ctx context.Context, api client.Interface) error {
		widgets := client.New[*apiservertest.Widget](api).Namespace("default")
		w, err := widgets.Get(ctx, name, meta.GetOptions{})
		if meta.IsNotFound(err) {
			w = apiservertest.NewWidget("default", name)
			w.Spec.Color = color
			_, err = widgets.Create(ctx, w, meta.CreateOptions{})
			return err
		}
		if err != nil {
			return err
		}
		w.Spec.Color = color
		_, err = widgets.Update(ctx, w, meta.UpdateOptions{})
		return err
	}}
}

// A scenario of your own: the kinds, a controller's start function, a
// workload. The painter is level-triggered, so no plan changes how it
// ends. The report tells the reference run, where the points of the
// plans are: 2.w1 is the painter's first write during step 2, and
// widgets@3.e2 the second event its informer receives during step 3.
func Example_yourController() {
	s := explore.Scenario{
		Kinds:       []meta.KindInfo{apiservertest.WidgetKind()},
		Controllers: []explore.Controller{{Name: "painter", Start: painter}},
		Workload:    []explore.Step{paint("w1", "red"), paint("w2", "blue"), paint("w1", "green")},
	}
	var rep *explore.Report
	runTest(func(t *testing.T) { rep = explore.Explore(t, s, explore.Options{}) })
	fmt.Printf("%d plans, %d violations\n", rep.Plans, len(rep.Violations))
	fmt.Println(rep.Reference)
	// Output:
	// 36 plans, 0 violations
	//    painter/widgets listed 0 at rv=1
	// step 1: w1 red
	//    user -> create Widget default/w1 rv=2
	//    painter/widgets <- ADDED Widget default/w1 rv=2
	//    painter -> update-status Widget default/w1 rv=3
	//    controller[painter] reconcile-finished default/w1 worker=1 result=success
	//    painter/widgets <- MODIFIED Widget default/w1 rv=3
	//    controller[painter] reconcile-finished default/w1 worker=1 result=success
	// step 2: w2 blue
	//    user -> create Widget default/w2 rv=4
	//    painter/widgets <- ADDED Widget default/w2 rv=4
	//    painter -> update-status Widget default/w2 rv=5
	//    controller[painter] reconcile-finished default/w2 worker=1 result=success
	//    painter/widgets <- MODIFIED Widget default/w2 rv=5
	//    controller[painter] reconcile-finished default/w2 worker=1 result=success
	// step 3: w1 green
	//    user -> update Widget default/w1 rv=6
	//    painter/widgets <- MODIFIED Widget default/w1 rv=6
	//    painter -> update-status Widget default/w1 rv=7
	//    controller[painter] reconcile-finished default/w1 worker=1 result=success
	//    painter/widgets <- MODIFIED Widget default/w1 rv=7
	//    controller[painter] reconcile-finished default/w1 worker=1 result=success
}
