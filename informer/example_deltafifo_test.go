package informer_test

import (
	"context"
	"fmt"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/store"
)

// stickyOrder makes a test object standing in for a restaurant order; Size
// plays the number of dishes.
func stickyOrder(table string, dishes int) *apiservertest.Widget {
	o := apiservertest.NewWidget("dining-room", table)
	o.Spec.Size = dishes
	return o
}

// printStickyNotes is a process function that prints each sticky note.
func printStickyNotes(key string, deltas informer.Deltas[*apiservertest.Widget], isInInitialList bool) error {
	fmt.Printf("pop %s (initial list: %v)\n", key, isInInitialList)
	for _, d := range deltas {
		if d.Tombstone != nil {
			fmt.Printf("  %s, final state unknown; last known: %d dishes\n", d.Type, d.Object.Spec.Size)
			continue
		}
		fmt.Printf("  %s: %d dishes\n", d.Type, d.Object.Spec.Size)
	}
	return nil
}

// The runner writes a sticky note for every change it hears. Notes for the
// same table pile up on one spot in the queue, so the chef gets the whole
// story of table 7 at once: ordered, changed, cancelled.
func ExampleDeltaFIFO() {
	fifo := informer.NewDeltaFIFO(informer.DeltaFIFOOptions[*apiservertest.Widget]{})
	_ = fifo.Add(stickyOrder("table-7", 2))
	_ = fifo.Add(stickyOrder("table-9", 4))
	_ = fifo.Update(stickyOrder("table-7", 3))
	_ = fifo.Delete(stickyOrder("table-7", 3))
	fmt.Println("queued:", fifo.ListKeys())

	ctx := context.Background()
	for fifo.Len() > 0 {
		_, _ = fifo.Pop(ctx, printStickyNotes)
	}
	// Output:
	// queued: [dining-room/table-7 dining-room/table-9]
	// pop dining-room/table-7 (initial list: false)
	//   Added: 2 dishes
	//   Updated: 3 dishes
	//   Deleted: 3 dishes
	// pop dining-room/table-9 (initial list: false)
	//   Added: 4 dishes
}

// The runner was cut off from the front desk; when it copies the full list
// again (Replace), table 4 is gone. Nobody saw it leave, so the runner
// writes a tombstone carrying the last state it remembers.
func ExampleDeltaFIFO_Replace() {
	memory := store.NewIndexer[*apiservertest.Widget](nil, nil) // the runner's memory
	_ = memory.Add(stickyOrder("table-4", 5))
	_ = memory.Add(stickyOrder("table-7", 2))
	fifo := informer.NewDeltaFIFO(informer.DeltaFIFOOptions[*apiservertest.Widget]{KnownObjects: memory})

	_ = fifo.Replace([]apiserver.Object{stickyOrder("table-7", 2)}, "42")
	ctx := context.Background()
	for fifo.Len() > 0 {
		_, _ = fifo.Pop(ctx, printStickyNotes)
	}
	fmt.Println("synced:", fifo.HasSynced())
	// Output:
	// pop dining-room/table-7 (initial list: true)
	//   Replaced: 2 dishes
	// pop dining-room/table-4 (initial list: true)
	//   Deleted, final state unknown; last known: 5 dishes
	// synced: true
}
