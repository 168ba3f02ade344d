package reconcile_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/reconcile"
)

func TestFinalizers(t *testing.T) {
	const f = "kitchen.example.com/cleanup"
	w := apiservertest.NewWidget("kitchen", "w")
	steps := []struct {
		name    string
		do      func() bool
		changed bool
		want    []string
	}{
		{"add", func() bool { return reconcile.AddFinalizer(w, f) }, true, []string{f}},
		{"add again", func() bool { return reconcile.AddFinalizer(w, f) }, false, []string{f}},
		{"add other", func() bool { return reconcile.AddFinalizer(w, "other") }, true, []string{f, "other"}},
		{"remove", func() bool { return reconcile.RemoveFinalizer(w, f) }, true, []string{"other"}},
		{"remove again", func() bool { return reconcile.RemoveFinalizer(w, f) }, false, []string{"other"}},
		{"remove last", func() bool { return reconcile.RemoveFinalizer(w, "other") }, true, nil},
	}
	for _, s := range steps {
		if got := s.do(); got != s.changed {
			t.Errorf("%s: changed = %v, want %v", s.name, got, s.changed)
		}
		if !slices.Equal(w.Finalizers, s.want) {
			t.Errorf("%s: finalizers = %q, want %q", s.name, w.Finalizers, s.want)
		}
		for _, name := range []string{f, "other"} {
			if got := reconcile.ContainsFinalizer(w, name); got != slices.Contains(s.want, name) {
				t.Errorf("%s: ContainsFinalizer(%q) = %v", s.name, name, got)
			}
		}
	}
	var nilWidget *apiservertest.Widget
	if reconcile.AddFinalizer(nilWidget, f) || reconcile.RemoveFinalizer(nilWidget, f) || reconcile.ContainsFinalizer(nilWidget, f) {
		t.Errorf("finalizer helpers changed or found something on a nil object")
	}
}

// A reconciler adds its finalizer while the object lives, and removes it
// once cleanup is done after a delete was asked for.
func ExampleAddFinalizer() {
	const finalizer = "kitchen.example.com/return-ingredients"
	w := apiservertest.NewWidget("kitchen", "soup")

	fmt.Println("added:", reconcile.AddFinalizer(w, finalizer))
	fmt.Println("added again:", reconcile.AddFinalizer(w, finalizer))
	fmt.Println("finalizers:", w.Finalizers)
	// ... the object is deleted; the server sets its deletionTimestamp ...
	if reconcile.ContainsFinalizer(w, finalizer) {
		fmt.Println("cleaning up, then removed:", reconcile.RemoveFinalizer(w, finalizer))
	}
	fmt.Println("finalizers:", w.Finalizers)
	// Output:
	// added: true
	// added again: false
	// finalizers: [kitchen.example.com/return-ingredients]
	// cleaning up, then removed: true
	// finalizers: []
}
