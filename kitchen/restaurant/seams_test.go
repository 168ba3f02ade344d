package restaurant_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
	"github.com/kitchensync/kitchensync/reconcile"
)

// seen records what went through the seams, in sorted order.
type seen struct {
	mu   sync.Mutex // guards what
	what map[string][]string
}

func (s *seen) add(seam, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !slices.Contains(s.what[seam], name) {
		s.what[seam] = append(s.what[seam], name)
		slices.Sort(s.what[seam])
	}
}

// timers starts real timers and records each key.
type timers struct{ s *seen }

func (t timers) AfterFunc(d time.Duration, key string, f func()) *time.Timer {
	t.s.add("timers", key)
	return time.AfterFunc(d, f)
}

// The seams of Config reach what they say: the runner lists and watches
// every resource through InformerOptions' ListerWatcher, both
// controllers' queues are wrapped by Queue, and the cooks are timed by
// Timers.
func TestConfigSeams(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &seen{what: map[string][]string{}}
		cfg := restaurant.Config{
			InformerOptions: []informer.FactoryOption{informer.WithListerWatcher(
				func(gvr meta.GroupVersionResource, lw informer.ListerWatcher) informer.ListerWatcher {
					s.add("listerwatchers", gvr.Resource)
					return lw
				})},
			Queue: func(name string, q reconcile.PriorityWorkQueue) reconcile.PriorityWorkQueue {
				s.add("queues", name)
				return q
			},
			Timers: timers{s},
		}
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		r, err := restaurant.Open(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		ran := make(chan error, 1)
		go func() { ran <- r.Run(ctx) }()
		if !r.WaitReady(ctx) {
			t.Fatal("the restaurant did not open")
		}
		if _, err := r.Waiter.Place(ctx, newOrder("table-1", 1, item("caesar-salad"))); err != nil {
			t.Fatal(err)
		}
		if err := r.WaitForOrder(ctx, "table-1", func(o *kitchen.Order) bool {
			return o != nil && o.Status.Phase == kitchen.OrderServed
		}); err != nil {
			t.Fatal(err)
		}
		cancel()
		if err := <-ran; err != nil {
			t.Fatal(err)
		}
		want := map[string][]string{
			"listerwatchers": {"cooks", "dishes", "orders"},
			"queues":         {"brigade", kitchen.RailName},
			"timers":         {"dinner/table-1-0-g1"},
		}
		if diff := cmp.Diff(want, s.what); diff != "" {
			t.Errorf("through the seams (-want +got):\n%s", diff)
		}
	})
}
