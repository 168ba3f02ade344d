package apiserver_test

import (
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// ownedWidget returns a widget in "ns" owned by the given owners (the first
// one as controller).
func ownedWidget(name string, owners ...meta.Object) *apiservertest.Widget {
	w := apiservertest.NewWidget("ns", name)
	for i, o := range owners {
		ref := meta.NewControllerRef(o)
		if i > 0 {
			ref.Controller = nil
		}
		w.OwnerReferences = append(w.OwnerReferences, ref)
	}
	return w
}

func TestGarbageCollectorDeletesDependents(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		owner := f.create(t, "order", "red", nil)
		child := mustCreate(t, f, ownedWidget("cook", owner))
		mustCreate(t, f, ownedWidget("grandchild", child))
		mustCreate(t, f, apiservertest.NewWidget("ns", "bystander"))
		w := f.watch(t, meta.ListOptions{ResourceVersion: f.srv.ResourceVersion()})

		if err := f.widgets.Delete(f.ctx, "order", meta.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		want := []string{"DELETED ns/order rv=6", "DELETED ns/cook rv=7", "DELETED ns/grandchild rv=8"}
		diffEvents(t, w, want)
		list, err := f.res.List(f.ctx, meta.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"ns/bystander"}, names(list)); diff != "" {
			t.Errorf("left after the cascade (-want +got):\n%s", diff)
		}
	})
}

func TestGarbageCollectorKeepsDependentWithLivingOwner(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		a := f.create(t, "a", "", nil)
		b := f.create(t, "b", "", nil)
		mustCreate(t, f, ownedWidget("shared", a, b))
		w := f.watch(t, meta.ListOptions{ResourceVersion: f.srv.ResourceVersion()})

		if err := f.widgets.Delete(f.ctx, "a", meta.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		want := []string{"DELETED ns/a rv=5", "MODIFIED ns/shared rv=6"}
		diffEvents(t, w, want)
		got, err := f.widgets.Get(f.ctx, "shared", meta.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.OwnerReferences) != 1 || got.OwnerReferences[0].UID != b.UID {
			t.Errorf("owner references = %+v, want only b's", got.OwnerReferences)
		}
	})
}

func TestGarbageCollectorWaitsForOwnerFinalizersAndHonoursDependentFinalizers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		owner := apiservertest.NewWidget("ns", "order")
		owner.Finalizers = []string{"kitchen/cleanup"}
		owner = mustCreate(t, f, owner)
		child := ownedWidget("cook", owner)
		child.Finalizers = []string{"kitchen/stop-stove"}
		mustCreate(t, f, child)
		w := f.watch(t, meta.ListOptions{ResourceVersion: f.srv.ResourceVersion()})

		if err := f.widgets.Delete(f.ctx, "order", meta.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		// Only marked for deletion: the dependent is untouched.
		owner, _ = f.widgets.Get(f.ctx, "order", meta.GetOptions{})
		owner.Finalizers = nil
		f.update(t, owner)
		want := []string{
			"MODIFIED ns/order rv=4", // deletionTimestamp set
			"DELETED ns/order rv=5",  // last finalizer removed
			"MODIFIED ns/cook rv=6",  // the collector's delete waits for the cook's finalizer
		}
		diffEvents(t, w, want)
		cook, err := f.widgets.Get(f.ctx, "cook", meta.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if cook.DeletionTimestamp == nil {
			t.Error("the cook has no deletionTimestamp after its owner went")
		}
	})
}

func TestGarbageCollectionCanBeDisabled(t *testing.T) {
	f := newFixture(t, apiserver.Options{DisableGarbageCollection: true})
	owner := f.create(t, "order", "", nil)
	mustCreate(t, f, ownedWidget("cook", owner))
	if err := f.widgets.Delete(f.ctx, "order", meta.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.widgets.Get(f.ctx, "cook", meta.GetOptions{}); err != nil {
		t.Errorf("Get(cook) = %v, want it kept with garbage collection off", err)
	}
}

func TestKindValidateRefusesWholeWrite(t *testing.T) {
	scheme := apiservertest.NewScheme()
	info, _ := scheme.KindForResource(apiservertest.WidgetsResource)
	info.Group, info.Kind, info.Resource = "strict.example.com", "Widget", "widgets"
	// A second scheme with a validating Widget kind.
	strict := meta.NewScheme()
	info.Validate = func(obj meta.Object) meta.FieldErrors {
		var errs meta.FieldErrors
		if w := obj.(*apiservertest.Widget); w.Spec.Size < 1 {
			errs.Invalid("spec.size", w.Spec.Size, "must be at least 1")
		}
		return errs
	}
	if err := strict.Register(info); err != nil {
		t.Fatal(err)
	}
	srv := apiserver.NewServer(strict, apiserver.Options{})
	widgets := client.New[*apiservertest.Widget](srv).Namespace("ns")
	ctx := t.Context()

	w := apiservertest.NewWidget("ns", "w")
	w.APIVersion = "strict.example.com/v1"
	_, err := widgets.Create(ctx, w, meta.CreateOptions{})
	wantMsg := `Widget.strict.example.com "w" is invalid: spec.size: Invalid value: 0: must be at least 1`
	if !meta.IsInvalid(err) || err.Error() != wantMsg {
		t.Fatalf("Create = %v, want %q", err, wantMsg)
	}
	w.Spec.Size = 2
	created, err := widgets.Create(ctx, w, meta.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rv := srv.ResourceVersion()
	created.Spec.Size = 0
	if _, err := widgets.Update(ctx, created, meta.UpdateOptions{}); !meta.IsInvalid(err) {
		t.Errorf("Update to size 0 = %v, want 422 Invalid", err)
	}
	if _, err := widgets.Patch(ctx, "w", meta.MergePatchType, []byte(`{"spec":{"size":0}}`), meta.PatchOptions{}); !meta.IsInvalid(err) {
		t.Errorf("Patch to size 0 = %v, want 422 Invalid", err)
	}
	if got := srv.ResourceVersion(); got != rv {
		t.Errorf("resourceVersion moved from %s to %s: a refused write was applied", rv, got)
	}
}

func mustCreate(t *testing.T, f *fixture, w *apiservertest.Widget) *apiservertest.Widget {
	t.Helper()
	got, err := f.widgets.Create(f.ctx, w, meta.CreateOptions{})
	if err != nil {
		t.Fatalf("Create(%s): %v", w.Name, err)
	}
	return got
}

func TestGarbageCollectorDeletesChildOfAbsentOwner(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		owner := f.create(t, "order", "", nil)
		if err := f.widgets.Delete(f.ctx, "order", meta.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		unknown := meta.OwnerReference{APIVersion: "other.example.com/v1", Kind: "Thing", Name: "x", UID: "u-1"}
		mustCreate(t, f, apiservertest.NewWidget("ns", "keeper")) // no owner: never garbage
		withUnknown := apiservertest.NewWidget("ns", "unknown-owner")
		withUnknown.OwnerReferences = []meta.OwnerReference{unknown}
		mustCreate(t, f, withUnknown)
		w := f.watch(t, meta.ListOptions{ResourceVersion: f.srv.ResourceVersion()})

		// A cook created for an order that is already gone (the cache was
		// behind) is collected at once.
		mustCreate(t, f, ownedWidget("late-cook", owner))
		diffEvents(t, w, []string{"ADDED ns/late-cook rv=6", "DELETED ns/late-cook rv=7"})

		list, err := f.res.List(f.ctx, meta.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"ns/keeper", "ns/unknown-owner"}, names(list)); diff != "" {
			t.Errorf("left (-want +got):\n%s", diff)
		}
	})
}

func TestOwnerReferencesAreValidated(t *testing.T) {
	f := newFixture(t, apiserver.Options{})
	owner := f.create(t, "order", "", nil)
	yes := true
	for _, tc := range []struct {
		name string
		refs []meta.OwnerReference
		want string
	}{{
		name: "no uid (the owner was never read back from the server)",
		refs: []meta.OwnerReference{{APIVersion: owner.APIVersion, Kind: "Widget", Name: "order"}},
		want: `Widget.test.kitchensync.io "cook" is invalid: metadata.ownerReferences[0].uid: Invalid value: "": uid must not be empty: use meta.NewControllerRef on the stored owner`,
	}, {
		name: "two controllers",
		refs: []meta.OwnerReference{
			{APIVersion: owner.APIVersion, Kind: "Widget", Name: "order", UID: owner.UID, Controller: &yes},
			{APIVersion: owner.APIVersion, Kind: "Widget", Name: "order", UID: owner.UID, Controller: &yes},
		},
		want: `Widget.test.kitchensync.io "cook" is invalid: metadata.ownerReferences: Invalid value: 2: only one reference can have Controller set to true`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			w := apiservertest.NewWidget("ns", "cook")
			w.OwnerReferences = tc.refs
			_, err := f.widgets.Create(f.ctx, w, meta.CreateOptions{})
			if !meta.IsInvalid(err) || err.Error() != tc.want {
				t.Errorf("Create = %v\nwant %s", err, tc.want)
			}
			if _, err := f.widgets.Get(f.ctx, "cook", meta.GetOptions{}); !meta.IsNotFound(err) {
				t.Errorf("Get after a refused create = %v, want NotFound", err)
			}
		})
	}
}
