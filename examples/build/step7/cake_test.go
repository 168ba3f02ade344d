package cake_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	cake "github.com/kitchensync/kitchensync/examples/build/step7"
)

func newServer(t *testing.T) *apiserver.Server {
	t.Helper()
	scheme := meta.NewScheme()
	if err := cake.Register(scheme); err != nil {
		t.Fatal(err)
	}
	return apiserver.NewServer(scheme, apiserver.Options{})
}

// A cake deleted while the baker is away still frees its oven: the
// finalizer holds the cake until the baker is back and has done it.
func TestOvenIsFreedAfterADeleteWhileAway(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newServer(t)
		oven := &cake.Oven{}
		ctx, away := context.WithCancel(t.Context())
		done := make(chan error)
		go func() { done <- cake.Run(ctx, srv, oven, nil) }()
		cakes := client.New[*cake.Cake](srv).Namespace("shop")
		if _, err := cakes.Create(t.Context(), cake.NewCake("shop", "birthday", "chocolate", ""), meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		away() // the baker goes home
		<-done
		if err := cakes.Delete(t.Context(), "birthday", meta.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		go cake.Run(t.Context(), srv, oven, nil) // and comes back
		synctest.Wait()
		if got, ok := oven.Load("shop/birthday"); ok {
			t.Errorf("the oven still bakes the deleted cake: %v", got)
		}
		if _, err := cakes.Get(t.Context(), "birthday", meta.GetOptions{}); !meta.IsNotFound(err) {
			t.Errorf("the cake after the baker came back: %v, want NotFound", err)
		}
	})
}
