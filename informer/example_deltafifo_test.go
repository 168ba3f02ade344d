package informer_test

import (
	"context"
	"fmt"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/store"
)

// sizedWidget returns a widget in namespace "default" of the given size.
func sizedWidget(name string, size int) *apiservertest.Widget {
	w := apiservertest.NewWidget("default", name)
	w.Spec.Size = size
	return w
}

// printDeltas is a process function that prints each delta of a key.
func printDeltas(key string, deltas informer.Deltas[*apiservertest.Widget], isInInitialList bool) error {
	fmt.Printf("pop %s (initial list: %v)\n", key, isInInitialList)
	for _, d := range deltas {
		if d.Tombstone != nil {
			fmt.Printf("  %s, final state unknown; last known size: %d\n", d.Type, d.Object.Spec.Size)
			continue
		}
		fmt.Printf("  %s: size %d\n", d.Type, d.Object.Spec.Size)
	}
	return nil
}

// Every change becomes a delta. Deltas for the same object pile up on its
// one spot in the queue, so whoever pops it gets the whole story of a at
// once: added, updated, deleted.
func ExampleDeltaFIFO() {
	fifo := informer.NewDeltaFIFO(informer.DeltaFIFOOptions[*apiservertest.Widget]{})
	_ = fifo.Add(sizedWidget("a", 2))
	_ = fifo.Add(sizedWidget("c", 4))
	_ = fifo.Update(sizedWidget("a", 3))
	_ = fifo.Delete(sizedWidget("a", 3))
	fmt.Println("queued:", fifo.ListKeys())

	ctx := context.Background()
	for fifo.Len() > 0 {
		_, _ = fifo.Pop(ctx, printDeltas)
	}
	// Output:
	// queued: [default/a default/c]
	// pop default/a (initial list: false)
	//   Added: size 2
	//   Updated: size 3
	//   Deleted: size 3
	// pop default/c (initial list: false)
	//   Added: size 4
}

// After a broken watch the reflector lists again and hands the full list
// to Replace. Widget b is gone from it, and nobody saw it go: the queue
// gets a tombstone that carries the last state the cache knew.
func ExampleDeltaFIFO_Replace() {
	cache := store.NewIndexer[*apiservertest.Widget](nil, nil) // what the informer knew
	_ = cache.Add(sizedWidget("b", 5))
	_ = cache.Add(sizedWidget("a", 2))
	fifo := informer.NewDeltaFIFO(informer.DeltaFIFOOptions[*apiservertest.Widget]{KnownObjects: cache})

	_ = fifo.Replace([]meta.Object{sizedWidget("a", 2)}, "42")
	ctx := context.Background()
	for fifo.Len() > 0 {
		_, _ = fifo.Pop(ctx, printDeltas)
	}
	fmt.Println("synced:", fifo.HasSynced())
	// Output:
	// pop default/a (initial list: true)
	//   Replaced: size 2
	// pop default/b (initial list: true)
	//   Deleted, final state unknown; last known size: 5
	// synced: true
}

// The same changes in a RealFIFO: each is its own entry, handed over in
// the order it arrived, so c's add comes before a's update.
func ExampleRealFIFO() {
	fifo := informer.NewRealFIFO(informer.RealFIFOOptions[*apiservertest.Widget]{})
	_ = fifo.Add(sizedWidget("a", 2))
	_ = fifo.Add(sizedWidget("c", 4))
	_ = fifo.Update(sizedWidget("a", 3))
	fmt.Println("queued:", fifo.ListKeys(), "entries:", fifo.Len())

	ctx := context.Background()
	for fifo.Len() > 0 {
		_, _ = fifo.Pop(ctx, printDeltas)
	}
	// Output:
	// queued: [default/a default/c] entries: 3
	// pop default/a (initial list: false)
	//   Added: size 2
	// pop default/c (initial list: false)
	//   Added: size 4
	// pop default/a (initial list: false)
	//   Updated: size 3
}
