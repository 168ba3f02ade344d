package cake_test

import (
	"testing"
	"testing/synctest"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	cake "github.com/kitchensync/kitchensync/examples/build/step6"
)

func newServer(t *testing.T) *apiserver.Server {
	t.Helper()
	scheme := meta.NewScheme()
	if err := cake.Register(scheme); err != nil {
		t.Fatal(err)
	}
	return apiserver.NewServer(scheme, apiserver.Options{})
}

// The status says which generation the baker has seen, and is written
// through the status subresource, which does not move the generation.
func TestStatusFollowsTheGeneration(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newServer(t)
		go cake.Run(t.Context(), srv, &cake.Oven{}, nil)
		cakes := client.New[*cake.Cake](srv).Namespace("shop")
		if _, err := cakes.Create(t.Context(), cake.NewCake("shop", "birthday", "chocolate", ""), meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		c, err := cakes.Get(t.Context(), "birthday", meta.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if c.Generation != 1 || c.Status.ObservedGeneration != 1 || !meta.IsStatusConditionTrue(c.Status.Conditions, "Ready") {
			t.Fatalf("after the order: generation %d, status %+v", c.Generation, c.Status)
		}
		c.Spec.Flavor = "lemon"
		if _, err := cakes.Update(t.Context(), c, meta.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if c, err = cakes.Get(t.Context(), "birthday", meta.GetOptions{}); err != nil {
			t.Fatal(err)
		}
		if c.Generation != 2 || c.Status.ObservedGeneration != 2 {
			t.Errorf("after the change: generation %d, observedGeneration %d; want 2 and 2", c.Generation, c.Status.ObservedGeneration)
		}
	})
}
