package lessons

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/narration"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
)

// Resync is the chef checking the pass regularly (主厨定期检查备餐台):
// with a resync period, the runner hands every order it remembers to the
// chef again, though nothing changed, so that a chef who missed something
// — a world that drifted without an event — gets another look. It costs
// no API requests (the runner reads its memory), and a chef that is
// idempotent writes nothing when all is well.
func Resync(ctx context.Context, w io.Writer) error {
	w = serialised(w)
	// Informers refuse resync periods under a real second (as client-go
	// does), so this kitchen runs slower: a kitchen minute is 100ms.
	r, stop, err := open(ctx, restaurant.Config{Out: w, Verbosity: narration.HandOffs, Resync: 10 * time.Minute,
		Minute: 100 * time.Millisecond})
	if err != nil {
		return err
	}
	defer stop()

	heading(w, "1. An order is placed and served")
	o := &kitchen.Order{ObjectMeta: meta.ObjectMeta{Name: "table-2"},
		Spec: kitchen.OrderSpec{Table: 2, Items: []kitchen.OrderItem{{Dish: "caesar-salad", Quantity: 1}}}}
	if _, err := r.Waiter.Place(ctx, o); err != nil {
		return err
	}
	if err := waitFor(ctx, r, "table-2", func(o *kitchen.Order) bool {
		return o != nil && o.Status.Phase == kitchen.OrderServed
	}); err != nil {
		return err
	}
	pause(ctx, r)

	heading(w, "2. Twenty-five quiet minutes: the runner resyncs every 10")
	rv := r.Server.ResourceVersion()
	requests := totalRequests(r.Server)
	if err := sleep(ctx, r, 25*time.Minute); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n  resourceVersion before %s, after %s; API requests during the resyncs: %d\n",
		rv, r.Server.ResourceVersion(), totalRequests(r.Server)-requests)
	fmt.Fprintln(w, "  the chef looked again and found nothing to do: reconciling is idempotent")
	return nil
}

func totalRequests(srv *apiserver.Server) int64 {
	var n int64
	for _, c := range srv.RequestCounts() {
		n += c
	}
	return n
}
