package kitchen_test

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/kitchen"
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
