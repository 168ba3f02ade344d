package kitchen_test

import (
	"errors"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
)

func TestWaiterActsLikeKubectl(t *testing.T) {
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	w := kitchen.NewWaiter(srv, ns, nil)
	ctx := t.Context()
	gr := kitchen.OrderResource.GroupResource()

	bad := newOrder("t1", 0, item("soup"))
	if _, err := w.Place(ctx, bad); !meta.IsInvalid(err) {
		t.Fatalf("an invalid order: %v", err)
	}
	if n := srv.RequestCount(apiserver.VerbCreate, gr); n != 0 {
		t.Errorf("an invalid order reached the server (%d creates)", n)
	}
	if _, err := w.Place(ctx, newOrder("t1", 1, item("tomato-soup"))); err != nil {
		t.Fatal(err)
	}
	// Someone else writes first: the waiter's update conflicts once and is
	// retried on the latest version, as kubectl edit would.
	srv.FailNext(apiserver.VerbUpdate, 1, meta.NewConflict(gr, "t1", errors.New("the object has been modified")))
	o, err := w.AddExtra(ctx, "t1", 0, "chili")
	if err != nil {
		t.Fatalf("amend after a conflict: %v", err)
	}
	if o.Generation != 2 || o.Spec.Items[0].Extras[0] != "chili" {
		t.Errorf("amended order: generation %d, items %+v", o.Generation, o.Spec.Items)
	}
	if n := srv.RequestCount(apiserver.VerbUpdate, gr); n != 2 {
		t.Errorf("%d updates, want 2 (one conflict, one retry)", n)
	}
	if _, err := w.AddExtra(ctx, "t1", 0, "Not An Extra"); !meta.IsInvalid(err) {
		t.Errorf("an invalid amendment: %v", err)
	}
	if err := w.Cancel(ctx, "t1"); err != nil {
		t.Fatal(err)
	}
	if err := w.Cancel(ctx, "t1"); !meta.IsNotFound(err) {
		t.Errorf("cancelling twice: %v", err)
	}
}
