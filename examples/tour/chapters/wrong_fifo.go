package chapters

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/kitchen"
)

// 餐厅 §2 and §3 have the runner write each change on a sticky note in a
// DeltaFIFO (记录到便签DeltaFIFO), which sorts them by table into new
// orders, extras and cancellations. That is how client-go's informers
// worked until Kubernetes 1.33. A DeltaFIFO keeps one pile of notes per
// key, in the order keys first arrived: table 1's truffle, written after
// table 2's order, still reaches the runner's memory first, and a relist
// adds a Replaced note to each table's pile, mixed with what was there.
//
// Since client-go 1.33 (InOrderInformers, locked on in v0.37) every
// informer queues through a RealFIFO: one entry per event, in the order
// they happened, across all keys. Since 1.36 (AtomicFIFO, on by default)
// a list or relist is one entry: the whole list, applied to the cache in
// one step before any handler hears of it, with the resourceVersion the
// cache has then reached (LastStoreSyncResourceVersion, which
// [reconcile.Freshness] reads); watch bookmarks are entries too. What the
// story says still holds for handlers: each change arrives typed, as
// OnAdd, OnUpdate or OnDelete. kitchensync's informers default to the
// atomic RealFIFO ([informer.QueueAtomic]); [informer.QueueDeltaFIFO]
// keeps the story's queue, to compare.
//
// Here the same notes go through both queues: table 1 orders, table 2
// orders, table 1 adds truffle, then the runner lists the board again.
func TheDeltaFIFOIsHistory(w io.Writer) {
	t1, t2, t3 := order("table-1", 1, "main", "seafood-pasta"), order("table-2", 2, "main", "tomato-soup"), order("table-3", 3, "vip", "caesar-salad")
	t1.ResourceVersion, t2.ResourceVersion, t3.ResourceVersion = "2", "3", "5"
	truffle := meta.DeepCopy(t1)
	truffle.ResourceVersion, truffle.Spec.Items[0].Extras = "4", []string{"black-truffle"}
	queues := []struct {
		name string
		q    fifo
	}{
		{"DeltaFIFO, the story's (informers until client-go 1.33)", informer.NewDeltaFIFO(informer.DeltaFIFOOptions[*kitchen.Order]{})},
		{"RealFIFO with atomic events (client-go 1.36 on; informer.QueueAtomic)", informer.NewRealFIFO(informer.RealFIFOOptions[*kitchen.Order]{AtomicEvents: true})},
	}
	for _, x := range queues {
		x.q.Add(t1)
		x.q.Add(t2)
		x.q.Update(truffle)
		x.q.Replace([]meta.Object{truffle, t2, t3}, "5")
		fmt.Fprintln(w, x.name+", popped:")
		for x.q.Len() > 0 {
			x.q.Pop(context.Background(), func(key string, deltas informer.Deltas[*kitchen.Order], _ bool) error {
				fmt.Fprintf(w, "  %s\n", describeDeltas(key, deltas))
				return nil
			})
		}
	}
}

// fifo is what the chapter asks of both queues.
type fifo interface {
	Add(meta.Object) error
	Update(meta.Object) error
	Replace([]meta.Object, string) error
	Len() int
	Pop(context.Context, informer.PopProcessFunc[*kitchen.Order]) (informer.Deltas[*kitchen.Order], error)
}

// describeDeltas says what one Pop handed over.
func describeDeltas(key string, deltas informer.Deltas[*kitchen.Order]) string {
	var notes []string
	for _, d := range deltas {
		if d.Info != nil {
			return fmt.Sprintf("%s: %d orders at resourceVersion %s, in one step", d.Type, len(d.Info.Objects), d.Info.ResourceVersion)
		}
		notes = append(notes, fmt.Sprintf("%s (rv %s)", d.Type, d.Object.ResourceVersion))
	}
	return key + ": " + strings.Join(notes, ", ")
}
