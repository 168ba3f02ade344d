package cake_test

import (
	"testing"
	"testing/synctest"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	cake "github.com/kitchensync/kitchensync/examples/build/step3"
)

// Once Start returns, the cache holds every cake the server had, from
// one LIST; later cakes come through the WATCH, and nobody GETs.
func TestShopRemembersWithoutAsking(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		scheme := meta.NewScheme()
		if err := cake.Register(scheme); err != nil {
			t.Fatal(err)
		}
		srv := apiserver.NewServer(scheme, apiserver.Options{})
		cakes := client.New[*cake.Cake](srv).Namespace("shop")
		for _, name := range []string{"a", "b", "c"} {
			if _, err := cakes.Create(t.Context(), cake.NewCake("shop", name, "chocolate", ""), meta.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		shop := cake.NewShop(srv, nil)
		if !shop.Start(t.Context()) {
			t.Fatal("not synced")
		}
		if got, _ := shop.Cakes.Lister().List(nil); len(got) != 3 {
			t.Errorf("cached after Start: %d cakes, want 3", len(got))
		}
		if _, err := cakes.Create(t.Context(), cake.NewCake("shop", "d", "lemon", ""), meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if _, err := shop.Cakes.Lister().Namespace("shop").Get("d"); err != nil {
			t.Errorf("a cake made after Start: %v", err)
		}
		gr := meta.GroupResource{Group: "shop.example.com", Resource: "cakes"}
		if l, g := srv.RequestCount(apiserver.VerbList, gr), srv.RequestCount(apiserver.VerbGet, gr); l != 1 || g != 0 {
			t.Errorf("LISTs %d, GETs %d; want 1 and 0", l, g)
		}
	})
}
