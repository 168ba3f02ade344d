package reconcile_test

import (
	"fmt"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/reconcile"
)

// A controller that writes its own status uses GenerationChangedPredicate
// so that its status writes do not wake it up; Or with
// LabelChangedPredicate lets label edits through as well.
func ExampleGenerationChangedPredicate() {
	type W = *apiservertest.Widget
	pred := reconcile.Or[W](
		reconcile.GenerationChangedPredicate[W]{},
		reconcile.LabelChangedPredicate[W]{},
	)

	old := apiservertest.NewWidget("kitchen", "soup")
	old.ResourceVersion, old.Generation = "10", 1

	statusWrite := old.DeepCopyObject().(W)
	statusWrite.ResourceVersion = "11"
	statusWrite.Status.Phase = "Cooking"

	specChange := statusWrite.DeepCopyObject().(W)
	specChange.ResourceVersion, specChange.Generation = "12", 2
	specChange.Spec.Size = 4

	relabel := specChange.DeepCopyObject().(W)
	relabel.ResourceVersion = "13"
	relabel.Labels = map[string]string{"station": "soup"}

	fmt.Println("status write:", pred.Update(reconcile.UpdateEvent[W]{ObjectOld: old, ObjectNew: statusWrite}))
	fmt.Println("spec change: ", pred.Update(reconcile.UpdateEvent[W]{ObjectOld: statusWrite, ObjectNew: specChange}))
	fmt.Println("new label:   ", pred.Update(reconcile.UpdateEvent[W]{ObjectOld: specChange, ObjectNew: relabel}))
	fmt.Println("create:      ", pred.Create(reconcile.CreateEvent[W]{Object: old}))
	// Output:
	// status write: false
	// spec change:  true
	// new label:    true
	// create:       true
}

// NewPredicateFuncs builds a predicate from a filter on the object; Not
// inverts any predicate.
func ExampleNewPredicateFuncs() {
	type W = *apiservertest.Widget
	grillOnly := reconcile.NewPredicateFuncs(func(w W) bool { return w.Labels["station"] == "grill" })

	steak := apiservertest.NewWidget("kitchen", "steak")
	steak.Labels = map[string]string{"station": "grill"}
	soup := apiservertest.NewWidget("kitchen", "soup")

	for _, w := range []W{steak, soup} {
		e := reconcile.CreateEvent[W]{Object: w}
		fmt.Printf("%s: grill=%v not-grill=%v\n", w.Name, grillOnly.Create(e), reconcile.Not[W](grillOnly).Create(e))
	}
	// Output:
	// steak: grill=true not-grill=false
	// soup: grill=false not-grill=true
}
