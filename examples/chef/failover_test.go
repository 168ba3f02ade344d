package main

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
)

// leaseDuration is the chefs' -lease-duration in startChef.
const leaseDuration = 3 * time.Second

// TestFailover: a front desk and two chef processes; the one that leads
// is killed (SIGKILL, by its pid) in the middle of the service, while
// orders are cooking. Everything is then checked from the API's own
// history, not from timings: the other chef took the Lease over no sooner
// than the lease duration after the dead one's last renewal (so they
// never led at once) and within a generous bound after it; every order,
// placed before or after the kill, was served; no order's phase went
// backwards; and no item was given to a second cook, so nothing was
// cooked twice.
func TestFailover(t *testing.T) {
	d := openDesk(t)
	h := watchHistory(t, d.Server, kitchen.OrderResource, kitchen.CookResource, builtin.LeasesResource)
	chefs := map[string]*chefProcess{}
	for _, id := range []string{"chef-a", "chef-b"} {
		chefs[id] = startChef(t, d, id)
	}
	first := h.wait(t, "a chef leads", func(h *history) string { return h.holder() })
	for i := range 6 {
		placeOrder(t, d, i)
	}
	h.wait(t, "an order cooks", func(h *history) string { return h.anyOrderIn(kitchen.OrderCooking) })
	killed := chefs[first]
	if err := killed.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = killed.cmd.Wait()
	t.Logf("killed the leader %s (pid %d) while an order was cooking", first, killed.cmd.Process.Pid)
	for i := 6; i < 10; i++ {
		placeOrder(t, d, i)
	}
	h.wait(t, "all 10 orders served", func(h *history) string { return h.served(10) })

	h.mu.Lock()
	defer h.mu.Unlock()
	checkTakeover(t, h, first)
	checkOrders(t, h)
	checkCooks(t, h)
}

func placeOrder(t *testing.T, d *frontDesk, i int) {
	t.Helper()
	menu := []string{"tomato-soup", "seafood-pasta", "caesar-salad", "grilled-salmon", "chocolate-cake", "beef-wellington"}
	o := &kitchen.Order{ObjectMeta: meta.ObjectMeta{Name: fmt.Sprintf("table-%02d", i)},
		Spec: kitchen.OrderSpec{Table: i + 1, Items: []kitchen.OrderItem{
			{Dish: menu[i%len(menu)], Quantity: 1}, {Dish: menu[(i+1)%len(menu)], Quantity: 2}}}}
	if _, err := d.Waiter.Place(context.Background(), o); err != nil {
		t.Fatal(err)
	}
}

// checkTakeover reads the Lease's history: its last renewal by the dead
// leader, then its acquisition by the other chef.
func checkTakeover(t *testing.T, h *history, dead string) {
	t.Helper()
	var lastRenew, takeover time.Time
	var successor string
	for _, l := range eventsOf[*builtin.Lease](h) {
		holder := deref(l.Spec.HolderIdentity)
		switch {
		case holder == dead && successor == "":
			lastRenew = l.Spec.RenewTime.Time
		case holder != "" && holder != dead && successor == "":
			successor, takeover = holder, l.Spec.AcquireTime.Time
		}
	}
	if successor == "" {
		t.Fatalf("nobody took the Lease over from %s", dead)
	}
	gap := takeover.Sub(lastRenew)
	t.Logf("%s renewed last at %s; %s acquired at %s: %v later (lease duration %v)",
		dead, lastRenew.Format("15:04:05.000"), successor, takeover.Format("15:04:05.000"), gap.Round(time.Millisecond), leaseDuration)
	if gap < leaseDuration {
		t.Errorf("%s took over %v after %s's last renewal, less than the lease duration %v: two leaders at once", successor, gap, dead, leaseDuration)
	}
	if gap > leaseDuration+15*time.Second { // generous: a loaded machine
		t.Errorf("%s took over only %v after %s's last renewal (lease duration %v)", successor, gap, dead, leaseDuration)
	}
}

// checkOrders: every order was served, and no order's phase went back.
func checkOrders(t *testing.T, h *history) {
	t.Helper()
	rank := map[kitchen.OrderPhase]int{"": 0, kitchen.OrderPending: 1, kitchen.OrderCooking: 2, kitchen.OrderReady: 3, kitchen.OrderServed: 4}
	last := map[string]kitchen.OrderPhase{}
	for _, o := range eventsOf[*kitchen.Order](h) {
		p := o.Status.Phase
		if rank[p] < rank[last[o.Name]] {
			t.Errorf("%s went back from %s to %s (rv %s)", o.Name, last[o.Name], p, o.ResourceVersion)
		}
		last[o.Name] = p
	}
	for i := range 10 {
		if name := fmt.Sprintf("table-%02d", i); last[name] != kitchen.OrderServed {
			t.Errorf("%s ended %q, want Served: an order was lost", name, last[name])
		}
	}
}

// checkCooks: each item of each order had exactly one cook.
func checkCooks(t *testing.T, h *history) {
	t.Helper()
	cooks := map[string]map[string]bool{} // order/item → cook names
	for _, c := range eventsOf[*kitchen.Cook](h) {
		key := c.Spec.Order + "/" + strconv.Itoa(c.Spec.Item)
		if cooks[key] == nil {
			cooks[key] = map[string]bool{}
		}
		cooks[key][c.Name] = true
	}
	if len(cooks) != 20 {
		t.Errorf("%d items had cooks, want 20 (10 orders × 2)", len(cooks))
	}
	for key, names := range cooks {
		if len(names) != 1 {
			t.Errorf("item %s was cooked by %d cooks %v, want one", key, len(names), names)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// history records every event of some resources of a server, from the
// start, in the order each watch delivers them.
type history struct {
	mu      sync.Mutex // guards the fields below
	events  []meta.Event
	changed chan struct{} // closed at each new event
}

// watchHistory watches gvrs in the namespace "dinner" until the test ends.
func watchHistory(t *testing.T, srv *apiserver.Server, gvrs ...meta.GroupVersionResource) *history {
	h := &history{changed: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })
	for _, gvr := range gvrs {
		w, err := srv.Resource(gvr).Namespace("dinner").Watch(ctx, meta.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			defer w.Stop()
			for ev := range w.ResultChan() {
				h.mu.Lock()
				h.events = append(h.events, ev)
				close(h.changed)
				h.changed = make(chan struct{})
				h.mu.Unlock()
			}
		})
	}
	return h
}

// wait blocks until cond returns non-empty, and returns that; it fails
// the test after the generous deadline.
func (h *history) wait(t *testing.T, what string, cond func(*history) string) string {
	t.Helper()
	timeout := time.After(deadline)
	for {
		h.mu.Lock()
		got, changed := cond(h), h.changed
		h.mu.Unlock()
		if got != "" {
			return got
		}
		select {
		case <-changed:
		case <-timeout:
			t.Fatalf("waited %v for %s", deadline, what)
		}
	}
}

// eventsOf returns the objects of type T in h's events, in order. Must be
// called with mu held.
func eventsOf[T meta.Object](h *history) []T {
	var out []T
	for _, ev := range h.events {
		if o, ok := ev.Object.(T); ok {
			out = append(out, o)
		}
	}
	return out
}

// holder returns the Lease's holder as last seen. Must be called with mu held.
func (h *history) holder() string {
	leases := eventsOf[*builtin.Lease](h)
	if len(leases) == 0 {
		return ""
	}
	return deref(leases[len(leases)-1].Spec.HolderIdentity)
}

// anyOrderIn returns the name of an order last seen in phase p. Must be
// called with mu held.
func (h *history) anyOrderIn(p kitchen.OrderPhase) string {
	last := map[string]kitchen.OrderPhase{}
	for _, o := range eventsOf[*kitchen.Order](h) {
		last[o.Name] = o.Status.Phase
	}
	for name, phase := range last {
		if phase == p {
			return name
		}
	}
	return ""
}

// served returns "yes" once n orders have been seen Served. Must be
// called with mu held.
func (h *history) served(n int) string {
	names := map[string]bool{}
	for _, o := range eventsOf[*kitchen.Order](h) {
		if o.Status.Phase == kitchen.OrderServed {
			names[o.Name] = true
		}
	}
	if len(names) >= n {
		return "yes"
	}
	return ""
}
