package kitchen_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
)

// After a failover the new chef's stations start empty: two cooks that
// were both Cooking at the one-place pastry station are queued again, one
// of them Waiting. Its phase in the API does not go back from Cooking (so
// its order does not go back to Pending); the brigade writes nothing for
// it until it is done.
func TestBrigadeKeepsCookingAfterFailover(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, nil)
		api := client.New[*kitchen.Cook](b.srv).Namespace(ns)
		for _, name := range []string{"cake-a", "cake-b"} {
			c := &kitchen.Cook{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: ns},
				Spec: kitchen.CookSpec{Order: "table-01", Dish: "chocolate-cake", Quantity: 1, Station: "pastry",
					CookingTime: kitchen.Duration{Duration: 30 * time.Minute}}}
			c, err := api.Create(b.ctx, c, meta.CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			c.Status = kitchen.CookStatus{Phase: kitchen.CookCooking, Message: "started by the chef that is gone"}
			if _, err := api.UpdateStatus(b.ctx, c, meta.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		b.sync()
		for _, key := range b.cooks.ListKeys() {
			b.reconcile(b.brigade, key)
		}
		var stations, stored []kitchen.CookPhase
		for _, name := range []string{"cake-a", "cake-b"} {
			ph, _ := b.stations.Phase(ns + "/" + name)
			stations = append(stations, ph)
			c, err := api.Get(b.ctx, name, meta.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			stored = append(stored, c.Status.Phase)
		}
		if diff := cmp.Diff([]kitchen.CookPhase{kitchen.CookCooking, kitchen.CookWaiting}, stations); diff != "" {
			t.Errorf("the new stations (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]kitchen.CookPhase{kitchen.CookCooking, kitchen.CookCooking}, stored); diff != "" {
			t.Errorf("the cooks' phases in the API (-want +got):\n%s", diff)
		}
	})
}
