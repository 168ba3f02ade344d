package kitchen_test

import (
	"fmt"
	"maps"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/kitchen"
)

// plentiful is a pantry that never runs out in a benchmark.
func plentiful() map[string]kitchen.Quantity {
	stock := maps.Clone(kitchen.DefaultPantry())
	for name := range stock {
		stock[name] = "100000kg"
	}
	stock["egg"], stock["lemon"] = "100000000", "100000000"
	for _, liquid := range []string{"cream"} {
		stock[liquid] = "100000l"
	}
	return stock
}

// BenchmarkChefIdle measures the chef's reconcile of an order where
// nothing changed: the cost of being idempotent (cache reads, a go-cmp
// comparison, no API writes).
//
//	go test -run '^$' -bench Chef -benchtime 2000x ./kitchen/
func BenchmarkChefIdle(b *testing.B) {
	k := newBench(b, plentiful())
	if _, err := k.waiter.Place(k.ctx, newOrder("t1", 1, item("beef-wellington"), item("seafood-pasta", "chili"))); err != nil {
		b.Fatal(err)
	}
	k.settle()
	rv := k.srv.ResourceVersion()
	b.ReportAllocs()
	for b.Loop() {
		k.reconcile(k.chef, ns+"/t1")
	}
	if k.srv.ResourceVersion() != rv {
		b.Fatal("an idle reconcile wrote to the API server")
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "reconciles/s")
}

// BenchmarkChefNewOrder measures a new order's first reconcile: the
// finalizer, the reservations, two cooks and the status, through the
// in-memory API server.
func BenchmarkChefNewOrder(b *testing.B) {
	k := newBench(b, plentiful())
	b.ReportAllocs()
	i := 0
	var requests int64
	for b.Loop() {
		i++
		name := fmt.Sprintf("t%d", i)
		o := newOrder(name, 1+i%20, item("tomato-soup"), item("caesar-salad"))
		b.StopTimer()
		if _, err := k.waiter.Place(k.ctx, o); err != nil {
			b.Fatal(err)
		}
		k.sync()
		before := totalRequests(k.srv)
		b.StartTimer()
		k.reconcile(k.chef, ns+"/"+name)
		requests += totalRequests(k.srv) - before
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "orders/s")
	b.ReportMetric(float64(requests)/float64(b.N), "requests/order")
}

func totalRequests(srv *apiserver.Server) int64 {
	var n int64
	for _, c := range srv.RequestCounts() {
		n += c
	}
	return n
}
