package cake_test

import (
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	cake "github.com/kitchensync/kitchensync/examples/build/step1"
)

// A copy shares nothing with the original: the server hands each caller
// its own copy, made with DeepCopyObject, so that no change to one is a
// change to another.
func TestDeepCopySharesNothing(t *testing.T) {
	c := &cake.Cake{ObjectMeta: meta.ObjectMeta{Name: "birthday", Labels: map[string]string{"size": "8"}},
		Spec: cake.CakeSpec{Flavor: "chocolate"}}
	cp := c.DeepCopyObject().(*cake.Cake)
	cp.Labels["size"], cp.Spec.Flavor = "10", "lemon"
	if c.Labels["size"] != "8" || c.Spec.Flavor != "chocolate" {
		t.Errorf("changing the copy changed the original: size %s, flavor %s", c.Labels["size"], c.Spec.Flavor)
	}
}

// The scheme maps the Go type to its kind and resource.
func TestRegister(t *testing.T) {
	scheme := meta.NewScheme()
	if err := cake.Register(scheme); err != nil {
		t.Fatal(err)
	}
	info, err := scheme.KindFor(&cake.Cake{})
	if err != nil {
		t.Fatal(err)
	}
	if got := info.GroupVersionResource().String(); got != "shop.example.com/v1, Resource=cakes" {
		t.Errorf("resource %s", got)
	}
}
