package bakery_test

import (
	"errors"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/examples/cakeshop/bakery"
	"github.com/kitchensync/kitchensync/reconcile"
)

// newTestShop wires a shop on a new server, with its own journal.
func newTestShop(t *testing.T) (*bakery.Shop, *apiserver.Server, *bakery.Journal) {
	t.Helper()
	srv, j := bakery.NewServer(), bakery.NewJournal(nil)
	shop, err := bakery.NewShop(bakery.ShopOptions{Server: srv, Clock: bakery.NewClock(0), Journal: j, Brief: true})
	if err != nil {
		t.Fatal(err)
	}
	return shop, srv, j
}

// Start returns once the controller's handler has seen the initial list:
// an order already stored comes from the list, and one placed right after
// Start returns is a new event — never read from the list — whichever
// goroutine the scheduler runs first. Tried a few times to give it the
// chance to go wrong.
func TestStartReturnsOnceTheControllerSawTheList(t *testing.T) {
	for range 10 {
		synctest.Test(t, func(t *testing.T) {
			ctx := t.Context()
			shop, srv, j := newTestShop(t)
			desk := bakery.OrderDesk{Client: client.New[*bakery.Cake](srv)}
			place := func(name string) {
				t.Helper()
				c := &bakery.Cake{ObjectMeta: meta.ObjectMeta{Namespace: "haidian", Name: name},
					Spec: bakery.CakeSpec{Flavor: "vanilla", Size: 6}}
				if _, err := desk.Place(ctx, c); err != nil {
					t.Fatal(err)
				}
			}
			place("early")
			stop := shop.Start(ctx)
			place("late")
			err := j.Await(ctx, 2, bakery.IsEvent("completed"))
			if err = errors.Join(err, stop()); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, en := range j.Entries() {
				if en.Who == "front-desk" {
					got = append(got, en.Key+":"+en.Event)
				}
			}
			want := []string{"haidian/early:listed", "haidian/late:noticed"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("front desk (-want +got):\n%s", diff)
			}
		})
	}
}

// A shop that cannot list its orders never opens: Start returns when the
// controller gives up waiting for its cache, and stop reports why.
func TestStartReturnsWhenTheShopCannotOpen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		shop, srv, _ := newTestShop(t)
		srv.FailNext(apiserver.VerbList, 1_000_000, meta.NewInternalError(errors.New("etcd is down")))
		stop := shop.Start(t.Context()) // returns after CacheSyncTimeout, in virtual time
		var syncErr *reconcile.CacheSyncError
		if err := stop(); !errors.As(err, &syncErr) {
			t.Errorf("stop() = %v, want a *reconcile.CacheSyncError", err)
		}
		if err := stop(); !errors.As(err, &syncErr) {
			t.Errorf("second stop() = %v, want the same error", err)
		}
	})
}

// A cake's sponge is baked as a Bake object the cake controls, which the
// oven moves from "" (put in) to Baking to Done, each a status write; the
// cake's reconciles meanwhile only requeue — none of them fails, and none
// waits for the oven.
func TestTheSpongeIsAnOwnedBakeThatProgresses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := t.Context()
		shop, srv, j := newTestShop(t)
		w, err := client.New[*bakery.Bake](srv).Watch(ctx, meta.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		stop := shop.Start(ctx)
		c := &bakery.Cake{ObjectMeta: meta.ObjectMeta{Namespace: "haidian", Name: "plain"}, Spec: bakery.CakeSpec{Flavor: "vanilla", Size: 6}}
		placed, err := bakery.OrderDesk{Client: client.New[*bakery.Cake](srv)}.Place(ctx, c)
		if err == nil {
			err = j.Await(ctx, 1, bakery.IsEvent("completed"))
		}
		if err = errors.Join(err, stop()); err != nil {
			t.Fatal(err)
		}
		var phases []string
		for {
			synctest.Wait() // the watch has sent what it has
			var ev meta.Event
			select {
			case ev = <-w.ResultChan():
			default:
			}
			if ev.Object == nil {
				break
			}
			b := ev.Object.(*bakery.Bake)
			ref := meta.GetControllerOf(b)
			if ref == nil || ref.Kind != "Cake" || ref.UID != placed.UID {
				t.Errorf("Bake %s is controlled by %+v, want the cake", b.Name, ref)
			}
			phases = append(phases, fmt.Sprintf("%s %s %q", ev.Type, b.Name, b.Status.Phase))
		}
		want := []string{`ADDED plain-g1-sponge-1 ""`, `MODIFIED plain-g1-sponge-1 "Baking"`, `MODIFIED plain-g1-sponge-1 "Done"`}
		if diff := cmp.Diff(want, phases); diff != "" {
			t.Errorf("the Bake's life (-want +got):\n%s", diff)
		}
		m := shop.Controller.Metrics()
		if m.ReconcileErrors != 0 || m.ReconcileTotal.RequeueAfter < 4 {
			t.Errorf("cake reconciles: %d errors, %d RequeueAfter; want none, and one per timed step", m.ReconcileErrors, m.ReconcileTotal.RequeueAfter)
		}
	})
}
