package chapters

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/reconcile"
)

// The runner (传菜员) is a shared informer: it lists once, then watches,
// and keeps what it learns in an indexed cache, so that "what is open in
// the VIP room?" never goes to the front desk.
func RunnerRemembers(w io.Writer) {
	ctx, cancel := context.WithCancel(context.Background())
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	orders := client.New[*kitchen.Order](srv).Namespace("dinner")
	for i, section := range []string{"vip", "main", "vip", "terrace"} {
		orders.Create(ctx, order(fmt.Sprintf("table-%d", i+1), i+1, section, "tomato-soup"), meta.CreateOptions{})
	}
	runner := informer.NewSharedIndexInformer(srv.Resource(kitchen.OrderResource),
		informer.Options[*kitchen.Order]{Indexers: kitchen.OrderIndexers()})
	done := make(chan struct{})
	go func() { runner.Run(ctx); close(done) }()
	<-runner.Synced()

	vip, _ := runner.GetIndexer().ByIndex(kitchen.OrderSectionIndex, "vip")
	var names []string
	for _, o := range vip {
		names = append(names, o.Name)
	}
	slices.Sort(names)
	fmt.Fprintln(w, "VIP room:", names)
	t3, _ := runner.Lister().Namespace("dinner").Get("table-3")
	fmt.Fprintln(w, "table-3 wants", t3.Spec.Items[0].Dish)
	_, err := runner.Lister().Namespace("dinner").Get("table-9")
	fmt.Fprintln(w, "table-9:", meta.IsNotFound(err))
	fmt.Fprintln(w, "lists made:", srv.RequestCount(apiserver.VerbList, kitchen.OrderResource.GroupResource()))
	cancel()
	<-done
}

// The ticket rail (订单看板) is a work queue of keys, never of objects: a
// ticket pinned three times is one ticket (the chef will read the latest
// order anyway), and VIP tickets go first.
func TicketRail(w io.Writer) {
	clock := kitchen.NewClock(kitchen.DefaultMinute)
	sections := map[string]string{"table-1": "main", "table-2": "terrace", "table-3": "vip"}
	rail := kitchen.NewTicketRail(clock, nil, kitchen.RailOptions{
		Priority: func(req reconcile.Request) int {
			return kitchen.TicketPriority(&kitchen.Order{Spec: kitchen.OrderSpec{Section: sections[req.Name]}})
		},
	})
	defer rail.ShutDown()
	ticket := func(name string) reconcile.Request {
		return reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "dinner", Name: name}}
	}
	for _, name := range []string{"table-1", "table-1", "table-2", "table-3", "table-1"} {
		rail.Add(ticket(name))
	}
	fmt.Fprintln(w, "tickets on the rail:", rail.Len())
	for rail.Len() > 0 {
		req, p, _ := rail.GetWithPriority()
		fmt.Fprintf(w, "the chef takes %s (priority %d)\n", req, p)
		rail.Done(req)
	}
}
