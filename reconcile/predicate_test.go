package reconcile_test

import (
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/reconcile"
)

// widget returns a Widget with the given resourceVersion and generation.
func widget(rv string, gen int64) *apiservertest.Widget {
	w := apiservertest.NewWidget("kitchen", "w")
	w.ResourceVersion, w.Generation = rv, gen
	return w
}

func update(o, n *apiservertest.Widget) reconcile.UpdateEvent[*apiservertest.Widget] {
	return reconcile.UpdateEvent[*apiservertest.Widget]{ObjectOld: o, ObjectNew: n}
}

func TestPredicateUpdates(t *testing.T) {
	type W = *apiservertest.Widget
	labelled := widget("2", 1)
	labelled.Labels = map[string]string{"station": "grill"}
	annotated := widget("2", 1)
	annotated.Annotations = map[string]string{"note": "x"}
	tests := []struct {
		name   string
		reason string
		pred   reconcile.Predicate[W]
		event  reconcile.UpdateEvent[W]
		want   bool
	}{
		{"rv/resync", "a resync re-delivers the same resourceVersion", reconcile.ResourceVersionChangedPredicate[W]{}, update(widget("1", 1), widget("1", 1)), false},
		{"rv/change", "any write changes the resourceVersion", reconcile.ResourceVersionChangedPredicate[W]{}, update(widget("1", 1), widget("2", 1)), true},
		{"gen/status", "a status write does not bump the generation", reconcile.GenerationChangedPredicate[W]{}, update(widget("1", 1), widget("2", 1)), false},
		{"gen/spec", "a spec change bumps the generation", reconcile.GenerationChangedPredicate[W]{}, update(widget("1", 1), widget("2", 2)), true},
		{"gen/nil", "an update without objects is dropped, not a panic", reconcile.GenerationChangedPredicate[W]{}, update(nil, widget("2", 2)), false},
		{"label/same", "no label change", reconcile.LabelChangedPredicate[W]{}, update(widget("1", 1), widget("2", 2)), false},
		{"label/changed", "a label was added", reconcile.LabelChangedPredicate[W]{}, update(widget("1", 1), labelled), true},
		{"annotation/same", "no annotation change", reconcile.AnnotationChangedPredicate[W]{}, update(widget("1", 1), labelled), false},
		{"annotation/changed", "an annotation was added", reconcile.AnnotationChangedPredicate[W]{}, update(widget("1", 1), annotated), true},
		{"and", "status write: generation unchanged", reconcile.And[W](reconcile.ResourceVersionChangedPredicate[W]{}, reconcile.GenerationChangedPredicate[W]{}), update(widget("1", 1), widget("2", 1)), false},
		{"and/empty", "no predicate passes everything", reconcile.And[W](), update(widget("1", 1), widget("1", 1)), true},
		{"or", "labels changed though generation did not", reconcile.Or[W](reconcile.GenerationChangedPredicate[W]{}, reconcile.LabelChangedPredicate[W]{}), update(widget("1", 1), labelled), true},
		{"or/empty", "no predicate passes nothing", reconcile.Or[W](), update(widget("1", 1), widget("2", 2)), false},
		{"not", "not(generation changed) passes a status write", reconcile.Not[W](reconcile.GenerationChangedPredicate[W]{}), update(widget("1", 1), widget("2", 1)), true},
		{"funcs/nil", "a nil func passes", reconcile.Funcs[W]{}, update(widget("1", 1), widget("1", 1)), true},
		{"filter", "NewPredicateFuncs asks about the new object", reconcile.NewPredicateFuncs(func(w W) bool { return w.Labels["station"] == "grill" }), update(widget("1", 1), labelled), true},
	}
	for _, tt := range tests {
		if got := tt.pred.Update(tt.event); got != tt.want {
			t.Errorf("%s: Update = %v, want %v (%s)", tt.name, got, tt.want, tt.reason)
		}
	}
}

// The built-in predicates filter only updates: creates, deletes and
// generic events pass, so that a controller never misses an object.
func TestPredicatesPassOtherEvents(t *testing.T) {
	type W = *apiservertest.Widget
	preds := map[string]reconcile.Predicate[W]{
		"rv":         reconcile.ResourceVersionChangedPredicate[W]{},
		"generation": reconcile.GenerationChangedPredicate[W]{},
		"label":      reconcile.LabelChangedPredicate[W]{},
		"annotation": reconcile.AnnotationChangedPredicate[W]{},
	}
	w := widget("1", 1)
	for name, p := range preds {
		if !p.Create(reconcile.CreateEvent[W]{Object: w}) || !p.Delete(reconcile.DeleteEvent[W]{Object: w}) ||
			!p.Generic(reconcile.GenericEvent[W]{Object: w}) {
			t.Errorf("%s: dropped a create, delete or generic event", name)
		}
	}
	not := reconcile.Not[W](reconcile.Funcs[W]{})
	if not.Create(reconcile.CreateEvent[W]{Object: w}) || not.Delete(reconcile.DeleteEvent[W]{Object: w}) ||
		not.Generic(reconcile.GenericEvent[W]{Object: w}) {
		t.Errorf("Not(Funcs{}) passed an event")
	}
}

func TestNamespacedName(t *testing.T) {
	for _, tt := range []struct {
		obj  meta.Object
		want string
	}{
		{apiservertest.NewWidget("kitchen", "w"), "kitchen/w"},
		{apiservertest.NewGadget("g"), "g"},
	} {
		if got := reconcile.RequestFor(tt.obj).String(); got != tt.want {
			t.Errorf("RequestFor(%v).String() = %q, want %q", tt.obj, got, tt.want)
		}
	}
}
