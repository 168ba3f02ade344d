package apiserver_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/gc"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// deleteWith deletes name in "ns" with the given policy and returns what
// DeleteObject returned.
func (f *fixture) deleteWith(t *testing.T, name string, policy meta.DeletionPropagation) (*apiservertest.Widget, bool) {
	t.Helper()
	obj, gone, err := f.res.Namespace("ns").DeleteObject(f.ctx, name, meta.DeleteOptions{PropagationPolicy: &policy})
	if err != nil {
		t.Fatalf("DeleteObject(%s, %s): %v", name, policy, err)
	}
	return obj.(*apiservertest.Widget), gone
}

func (f *fixture) get(t *testing.T, name string) *apiservertest.Widget {
	t.Helper()
	w, err := f.widgets.Get(f.ctx, name, meta.GetOptions{})
	if err != nil {
		t.Fatalf("Get(%s): %v", name, err)
	}
	return w
}

func TestForegroundDeletionWaitsForBlockingDependents(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		owner := f.create(t, "order", "", nil)
		blocking := ownedWidget("cook", owner) // a controller ref: blockOwnerDeletion
		blocking.Finalizers = []string{"kitchen/stop-stove"}
		mustCreate(t, f, blocking)
		loose := ownedWidget("napkin", owner)
		loose.OwnerReferences[0].BlockOwnerDeletion = nil
		mustCreate(t, f, loose)
		w := f.watch(t, meta.ListOptions{ResourceVersion: f.srv.ResourceVersion()})

		got, gone := f.deleteWith(t, "order", meta.DeletePropagationForeground)
		if gone || got.DeletionTimestamp == nil || !cmp.Equal(got.Finalizers, []string{meta.FinalizerDeleteDependents}) {
			t.Fatalf("DeleteObject = gone %v, finalizers %q, deletionTimestamp %v; want the owner kept with %q",
				gone, got.Finalizers, got.DeletionTimestamp, meta.FinalizerDeleteDependents)
		}
		diffEvents(t, w, []string{"MODIFIED ns/order rv=5"}) // deletionTimestamp and the foregroundDeletion finalizer
		time.Sleep(gc.Delay)                                 // the collector acts
		diffEvents(t, w, []string{
			"MODIFIED ns/cook rv=6",  // deleted, held by its own finalizer
			"DELETED ns/napkin rv=7", // deleted; the owner does not wait for it
		})

		cook := f.get(t, "cook")
		cook.Finalizers = nil
		f.update(t, cook)
		diffEvents(t, w, []string{"DELETED ns/cook rv=8"})
		time.Sleep(gc.Delay)
		diffEvents(t, w, []string{"DELETED ns/order rv=9"})
	})
}

func TestForegroundDeletionCascadesThroughGenerations(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		owner := f.create(t, "order", "", nil)
		child := mustCreate(t, f, ownedWidget("cook", owner))
		mustCreate(t, f, ownedWidget("grandchild", child))
		w := f.watch(t, meta.ListOptions{ResourceVersion: f.srv.ResourceVersion()})

		f.deleteWith(t, "order", meta.DeletePropagationForeground)
		time.Sleep(gc.Delay)
		// The grandchild goes first, then its parent, then the owner: the
		// reverse of background deletion.
		diffEvents(t, w, []string{
			"MODIFIED ns/order rv=5",
			"MODIFIED ns/cook rv=6", // deleted in the foreground too: it has a dependent
			"DELETED ns/grandchild rv=7",
			"DELETED ns/cook rv=8",
			"DELETED ns/order rv=9",
		})
	})
}

func TestOrphanDeletionKeepsDependents(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		owner := f.create(t, "order", "", nil)
		other := f.create(t, "table", "", nil)
		mustCreate(t, f, ownedWidget("cook", owner))
		mustCreate(t, f, ownedWidget("shared", owner, other))
		w := f.watch(t, meta.ListOptions{ResourceVersion: f.srv.ResourceVersion()})

		got, gone := f.deleteWith(t, "order", meta.DeletePropagationOrphan)
		if gone || !cmp.Equal(got.Finalizers, []string{meta.FinalizerOrphanDependents}) {
			t.Errorf("DeleteObject = gone %v, finalizers %q; want the owner held by %q", gone, got.Finalizers, meta.FinalizerOrphanDependents)
		}
		time.Sleep(gc.Delay)
		diffEvents(t, w, []string{
			"MODIFIED ns/order rv=6", // the orphan finalizer
			"MODIFIED ns/cook rv=7",  // loses its owner reference
			"MODIFIED ns/shared rv=8",
			"DELETED ns/order rv=9",
		})
		if refs := f.get(t, "cook").OwnerReferences; refs != nil {
			t.Errorf("cook's owner references = %+v, want none", refs)
		}
		if refs := f.get(t, "shared").OwnerReferences; len(refs) != 1 || refs[0].UID != other.UID {
			t.Errorf("shared's owner references = %+v, want only the table's", refs)
		}
	})
}

func TestDeleteOfTerminatingObject(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		held := apiservertest.NewWidget("ns", "held")
		held.Finalizers = []string{"kitchen/cleanup"}
		mustCreate(t, f, held)
		first, gone := f.deleteWith(t, "held", meta.DeletePropagationBackground)
		if gone || first.DeletionTimestamp == nil || first.DeletionGracePeriodSeconds == nil || *first.DeletionGracePeriodSeconds != 0 || first.Generation != 2 {
			t.Fatalf("first delete = gone %v, %+v; want deletionTimestamp, deletionGracePeriodSeconds 0, generation 2", gone, first.ObjectMeta)
		}
		rv := f.srv.ResourceVersion()
		again, gone := f.deleteWith(t, "held", meta.DeletePropagationBackground)
		if gone || !cmp.Equal(again, first) || f.srv.ResourceVersion() != rv {
			t.Errorf("second delete changed the object or wrote: %s", cmp.Diff(first, again))
		}
		// A new policy replaces the old one's finalizer, as in Kubernetes.
		fg, _ := f.deleteWith(t, "held", meta.DeletePropagationForeground)
		want := []string{"kitchen/cleanup", meta.FinalizerDeleteDependents}
		if !cmp.Equal(fg.Finalizers, want) || fg.Generation != 2 || !fg.DeletionTimestamp.Equal(first.DeletionTimestamp.Time) {
			t.Errorf("foreground delete = finalizers %q generation %d; want %q, 2, same deletionTimestamp", fg.Finalizers, fg.Generation, want)
		}
	})
}

func TestDeleteOptionsValidatedBeforeAnyChange(t *testing.T) {
	f := newFixture(t, apiserver.Options{})
	f.create(t, "order", "", nil)
	bogus := meta.DeletionPropagation("Bogus")
	orphan := meta.DeletePropagationOrphan
	yes := true
	for _, tc := range []struct {
		name string
		opts meta.DeleteOptions
		want string
	}{{
		name: "unknown policy",
		opts: meta.DeleteOptions{PropagationPolicy: &bogus},
		want: `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Bogus": supported values: "Foreground", "Background", "Orphan", "nil"`,
	}, {
		name: "both policy and orphanDependents",
		opts: meta.DeleteOptions{PropagationPolicy: &orphan, OrphanDependents: &yes},
		want: `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			err := f.widgets.Delete(f.ctx, "order", tc.opts)
			if !meta.IsInvalid(err) || err.Error() != tc.want {
				t.Errorf("Delete = %v\nwant %s", err, tc.want)
			}
			f.get(t, "order")
		})
	}
}

func TestDryRunDeleteReportsWithoutDeleting(t *testing.T) {
	f := newFixture(t, apiserver.Options{})
	f.create(t, "order", "", nil)
	rv := f.srv.ResourceVersion()
	obj, gone, err := f.res.Namespace("ns").DeleteObject(f.ctx, "order", meta.DeleteOptions{DryRun: true})
	if err != nil || !gone || obj.GetObjectMeta().UID == "" {
		t.Errorf("dry-run DeleteObject = %v, gone %v, %v; want the object, gone", obj, gone, err)
	}
	f.get(t, "order")
	if got := f.srv.ResourceVersion(); got != rv {
		t.Errorf("resourceVersion moved from %s to %s in a dry run", rv, got)
	}
}

func TestOrphanDependentsTrueMeansOrphan(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		owner := f.create(t, "order", "", nil)
		mustCreate(t, f, ownedWidget("cook", owner))
		yes := true
		if err := f.widgets.Delete(f.ctx, "order", meta.DeleteOptions{OrphanDependents: &yes}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(gc.Delay)
		synctest.Wait()
		if refs := f.get(t, "cook").OwnerReferences; refs != nil {
			t.Errorf("cook's owner references = %+v, want none", refs)
		}
	})
}

// As on a cluster, whose garbage collector acts a moment after the
// DELETE: an owner deleted in the foreground (or with orphan
// propagation), even one with no dependents, is still there right after
// the DELETE, with its deletionTimestamp and the policy's finalizer; the
// collector removes it gc.Delay later, on a goroutine of its own that
// ends when its work is done.
func TestPropagationHoldsTheOwnerUntilTheCollectorActs(t *testing.T) {
	for _, policy := range []meta.DeletionPropagation{meta.DeletePropagationForeground, meta.DeletePropagationOrphan} {
		t.Run(string(policy), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t, apiserver.Options{})
				f.create(t, "order", "", nil)
				w := f.watch(t, meta.ListOptions{ResourceVersion: f.srv.ResourceVersion()})
				synctest.Wait()
				before := bubbleGoroutines(t)
				f.deleteWith(t, "order", policy)
				held := f.get(t, "order")
				finalizer := map[meta.DeletionPropagation]string{
					meta.DeletePropagationForeground: meta.FinalizerDeleteDependents,
					meta.DeletePropagationOrphan:     meta.FinalizerOrphanDependents}[policy]
				if held.DeletionTimestamp == nil || !cmp.Equal(held.Finalizers, []string{finalizer}) {
					t.Fatalf("right after the DELETE: deletionTimestamp %v, finalizers %q; want set and %q", held.DeletionTimestamp, held.Finalizers, finalizer)
				}
				time.Sleep(gc.Delay - time.Nanosecond)
				diffEvents(t, w, []string{"MODIFIED ns/order rv=3"})
				time.Sleep(time.Nanosecond)
				diffEvents(t, w, []string{"DELETED ns/order rv=4"})
				if diff := cmp.Diff(len(before), len(bubbleGoroutines(t))); diff != "" {
					t.Errorf("goroutines left after the collector's work (-before +after):\n%s", diff)
				}
			})
		})
	}
}
