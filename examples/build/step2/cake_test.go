package cake_test

import (
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	cake "github.com/kitchensync/kitchensync/examples/build/step2"
)

func newServer(t *testing.T) *apiserver.Server {
	t.Helper()
	scheme := meta.NewScheme()
	if err := cake.Register(scheme); err != nil {
		t.Fatal(err)
	}
	return apiserver.NewServer(scheme, apiserver.Options{})
}

// Every write makes a new resourceVersion; a change to the spec makes a
// new generation; a write from a stale copy is refused.
func TestResourceVersions(t *testing.T) {
	cakes := client.New[*cake.Cake](newServer(t)).Namespace("shop")
	c, err := cakes.Create(t.Context(), cake.NewCake("shop", "birthday", "chocolate", ""), meta.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	stale := c.DeepCopyObject().(*cake.Cake)
	c.Spec.Flavor = "lemon"
	next, err := cakes.Update(t.Context(), c, meta.UpdateOptions{})
	if err != nil || next.ResourceVersion == c.ResourceVersion || next.Generation != 2 {
		t.Fatalf("update: %v, rv %s → %s, generation %d", err, c.ResourceVersion, next.ResourceVersion, next.Generation)
	}
	if _, err := cakes.Update(t.Context(), stale, meta.UpdateOptions{}); !meta.IsConflict(err) {
		t.Errorf("an update from a stale copy: %v, want 409 Conflict", err)
	}
}

// The kind's schema refuses a cake without a flavor, naming the field.
func TestCakeWithoutFlavorIsRefused(t *testing.T) {
	cakes := client.New[*cake.Cake](newServer(t)).Namespace("shop")
	_, err := cakes.Create(t.Context(), cake.NewCake("shop", "plain", "", ""), meta.CreateOptions{})
	if !meta.IsInvalid(err) {
		t.Fatalf("create without a flavor: %v, want 422 Invalid", err)
	}
	if _, err := cakes.Get(t.Context(), "plain", meta.GetOptions{}); !meta.IsNotFound(err) {
		t.Errorf("the refused cake was stored: %v", err)
	}
}
