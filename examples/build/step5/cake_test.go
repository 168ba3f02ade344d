package cake_test

import (
	"testing"
	"testing/synctest"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	cake "github.com/kitchensync/kitchensync/examples/build/step5"
)

func newServer(t *testing.T) *apiserver.Server {
	t.Helper()
	scheme := meta.NewScheme()
	if err := cake.Register(scheme); err != nil {
		t.Fatal(err)
	}
	return apiserver.NewServer(scheme, apiserver.Options{})
}

// The cake's box names the cake as its owner, so the API server's garbage
// collector deletes it with the cake.
func TestBoxGoesWithTheCake(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newServer(t)
		go cake.Run(t.Context(), srv, &cake.Oven{}, nil)
		cakes := client.New[*cake.Cake](srv).Namespace("shop")
		boxes := client.New[*cake.Box](srv).Namespace("shop")
		if _, err := cakes.Create(t.Context(), cake.NewCake("shop", "birthday", "chocolate", "happy birthday"), meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		box, err := boxes.Get(t.Context(), "birthday", meta.GetOptions{})
		if err != nil || box.Message != "happy birthday" {
			t.Fatalf("the box: %v, %v", box, err)
		}
		if err := cakes.Delete(t.Context(), "birthday", meta.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if _, err := boxes.Get(t.Context(), "birthday", meta.GetOptions{}); !meta.IsNotFound(err) {
			t.Errorf("the box after its cake was deleted: %v, want NotFound", err)
		}
	})
}
