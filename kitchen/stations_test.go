package kitchen_test

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/reconcile"
)

func TestStationsFirstComeFirstServed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clock := kitchen.NewClock(time.Millisecond)
		p := newPantry(t, map[string]kitchen.Quantity{"flour": "1kg"})
		s := kitchen.NewStations(clock, p, map[string]int{"pastry": 1})
		defer s.Close()
		var mu sync.Mutex
		var notified []string
		s.Notify(func(key string) { mu.Lock(); notified = append(notified, key); mu.Unlock() })
		for _, key := range []string{"a", "b", "c"} {
			if err := p.Reserve(0, key, map[string]kitchen.Amount{"flour": grams(100)}); err != nil {
				t.Fatal(err)
			}
		}
		phases := func() []kitchen.CookPhase {
			var out []kitchen.CookPhase
			for _, k := range []string{"a", "b", "c"} {
				ph, _ := s.Phase(k)
				out = append(out, ph)
			}
			return out
		}
		for _, k := range []string{"a", "b", "c"} {
			if _, err := s.Start(k, "pastry", 30*time.Minute); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.Start("d", "sauna", time.Minute); err == nil {
			t.Error("a station that does not exist was accepted")
		}
		want := []kitchen.CookPhase{kitchen.CookCooking, kitchen.CookWaiting, kitchen.CookWaiting}
		if diff := cmp.Diff(want, phases()); diff != "" {
			t.Fatalf("phases at the start (-want +got):\n%s", diff)
		}
		if got := s.Stop("b"); got != kitchen.CookWaiting { // b gives up its place in line
			t.Errorf("Stop(b) = %s", got)
		}
		time.Sleep(clock.Real(30 * time.Minute))
		synctest.Wait()
		want = []kitchen.CookPhase{kitchen.CookDone, kitchen.CookStopped, kitchen.CookCooking}
		if diff := cmp.Diff(want, phases()); diff != "" {
			t.Errorf("phases after 30 min (-want +got):\n%s", diff)
		}
		if at, ok := s.FinishedAt("a"); !ok || at != 30*time.Minute {
			t.Errorf("a finished at %v, %v", at, ok)
		}
		if diff := cmp.Diff([]string{"a", "c"}, notified); diff != "" {
			t.Errorf("notified (-want +got):\n%s", diff)
		}
		if ph, _ := s.Start("b", "pastry", time.Minute); ph != kitchen.CookStopped {
			t.Errorf("a stopped cook restarted: %s", ph)
		}
		s.Stop("c") // half-baked: wasted
		l := p.Ledgers(clock.Now())["flour"]
		if l.Used != 100 || l.Wasted != 100 || l.Shelf != 800 || l.Reserved != 0 {
			t.Errorf("flour: a used, b returned, c wasted; got %+v", l)
		}
		checkPantry(t, p)
	})
}

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
