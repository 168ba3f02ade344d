package liveview

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/trace"
)

// The cooks' informer may report a cook gone before the orders' informer
// reports its order deleting: the server's trace still names the
// garbage collector, and the line waits for the order to go.
func TestCookGoneBeforeItsOrderIsSeenGoing(t *testing.T) {
	tr := trace.New()
	m := newModel(kitchen.NewClock(0))
	defer m.gc.listen(tr)()
	order := &kitchen.Order{ObjectMeta: meta.ObjectMeta{Namespace: "default", Name: "order-001", UID: "u1", ResourceVersion: "5"}}
	m.orderChanged(nil, order)
	yes := true
	cook := func(name string) *kitchen.Cook {
		return &kitchen.Cook{ObjectMeta: meta.ObjectMeta{Namespace: "default", Name: name, ResourceVersion: "6",
			OwnerReferences: []meta.OwnerReference{{Kind: "Order", Name: "order-001", UID: "u1", Controller: &yes}}}}
	}
	m.cookChanged(nil, cook("order-001-0-g1"))
	m.cookChanged(nil, cook("order-001-1-g1"))
	tr.Emit(trace.Record{Component: trace.APIServer, Action: trace.Deleted, Kind: "Cook", Key: "default/order-001-0-g1",
		Detail: trace.GarbageCollector})

	m.cookGone(cook("order-001-0-g1")) // the collector's, told once the order is gone
	m.cookGone(cook("order-001-1-g1")) // no record of the collector: the chef's
	gone := *order
	gone.ResourceVersion = "7"
	m.orderGone(&gone, false)

	var got []string
	evs, _ := m.takeEvents()
	for _, ev := range evs {
		got = append(got, ev.Text)
	}
	want := []string{
		"in the runner's cache (rv 5)",
		"cook order-001-0-g1 assigned at the ",
		"cook order-001-1-g1 assigned at the ",
		"cook order-001-1-g1 deleted by the chef",
		"order-001 deleted",
		"garbage collector deleted cook order-001-0-g1 (its owner order-001 is gone)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}
