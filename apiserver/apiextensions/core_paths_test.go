package apiextensions_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/apiextensions"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
)

// TestGarbageCollection: a custom object owned by another goes with it,
// through the server's garbage collector, as any kind's does.
func TestGarbageCollection(t *testing.T) {
	srv := newServer(t)
	rc := srv.Resource(tables).Namespace("default")
	owner, err := rc.Create(t.Context(), table(t, `{"apiVersion":"restaurant.example.com/v1","kind":"Table","metadata":{"name":"owner"},"spec":{"seats":2}}`), meta.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	child := table(t, `{"apiVersion":"restaurant.example.com/v1","kind":"Table","metadata":{"name":"child"},"spec":{"seats":2}}`)
	child.OwnerReferences = []meta.OwnerReference{meta.NewControllerRef(owner)}
	if _, err := rc.Create(t.Context(), child, meta.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := rc.Delete(t.Context(), "owner", meta.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := rc.Get(t.Context(), "child", meta.GetOptions{}); !meta.IsNotFound(err) {
		t.Errorf("the child after its owner went: %v", err)
	}
}

// TestInformer: an informer caches unstructured objects of a custom kind
// and sees a change made after it synced.
func TestInformer(t *testing.T) {
	srv := newServer(t)
	rc := srv.Resource(tables).Namespace("default")
	if _, err := rc.Create(t.Context(), table(t, `{"apiVersion":"restaurant.example.com/v1","kind":"Table","metadata":{"name":"t1"},"spec":{"seats":2}}`), meta.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	inf := informer.NewSharedIndexInformer(srv.Resource(tables), informer.Options[*meta.Unstructured]{})
	updated := make(chan *meta.Unstructured, 1)
	inf.AddEventHandler(informer.ResourceEventHandlerFuncs[*meta.Unstructured]{UpdateFunc: func(_, u *meta.Unstructured) { updated <- u }})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a deadline, not a timing assertion
	defer cancel()
	go inf.Run(ctx)
	if !informer.WaitForCacheSync(ctx, inf) {
		t.Fatal("not synced")
	}
	if _, err := rc.Patch(ctx, "t1", meta.MergePatchType, []byte(`{"spec":{"seats":5}}`), meta.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	u := <-updated
	if seats, _ := u.NestedField("spec", "seats"); seats != int64(5) || u.Generation != 2 {
		t.Errorf("cached: seats %v, generation %d", seats, u.Generation)
	}
}

// TestConcurrentDefinitions: definitions written at once from several
// goroutines are all established, one at a time, by whichever writer
// came first.
func TestConcurrentDefinitions(t *testing.T) {
	srv := newServer(t)
	var wg sync.WaitGroup
	for _, plural := range []string{"chairs", "benches", "stools", "sofas"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			crds, err := apiextensions.Decode([]byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
				"metadata":{"name":"` + plural + `.restaurant.example.com"},"spec":{"group":"restaurant.example.com","scope":"Namespaced",
				"names":{"plural":"` + plural + `","kind":"K` + plural + `"},"versions":[{"name":"v1","served":true,"storage":true,
				"schema":{"openAPIV3Schema":{"type":"object"}}}]}}`))
			if err == nil {
				_, err = apiextensions.Apply(context.Background(), srv, crds...)
			}
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	list, err := srv.Resource(apiextensions.Resource).List(t.Context(), meta.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, obj := range list.Items {
		if crd := obj.(*apiextensions.CustomResourceDefinition); !crd.IsTrue(apiextensions.Established) {
			t.Errorf("%s not established: %+v", crd.Name, crd.Status.Conditions)
		}
	}
	if len(list.Items) != 5 {
		t.Errorf("%d definitions, want 5", len(list.Items))
	}
}
