package lessons

import (
	"context"
	"fmt"
	"io"

	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/narration"
	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/workqueue"
)

// VIPPriority shows the ticket rail as a priority queue: while the chef
// is busy, tickets pile up; the chef then takes VIP tables first, then
// higher spec.priority, and within one priority first come first served.
// Adding a ticket again may raise its priority but never lowers it.
func VIPPriority(ctx context.Context, w io.Writer) error {
	w = serialised(w)
	clock := kitchen.NewClock(Minute)
	orders := []*kitchen.Order{
		vipOrder("order-1", "main", 0), vipOrder("order-2", "terrace", 0), vipOrder("order-3", "vip", 0),
		vipOrder("order-4", "main", 5), vipOrder("order-5", "vip", 0), vipOrder("order-6", "terrace", 0),
	}
	byName := map[string]*kitchen.Order{}
	for _, o := range orders {
		byName[o.Name] = o
	}
	rail := kitchen.NewTicketRail(clock, narration.New(w, clock, narration.HandOffs), kitchen.RailOptions{
		Priority: func(req reconcile.Request) int { return kitchen.TicketPriority(byName[req.Name]) },
	})
	defer rail.ShutDown()

	heading(w, "The chef is busy; tickets pile up on the rail")
	for _, o := range orders {
		rail.Add(request(o.Name))
	}
	heading(w, "The chef takes them: VIP (+%d) first, then by priority, then first come first served", kitchen.VIPBonus)
	for range orders {
		req, p, _ := rail.GetWithPriority()
		o := byName[req.Name]
		fmt.Fprintf(w, "  %s  section %-8s spec.priority %d → rail priority %d\n", req.Name, o.Spec.Section, o.Spec.Priority, p)
		rail.Done(req)
	}

	heading(w, "Adding a ticket again raises its priority, never lowers it")
	high, low := 50, 0
	rail.AddWithOpts(workqueue.AddOpts{Priority: &low}, request("order-6"))
	rail.AddWithOpts(workqueue.AddOpts{Priority: &high}, request("order-6"))
	rail.AddWithOpts(workqueue.AddOpts{Priority: &low}, request("order-6"))
	req, p, _ := rail.GetWithPriority()
	fmt.Fprintf(w, "  added at 0, 50, 0 → one ticket, %s at priority %d\n", req.Name, p)
	rail.Done(req)
	return ctx.Err()
}

func vipOrder(name, section string, priority int) *kitchen.Order {
	o := &kitchen.Order{Spec: kitchen.OrderSpec{Section: section, Priority: priority}}
	o.Name = name
	return o
}

func request(name string) reconcile.Request {
	return reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "dinner", Name: name}}
}
