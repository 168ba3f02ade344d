package lessons

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"sync"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/kitchen"
)

// SharedInformer shows why runners share one memory. Two runners with
// their own informers each list and watch the front desk; two handlers on
// one shared informer (from the factory) cost one list and one watch. The
// shared memory answers "what does table 7 have?" and "what is open in
// the VIP room?" from its indexes, and a field selector (spec.section=vip)
// makes a runner that only ever hears about the VIP room.
func SharedInformer(ctx context.Context, w io.Writer) error {
	w = serialised(w)
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	orders := client.New[*kitchen.Order](srv).Namespace("dinner")
	for i, sec := range []string{"vip", "main", "terrace", "vip", "main", "terrace"} {
		o := &kitchen.Order{ObjectMeta: meta.ObjectMeta{Name: fmt.Sprintf("order-%d", i+1)},
			Spec: kitchen.OrderSpec{Table: 3 + 2*i, Section: sec, Items: []kitchen.OrderItem{{Dish: "tomato-soup", Quantity: 1}}}}
		if _, err := orders.Create(ctx, o, meta.CreateOptions{}); err != nil {
			return err
		}
	}
	gr := kitchen.OrderResource.GroupResource()
	calls := func() string { // lists only: a watch opens just after its list, maybe after we print
		return fmt.Sprintf("%d lists", srv.RequestCount(apiserver.VerbList, gr))
	}

	heading(w, "1. Two runners, each with a memory of its own")
	copies, err := twoRunners(ctx, srv)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "  the front desk served %s (and keeps two watches open); the kitchen holds %d copies of 6 orders\n", calls(), copies)

	heading(w, "2. Two handlers, one shared runner (SharedInformerFactory)")
	f := informer.NewSharedInformerFactory(srv, 0)
	defer f.Shutdown()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	inf, heard, err := twoHandlers(ctx, f)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "  the chef heard %d orders, the maître d' heard %d\n", heard["chef"], heard["maître d'"])
	fmt.Fprintf(w, "  the front desk has now served %s in all: one more, for both handlers, and one more watch\n", calls())

	heading(w, "3. The runner's memory answers from its indexes")
	for _, q := range [][2]string{{kitchen.OrderSectionIndex, "vip"}, {kitchen.OrderTableIndex, "7"}} {
		found, err := inf.GetIndexer().ByIndex(q[0], q[1])
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  %s=%s: %v\n", q[0], q[1], names(found))
	}

	heading(w, "4. Only the VIP room: a field selector, spec.section=vip")
	var vip []*kitchen.Order
	vip, _, err = orders.List(ctx, meta.ListOptions{FieldSelector: kitchen.FieldSection + "=vip"})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "  GET /apis/menu.example.com/v1/namespaces/dinner/orders?fieldSelector=spec.section%%3Dvip → %v\n", names(vip))
	return nil
}

// twoHandlers adds two handlers to the factory's informer of orders,
// starts the factory and returns, once both handlers have seen the
// initial list, how many orders each heard of.
func twoHandlers(ctx context.Context, f *informer.SharedInformerFactory) (*informer.SharedIndexInformer[*kitchen.Order], map[string]int, error) {
	inf := informer.InformerFor[*kitchen.Order](f)
	if err := inf.GetIndexer().AddIndexers(kitchen.OrderIndexers()); err != nil {
		return nil, nil, err
	}
	var mu sync.Mutex
	heard := map[string]int{}
	var regs []*informer.Registration
	for _, who := range []string{"chef", "maître d'"} {
		reg, err := inf.AddEventHandler(informer.ResourceEventHandlerFuncs[*kitchen.Order]{
			AddFunc: func(*kitchen.Order, bool) {
				mu.Lock()
				defer mu.Unlock()
				heard[who]++
			}})
		if err != nil {
			return nil, nil, err
		}
		regs = append(regs, reg)
	}
	f.Start(ctx)
	for _, reg := range regs { // each handler has seen the initial list
		select {
		case <-reg.Synced():
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
	}
	mu.Lock()
	defer mu.Unlock()
	return inf, maps.Clone(heard), nil
}

// twoRunners runs two informers of orders until both have synced, stops
// them, and returns how many copies of orders they held together.
func twoRunners(ctx context.Context, srv *apiserver.Server) (int, error) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	a := informer.NewSharedIndexInformer(srv.Resource(kitchen.OrderResource), informer.Options[*kitchen.Order]{})
	b := informer.NewSharedIndexInformer(srv.Resource(kitchen.OrderResource), informer.Options[*kitchen.Order]{})
	wg.Go(func() { a.Run(ctx) })
	wg.Go(func() { b.Run(ctx) })
	for _, synced := range []<-chan struct{}{a.Synced(), b.Synced()} {
		select {
		case <-synced:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
	return len(a.GetIndexer().List()) + len(b.GetIndexer().List()), nil
}

// names returns the objects' names, sorted.
func names[T meta.Object](objs []T) []string {
	var out []string
	for _, o := range objs {
		out = append(out, o.GetObjectMeta().Name)
	}
	slices.Sort(out)
	return out
}
