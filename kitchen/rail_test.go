package kitchen_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/reconcile"
)

func TestRailVIPFirstAndTokenBucket(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clock := kitchen.NewClock(time.Millisecond)
		vip := map[string]bool{"t3": true}
		rail := kitchen.NewTicketRail(clock, nil, kitchen.RailOptions{
			TicketsPerMinute: 2, Burst: 1,
			Priority: func(r reconcile.Request) int {
				if vip[r.Name] {
					return kitchen.VIPBonus
				}
				return 0
			}})
		defer rail.ShutDown()
		for _, n := range []string{"t1", "t2", "t3"} {
			rail.Add(reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "d", Name: n}})
		}
		// The bucket's decisions: t1 at once, t2 and t3 half a minute apart.
		var admitted []float64
		for _, n := range []string{"t1", "t2", "t3", "never-added"} {
			at, ok := rail.AdmittedAt(reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "d", Name: n}})
			if ok {
				admitted = append(admitted, clock.Kitchen(time.Until(at)).Minutes())
			}
		}
		if diff := cmp.Diff([]float64{0, 0.5, 1}, admitted); diff != "" {
			t.Errorf("AdmittedAt, in minutes from now (-want +got):\n%s", diff)
		}
		type take struct {
			Name     string
			Minute   float64
			Priority int
		}
		time.Sleep(clock.Real(2 * time.Minute)) // the chef is busy for two minutes
		synctest.Wait()
		var got []take
		for range 3 {
			req, p, _ := rail.GetWithPriority()
			got = append(got, take{req.Name, clock.Now().Minutes(), p})
			rail.Done(req)
		}
		// t1 took the only token at once; t2 and t3 waited for theirs (at
		// 0.5 and 1 minute). When the chef comes back all three are ready:
		// the VIP first, then first come first served.
		want := []take{{"t3", 2, 100}, {"t1", 2, 0}, {"t2", 2, 0}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("takes (-want +got):\n%s", diff)
		}
	})
}

// A second event for an order whose ticket waits for the token bucket (an
// amendment, a resync) does not let it jump the bucket.
func TestRailSecondEventKeepsTheTokenWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clock := kitchen.NewClock(time.Millisecond)
		rail := kitchen.NewTicketRail(clock, nil, kitchen.RailOptions{TicketsPerMinute: 1, Burst: 1})
		defer rail.ShutDown()
		a := reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "d", Name: "a"}}
		b := reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "d", Name: "b"}}
		rail.Add(a) // takes the only token
		rail.Add(b) // waits a kitchen minute for the next
		rail.Add(b) // the customer amends the order meanwhile
		if got := rail.Len(); got != 1 {
			t.Fatalf("Len = %d after the second event for b, want 1: b must still wait for its token", got)
		}
		time.Sleep(clock.Real(time.Minute))
		synctest.Wait()
		if got := rail.Len(); got != 2 {
			t.Errorf("Len = %d once b's token is due, want 2", got)
		}
	})
}

// A rail told which orders are gone forgets each once a worker is done
// with its last ticket: it stops knowing it (Known, AdmittedAt), and a
// later ticket of the same name is new again and takes a token. An order
// still open is remembered, however many tickets it has.
func TestRailForgetsGoneOrders(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clock := kitchen.NewClock(time.Millisecond)
		gone := map[string]bool{}
		rail := kitchen.NewTicketRail(clock, nil, kitchen.RailOptions{TicketsPerMinute: 1, Burst: 1,
			Gone: func(req reconcile.Request) bool { return gone[req.Name] }})
		defer rail.ShutDown()
		a := reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "d", Name: "a"}}
		work := func() {
			t.Helper()
			req, shutdown := rail.Get()
			if shutdown || req != a {
				t.Fatalf("Get = %v, %v; want %v", req, shutdown, a)
			}
			rail.Done(req)
		}
		check := func(step string, known int, admitted bool) {
			t.Helper()
			_, ok := rail.AdmittedAt(a)
			if got := rail.Known(); got != known || ok != admitted {
				t.Errorf("%s: Known = %d, AdmittedAt ok = %v; want %d, %v", step, got, ok, known, admitted)
			}
		}
		rail.Add(a) // takes the only token
		work()
		check("worked, still open", 1, true)
		rail.Add(a) // an update: a known ticket takes no token
		if rail.Len() != 1 {
			t.Fatal("an update of a known order waited for a token")
		}
		gone["a"] = true
		work()
		check("worked, gone", 0, false)
		rail.Add(a) // an order of the same name, placed again: new
		if rail.Len() != 0 {
			t.Fatal("a new order of a forgotten name jumped the token bucket")
		}
		check("new again", 1, true)
	})
}

// The token bucket can be set while the rail runs (a rush hour begins),
// and lifted again; Bucket says what it is.
func TestRailSetTicketsPerMinute(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clock := kitchen.NewClock(time.Millisecond)
		rail := kitchen.NewTicketRail(clock, nil, kitchen.RailOptions{})
		defer rail.ShutDown()
		req := func(name string) reconcile.Request {
			return reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "d", Name: name}}
		}
		if got := rail.Bucket(); got != "no limit" {
			t.Errorf("Bucket() = %q, want no limit", got)
		}
		rail.SetTicketsPerMinute(1, 2)
		if got, want := rail.Bucket(), "1 tickets a kitchen minute, bursts of 2"; got != want {
			t.Errorf("Bucket() = %q, want %q", got, want)
		}
		for _, name := range []string{"a", "b", "c"} {
			rail.Add(req(name))
		}
		if got := rail.Len(); got != 2 {
			t.Errorf("Len = %d, want 2: a burst of two, the third waits for its token", got)
		}
		time.Sleep(clock.Real(time.Minute))
		synctest.Wait()
		if got := rail.Len(); got != 3 {
			t.Errorf("Len = %d a kitchen minute later, want 3", got)
		}
		rail.SetTicketsPerMinute(0, 0)
		for _, name := range []string{"d", "e", "f", "g"} {
			rail.Add(req(name))
		}
		if got := rail.Len(); got != 7 {
			t.Errorf("Len = %d with the limit lifted, want 7", got)
		}
	})
}
