package informer_test

import (
	"context"
	"fmt"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
)

// The same relist behind each queue. While the informer is cut off,
// widget-2 is deleted and widget-3 changes, and the server forgets it
// all; the informer comes back, gets 410 and lists again.
//
// Behind the atomic queue (the default, client-go v0.37's) the list is
// applied to the cache in one step and only then told: the tombstone
// first, then every listed object in list order; and the cache knows
// which resourceVersion it has reached. Behind the classic DeltaFIFO
// (client-go before 1.33) each object is applied and told in turn, the
// tombstone last, and the cache cannot vouch for any resourceVersion.
func ExampleQueueKind() {
	for _, kind := range []informer.QueueKind{informer.QueueAtomic, informer.QueueDeltaFIFO} {
		fmt.Println(kind)
		relistBehind(kind)
	}
	// Output:
	// QueueAtomic
	//   delete widget-2 (final state unknown)
	//   update widget-1 (unchanged)
	//   update widget-3 (size 3 → 30)
	//   cache at the list's resourceVersion: true
	// QueueDeltaFIFO
	//   update widget-1 (unchanged)
	//   update widget-3 (size 3 → 30)
	//   delete widget-2 (final state unknown)
	//   cache at resourceVersion ""
}

func relistBehind(kind informer.QueueKind) {
	srv, widgets := newServer("widget-1", "widget-2", "widget-3")
	defer srv.CloseWatches()
	srv.FailNext(apiserver.VerbWatch, 1_000_000, meta.NewTooManyRequests("busy", 1)) // cut off
	inf := informer.NewSharedIndexInformer[*apiservertest.Widget](widgets, informer.Options[*apiservertest.Widget]{
		Queue:             kind,
		Backoff:           &informer.BackoffManager{Initial: 10 * time.Millisecond},
		WatchErrorHandler: func(error) {},
	})
	events := make(chan string, 10)
	reg, _ := inf.AddEventHandler(informer.ResourceEventHandlerFuncs[*apiservertest.Widget]{
		UpdateFunc: func(old, o *apiservertest.Widget) {
			if old.ResourceVersion == o.ResourceVersion {
				events <- fmt.Sprintf("update %s (unchanged)", o.Name)
				return
			}
			events <- fmt.Sprintf("update %s (size %d → %d)", o.Name, old.Spec.Size, o.Spec.Size)
		},
		DeleteFunc: func(o *apiservertest.Widget, unknown bool) {
			events <- fmt.Sprintf("delete %s (final state unknown)", o.Name)
		},
	})
	stop := run(inf)
	defer stop()
	<-reg.Synced()

	ctx := context.Background()
	widgets.Namespace("default").Delete(ctx, "widget-2", meta.DeleteOptions{})
	o, _ := widgets.Namespace("default").Get(ctx, "widget-3", meta.GetOptions{})
	o.(*apiservertest.Widget).Spec.Size = 30
	widgets.Update(ctx, o, meta.UpdateOptions{})
	srv.CompactHistory()
	srv.FailNext(apiserver.VerbWatch, 0, nil) // back: 410, relist
	for range 3 {
		fmt.Println("  " + <-events)
	}
	if rv := inf.GetIndexer().LastStoreSyncResourceVersion(); rv != "" {
		fmt.Println("  cache at the list's resourceVersion:", rv == srv.ResourceVersion())
	} else {
		fmt.Printf("  cache at resourceVersion %q\n", rv)
	}
}
