package cake_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	cake "github.com/kitchensync/kitchensync/examples/build/step8"
)

// The baker converges however the front desk misbehaves: its watches cut,
// writes refused (429), a write that loses a race (409). synctest runs it
// in virtual time: every backoff passes at once, and synctest.Wait says
// when nothing is left to do.
func TestConvergesUnderFaults(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		scheme := meta.NewScheme()
		if err := cake.Register(scheme); err != nil {
			t.Fatal(err)
		}
		srv := apiserver.NewServer(scheme, apiserver.Options{})
		oven := &cake.Oven{}
		go cake.Run(t.Context(), srv, oven, nil)
		cakes := client.New[*cake.Cake](srv).Namespace("shop")
		for _, name := range []string{"birthday", "wedding", "tuesday"} {
			if _, err := cakes.Create(t.Context(), cake.NewCake("shop", name, "chocolate", "for "+name), meta.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		synctest.Wait() // every cake is done

		srv.CloseWatches()                                                                       // the baker's watches are cut,
		srv.FailNext(apiserver.VerbCreate, 2, meta.NewTooManyRequests("the desk is swamped", 1)) // its next two creates refused,
		srv.FailNext(apiserver.VerbUpdate, 1, meta.NewConflict(cakesResource, "wedding", nil))   // its next update loses a race.
		if err := client.New[*cake.Box](srv).Namespace("shop").Delete(t.Context(), "birthday", meta.DeleteOptions{}); err != nil {
			t.Fatal(err) // someone throws birthday's box away
		}
		lemon := []byte(`{"spec":{"flavor":"lemon"}}`)
		if _, err := cakes.Patch(t.Context(), "wedding", meta.MergePatchType, lemon, meta.PatchOptions{}); err != nil {
			t.Fatal(err) // wedding is now a lemon cake
		}
		if err := cakes.Delete(t.Context(), "tuesday", meta.DeleteOptions{}); err != nil {
			t.Fatal(err) // tuesday is cancelled
		}
		time.Sleep(time.Minute) // every backoff is over (virtual time)
		synctest.Wait()
		if err := cake.Converged(t.Context(), srv, oven); err != nil {
			t.Error(err)
		}
	})
}

var cakesResource = meta.GroupResource{Group: "shop.example.com", Resource: "cakes"}
