package kitchen_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/reconcile"
)

func TestChefCooksAndServes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, kitchen.DefaultPantry())
		if _, err := b.waiter.Place(b.ctx, newOrder("t7", 7, item("beef-wellington"), item("caesar-salad"))); err != nil {
			t.Fatal(err)
		}
		b.settle()
		o := b.order("t7")
		if o.Status.Phase != kitchen.OrderCooking || o.Finalizers[0] != kitchen.OrderFinalizer {
			t.Fatalf("after the first round: phase %s, finalizers %v", o.Status.Phase, o.Finalizers)
		}
		want := []string{"t7-0-g1=Cooking", "t7-1-g1=Cooking"}
		if diff := cmp.Diff(want, b.cookNames()); diff != "" {
			t.Errorf("cooks (-want +got):\n%s", diff)
		}
		b.wait(5 * time.Minute) // the salad is done, the Wellington is not
		if got := b.order("t7").Status.Items; got[1].Phase != kitchen.CookDone || got[0].Phase != kitchen.CookCooking {
			t.Errorf("item progress after 5 min: %+v", got)
		}
		b.wait(35 * time.Minute)
		if o := b.order("t7"); o.Status.Phase != kitchen.OrderReady {
			t.Fatalf("after 40 min: %s", o.Status.Phase)
		}
		if res := b.results[ns+"/t7"]; res.RequeueAfter != b.clock.Real(kitchen.PlatingTime) {
			t.Errorf("Ready should requeue after the plating time, got %+v", res)
		}
		b.wait(kitchen.PlatingTime)
		o = b.order("t7")
		if o.Status.Phase != kitchen.OrderServed || len(o.Finalizers) != 0 || len(b.cookNames()) != 0 {
			t.Fatalf("served? phase %s, finalizers %v, cooks %v", o.Status.Phase, o.Finalizers, b.cookNames())
		}
		if l := b.pantry.Ledgers(b.clock.Now())["filet-mignon"]; l.Used != 500 || l.Reserved != 0 {
			t.Errorf("filet ledger %+v", l)
		}
	})
}

func TestChefIsIdempotent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, kitchen.DefaultPantry())
		if _, err := b.waiter.Place(b.ctx, newOrder("t1", 1, item("seafood-pasta", "chili"))); err != nil {
			t.Fatal(err)
		}
		b.settle()
		rv, ledgers := b.srv.ResourceVersion(), b.pantry.Ledgers(b.clock.Now())
		for range 2 { // reconciling again, twice, changes nothing
			b.reconcile(b.chef, ns+"/t1")
		}
		if got := b.srv.ResourceVersion(); got != rv {
			t.Errorf("a repeated reconcile wrote to the API server: rv %s → %s", rv, got)
		}
		if diff := cmp.Diff(ledgers, b.pantry.Ledgers(b.clock.Now())); diff != "" {
			t.Errorf("a repeated reconcile moved ingredients:\n%s", diff)
		}
	})
}

func TestChefAddsTruffleWithoutRestarting(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, kitchen.DefaultPantry())
		if _, err := b.waiter.Place(b.ctx, newOrder("t3", 3, item("seafood-pasta"), item("tomato-soup"))); err != nil {
			t.Fatal(err)
		}
		b.settle()
		b.wait(5 * time.Minute)
		if _, err := b.waiter.AddExtra(b.ctx, "t3", 0, "black-truffle"); err != nil {
			t.Fatal(err)
		}
		b.settle()
		want := []string{"t3-0-g1=Cooking", "t3-1-g1=Cooking"} // same cooks, still cooking
		if diff := cmp.Diff(want, b.cookNames()); diff != "" {
			t.Errorf("cooks after the amendment (-want +got):\n%s", diff)
		}
		if got := b.pantry.Held(ns + "/t3-0-g1")["black-truffle"]; got.Value != 10 {
			t.Errorf("truffle held by the pasta's cook: %v", got)
		}
		if o := b.order("t3"); o.Status.ObservedGeneration != 2 {
			t.Errorf("observedGeneration %d, want 2", o.Status.ObservedGeneration)
		}
		b.wait(10 * time.Minute) // pasta: 15 min from the start, not from the amendment
		if got := b.order("t3").Status.Items[0].Phase; got != kitchen.CookDone {
			t.Errorf("the pasta restarted: phase %s at minute 15", got)
		}
		b.wait(10 * time.Minute)
		if o := b.order("t3"); o.Status.Phase != kitchen.OrderServed {
			t.Fatalf("phase %s", o.Status.Phase)
		}
		if l := b.pantry.Ledgers(b.clock.Now())["black-truffle"]; l.Used != 10 {
			t.Errorf("truffle ledger %+v", l)
		}
	})
}

func TestChefChangedDishRestartsOnlyThatItem(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, kitchen.DefaultPantry())
		if _, err := b.waiter.Place(b.ctx, newOrder("t4", 4, item("tomato-soup"), item("grilled-salmon"))); err != nil {
			t.Fatal(err)
		}
		b.settle()
		b.wait(2 * time.Minute)
		if _, err := b.waiter.Amend(b.ctx, "t4", "swaps the soup for pasta", func(o *kitchen.Order) {
			o.Spec.Items[0].Dish = "seafood-pasta"
		}); err != nil {
			t.Fatal(err)
		}
		b.settle()
		want := []string{"t4-0-g2=Cooking", "t4-1-g1=Cooking"}
		if diff := cmp.Diff(want, b.cookNames()); diff != "" {
			t.Errorf("cooks (-want +got):\n%s", diff)
		}
		if l := b.pantry.Ledgers(b.clock.Now())["tomato"]; l.Wasted != 400 {
			t.Errorf("the half-cooked soup's tomatoes: %+v", l)
		}
	})
}

func TestChefCancellationReturnsUnusedIngredients(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, kitchen.DefaultPantry())
		// Three cakes for one pastry place: the second and third wait.
		for i, name := range []string{"t5", "t6", "t8"} {
			if _, err := b.waiter.Place(b.ctx, newOrder(name, 5+i, item("chocolate-cake"))); err != nil {
				t.Fatal(err)
			}
		}
		b.settle()
		b.wait(10 * time.Minute)
		for _, name := range []string{"t6", "t5"} { // the waiting one first
			if err := b.waiter.Cancel(b.ctx, name); err != nil {
				t.Fatal(err)
			}
			b.settle()
		}
		if b.order("t5") != nil || b.order("t6") != nil {
			t.Fatal("cancelled orders are still there")
		}
		want := []string{"t8-0-g1=Cooking"} // moved up to the free place
		if diff := cmp.Diff(want, b.cookNames()); diff != "" {
			t.Errorf("cooks (-want +got):\n%s", diff)
		}
		l := b.pantry.Ledgers(b.clock.Now())["chocolate"]
		if l.Wasted != 200 || l.Reserved != 200 || l.Shelf != 4000-400 {
			t.Errorf("chocolate: t5's cake was in the oven (wasted), t6's never started (returned): %+v", l)
		}
	})
}

func TestChefRejectsWhatIsNotOnTheMenu(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, kitchen.DefaultPantry())
		sauna := &kitchen.Dish{Spec: kitchen.DishSpec{Ingredients: map[string]kitchen.Quantity{"flour": "100g"},
			CookingTime: kitchen.Minutes(10), Difficulty: 2, Station: "sauna"}}
		sauna.Name = "sauna-bread"
		if _, err := client.New[*kitchen.Dish](b.srv).Create(b.ctx, sauna, meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		orders := map[string]*kitchen.Order{
			"lobster": newOrder("lobster", 1, item("lobster-thermidor")),
			"gold":    newOrder("gold", 2, item("tomato-soup", "gold-leaf")),
			"sauna":   newOrder("sauna", 3, item("sauna-bread")),
		}
		for _, o := range orders {
			if _, err := b.waiter.Place(b.ctx, o); err != nil {
				t.Fatal(err)
			}
		}
		b.settle()
		for name, reason := range map[string]string{"lobster": "DishNotOnMenu", "gold": "UnknownExtra", "sauna": "NoSuchStation"} {
			o := b.order(name)
			c := meta.FindStatusCondition(o.Status.Conditions, kitchen.ConditionAccepted)
			if o.Status.Phase != kitchen.OrderRejected || c == nil || c.Status != meta.ConditionFalse || c.Reason != reason {
				t.Errorf("%s: phase %s, condition %+v", name, o.Status.Phase, c)
			}
			if len(o.Finalizers) != 0 {
				t.Errorf("%s keeps finalizers %v", name, o.Finalizers)
			}
		}
		if len(b.pantry.Holders()) != 0 {
			t.Errorf("a rejected order holds ingredients: %v", b.pantry.Holders())
		}
	})
}

func TestChefWaitsForDeliveriesAndExpiredStock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		stock := kitchen.DefaultPantry()
		stock["salmon"], stock["cream"] = "0g", "1l"
		b := newBench(t, stock)
		if err := b.pantry.Schedule(kitchen.Delivery{At: 30 * time.Minute, Ingredient: "salmon", Amount: "2kg"}); err != nil {
			t.Fatal(err)
		}
		if err := b.pantry.Schedule(kitchen.Delivery{At: 3 * time.Minute, Ingredient: "cream", Amount: "1l"}); err != nil {
			t.Fatal(err)
		}
		b.pantry.ExpireAt("cream", 0)
		for _, o := range []*kitchen.Order{newOrder("fish", 1, item("grilled-salmon")), newOrder("soup", 2, item("tomato-soup"))} {
			if _, err := b.waiter.Place(b.ctx, o); err != nil {
				t.Fatal(err)
			}
		}
		b.settle()
		checks := map[string]struct {
			reason string
			wait   time.Duration
		}{"fish": {"WaitingForDelivery", 30 * time.Minute}, "soup": {"IngredientsExpired", kitchen.ExpiredWait}}
		for name, want := range checks {
			c := meta.FindStatusCondition(b.order(name).Status.Conditions, kitchen.ConditionStocked)
			if c == nil || c.Reason != want.reason || b.results[ns+"/"+name].RequeueAfter != b.clock.Real(want.wait) {
				t.Errorf("%s: condition %+v, result %+v; want %s, RequeueAfter %v", name, c, b.results[ns+"/"+name], want.reason, want.wait)
			}
		}
		b.wait(5 * time.Minute) // fresh cream came at minute 3
		if o := b.order("soup"); o.Status.Phase != kitchen.OrderCooking {
			t.Errorf("soup after the cream delivery: %s", o.Status.Phase)
		}
		b.wait(25 * time.Minute)
		if o := b.order("fish"); o.Status.Phase != kitchen.OrderCooking {
			t.Errorf("fish after the salmon delivery: %s", o.Status.Phase)
		}
	})
}

func TestChefRejectsWhenNoDeliveryIsDue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		stock := kitchen.DefaultPantry()
		stock["black-truffle"] = "5g"
		b := newBench(t, stock)
		if _, err := b.waiter.Place(b.ctx, newOrder("t9", 9, item("caesar-salad"), item("seafood-pasta", "black-truffle"))); err != nil {
			t.Fatal(err)
		}
		b.settle()
		o := b.order("t9")
		c := meta.FindStatusCondition(o.Status.Conditions, kitchen.ConditionAccepted)
		if o.Status.Phase != kitchen.OrderRejected || c.Reason != "OutOfStock" {
			t.Fatalf("phase %s, condition %+v", o.Status.Phase, c)
		}
		if len(b.cookNames()) != 0 || len(b.pantry.Holders()) != 0 {
			t.Errorf("the salad's cook or its reservation survived: %v %v", b.cookNames(), b.pantry.Holders())
		}
	})
}

// A cancelled order's Cook objects are the garbage collector's to delete:
// the chef stops them (the ingredients are settled), says Cancelled and
// removes its finalizer; the order goes, and its cooks with it, without
// the chef sending a single delete for a cook.
func TestChefLeavesCancelledCooksToTheGarbageCollector(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, kitchen.DefaultPantry())
		if _, err := b.waiter.Place(b.ctx, newOrder("t3", 3, item("beef-wellington"), item("caesar-salad"))); err != nil {
			t.Fatal(err)
		}
		b.settle()
		b.wait(10 * time.Minute) // the salad is done, the Wellington is in the oven
		want := []string{"t3-0-g1=Cooking", "t3-1-g1=Done"}
		if diff := cmp.Diff(want, b.cookNames()); diff != "" {
			t.Fatalf("cooks before the cancellation (-want +got):\n%s", diff)
		}
		if err := b.waiter.Cancel(b.ctx, "t3"); err != nil {
			t.Fatal(err)
		}
		b.sync()
		b.reconcile(b.chef, ns+"/t3") // one reconcile: stop, Cancelled, finalizer off
		if b.order("t3") != nil {
			t.Fatal("the cancelled order is still there")
		}
		if got := b.cookNames(); len(got) != 0 {
			t.Errorf("cooks left after their order went: %v", got)
		}
		if n := b.srv.RequestCount(apiserver.VerbDelete, kitchen.CookResource.GroupResource()); n != 0 {
			t.Errorf("the chef deleted %d cooks itself; the garbage collector should have", n)
		}
		b.settle() // the brigade and the chef hear of the deletes: nothing more happens
		l := b.pantry.Ledgers(b.clock.Now())
		if w, u := l["filet-mignon"], l["lettuce"]; w.Wasted != 500 || w.Reserved != 0 || u.Used != 200 || u.Reserved != 0 {
			t.Errorf("the Wellington was in the oven (wasted), the salad done (used): filet-mignon %+v, lettuce %+v", w, u)
		}
		if !strings.Contains(b.log.String(), "stops cook t3-0-g1 (the table cancelled; it was cooking: ingredients wasted)") {
			t.Errorf("the chef did not say it stopped the Wellington:\n%s", b.log.String())
		}
	})
}

// The amendment's reconcile runs before the runner has brought the news
// of the first cook: the chef must not send a second one.
func TestChefDoesNotDuplicateACookItsCacheHasNotSeen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, kitchen.DefaultPantry())
		if _, err := b.waiter.Place(b.ctx, newOrder("t7", 7, item("seafood-pasta"))); err != nil {
			t.Fatal(err)
		}
		b.sync()
		b.reconcile(b.chef, ns+"/t7") // creates cook t7-0-g1
		if _, err := b.waiter.AddExtra(b.ctx, "t7", 0, "black-truffle"); err != nil {
			t.Fatal(err)
		}
		replace(t, b.srv, kitchen.OrderResource, b.orders) // the cooks' cache stays behind
		b.reconcile(b.chef, ns+"/t7")
		if diff := cmp.Diff([]string{"t7-0-g1="}, b.cookNames()); diff != "" {
			t.Errorf("cooks (-want +got):\n%s", diff)
		}
		if got := b.pantry.Held(ns + "/t7-0-g1")["black-truffle"]; got.Value != 10 {
			t.Errorf("truffle held by the first cook: %v", got)
		}
		if l := b.pantry.Ledgers(b.clock.Now())["spaghetti"]; l.Reserved != 200 {
			t.Errorf("spaghetti reserved %d, want 200 (one cook)", l.Reserved)
		}
	})
}

// The same amendment with Freshness, as the restaurant wires the chef: the
// chef records the cook it created, so its controller holds the next
// ticket back until the cooks' cache has that cook, and the chef, trusting
// its cache then, never asks the API server for the cooks.
func TestChefWithFreshnessWaitsForItsOwnWrites(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, kitchen.DefaultPantry())
		fresh := reconcile.NewFreshness()
		fresh.Track(kitchen.OrderResource.GroupResource(), b.orders)
		fresh.Track(kitchen.CookResource.GroupResource(), b.cooks)
		b.chef.Freshness = fresh
		lists := &listCounter{Interface: b.srv}
		b.chef.CookAPI = client.New[*kitchen.Cook](lists)
		t7 := reconcile.NamespacedName{Namespace: ns, Name: "t7"}
		if _, err := b.waiter.Place(b.ctx, newOrder("t7", 7, item("seafood-pasta"))); err != nil {
			t.Fatal(err)
		}
		b.sync()
		if !fresh.EnsureReady(t7) {
			t.Fatal("not ready before the chef wrote anything")
		}
		b.reconcile(b.chef, ns+"/t7") // finalizer, cook t7-0-g1, status
		if _, err := b.waiter.AddExtra(b.ctx, "t7", 0, "black-truffle"); err != nil {
			t.Fatal(err)
		}
		replace(t, b.srv, kitchen.OrderResource, b.orders) // the cooks' cache stays behind
		if fresh.EnsureReady(t7) {
			t.Error("ready while the cooks' cache has not seen the chef's cook")
		}
		b.sync()
		if !fresh.EnsureReady(t7) {
			t.Error("not ready once the caches have caught up")
		}
		b.settle()
		if diff := cmp.Diff([]string{"t7-0-g1=Cooking"}, b.cookNames()); diff != "" {
			t.Errorf("cooks (-want +got):\n%s", diff)
		}
		if lists.n.Load() != 0 {
			t.Errorf("the chef listed cooks on the server %d times, want none", lists.n.Load())
		}
	})
}

// listCounter is an API that counts the lists made through it.
type listCounter struct {
	client.Interface
	n atomic.Int64
}

func (l *listCounter) ResourceFor(gvr meta.GroupVersionResource, ns string) client.ResourceInterface {
	return countedLists{l.Interface.ResourceFor(gvr, ns), &l.n}
}

type countedLists struct {
	client.ResourceInterface
	n *atomic.Int64
}

func (c countedLists) List(ctx context.Context, opts meta.ListOptions) (*meta.List, error) {
	c.n.Add(1)
	return c.ResourceInterface.List(ctx, opts)
}
