package cake_test

import (
	"testing"
	"testing/synctest"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	cake "github.com/kitchensync/kitchensync/examples/build/step4"
)

// The oven follows each cake: its flavor, a change of flavor, its end.
func TestBakerFollowsTheCake(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		scheme := meta.NewScheme()
		if err := cake.Register(scheme); err != nil {
			t.Fatal(err)
		}
		srv := apiserver.NewServer(scheme, apiserver.Options{})
		oven := &cake.Oven{}
		go cake.Run(t.Context(), srv, oven, nil)
		cakes := client.New[*cake.Cake](srv).Namespace("shop")
		c, err := cakes.Create(t.Context(), cake.NewCake("shop", "birthday", "chocolate", ""), meta.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if got, _ := oven.Load("shop/birthday"); got != "chocolate" {
			t.Errorf("oven after the order: %v, want chocolate", got)
		}
		c.Spec.Flavor = "lemon"
		if _, err := cakes.Update(t.Context(), c, meta.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if got, _ := oven.Load("shop/birthday"); got != "lemon" {
			t.Errorf("oven after the change: %v, want lemon", got)
		}
		if err := cakes.Delete(t.Context(), "birthday", meta.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if got, ok := oven.Load("shop/birthday"); ok {
			t.Errorf("oven after the delete: %v, want nothing", got)
		}
	})
}
