package record_test

import (
	"context"
	"fmt"
	"sync"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/reconcile/record"
)

// A controller notes what it does to an object; the same note twice is
// one Event with count 2, as `kubectl describe` shows it.
func Example() {
	scheme := meta.NewScheme()
	_ = builtin.Register(scheme)
	srv := apiserver.NewServer(scheme, apiserver.Options{})
	events := func(ns string) record.EventClient { return srv.Resource(builtin.EventsResource).Namespace(ns) }
	rec, _ := record.NewRecorder(events, record.Options{Component: "chef", Scheme: scheme})

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { rec.Run(ctx) })

	// Watch the events, to print the second write when it lands.
	w, _ := srv.Resource(builtin.EventsResource).Namespace("kitchen").Watch(ctx, meta.ListOptions{})
	defer w.Stop()

	lease := &builtin.Lease{ObjectMeta: meta.ObjectMeta{Namespace: "kitchen", Name: "chef"}}
	rec.Event(lease, builtin.EventTypeNormal, "LeaderElection", "chef-1 became leader")
	rec.Event(lease, builtin.EventTypeNormal, "LeaderElection", "chef-1 became leader")

	for ev := range w.ResultChan() {
		if e := ev.Object.(*builtin.Event); e.Count == 2 {
			fmt.Printf("%s %s %s/%s: %s (x%d, from %s)\n", e.Type, e.Reason, e.InvolvedObject.Kind, e.InvolvedObject.Name,
				e.Message, e.Count, e.Source.Component)
			break
		}
	}
	cancel()
	wg.Wait()
	// Output:
	// Normal LeaderElection Lease/chef: chef-1 became leader (x2, from chef)
}
