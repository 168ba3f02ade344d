package kitchen

import (
	"context"
	"fmt"
	"sync"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/informer"
)

// deskWatch is the runner's line to the front desk for orders: a
// ListerWatcher that lets the front desk narrate each event as it sends
// it. Narrating here, before the runner gets the event, keeps the story
// in causal order: "[apiserver] ADDED" always comes before "[runner]
// sees ... ADDED", which a line written by the waiter after its call
// returned could not promise.
type deskWatch struct {
	lw  informer.ListerWatcher
	log *Narrator

	mu   sync.Mutex // guards seen
	seen map[string]orderMark
}

// orderMark is what the desk last told about an order, to tell a change
// of spec or a deletion from a status write.
type orderMark struct {
	generation int64
	deleting   bool
}

func newDeskWatch(lw informer.ListerWatcher, log *Narrator) *deskWatch {
	return &deskWatch{lw: lw, log: log, seen: map[string]orderMark{}}
}

func (d *deskWatch) List(ctx context.Context, opts apiserver.ListOptions) (*apiserver.List, error) {
	l, err := d.lw.List(ctx, opts)
	if err == nil {
		d.log.Detail("apiserver", "LIST orders: %d at rv %s", len(l.Items), l.ResourceVersion)
		for _, obj := range l.Items {
			if o, ok := obj.(*Order); ok {
				d.mark(o)
			}
		}
	}
	return l, err
}

func (d *deskWatch) Watch(ctx context.Context, opts apiserver.ListOptions) (apiserver.WatchInterface, error) {
	w, err := d.lw.Watch(ctx, opts)
	if err != nil {
		return nil, err
	}
	d.log.Detail("apiserver", "WATCH orders from rv %s", opts.ResourceVersion)
	nw := &narratedWatch{in: w, out: make(chan apiserver.Event), stop: make(chan struct{}), ctxDone: ctx.Done()}
	nw.wg.Go(func() { nw.forward(d.tell) })
	return nw, nil
}

// mark records o and returns what it was before.
func (d *deskWatch) mark(o *Order) (orderMark, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	key := keyOf(o)
	old, ok := d.seen[key]
	d.seen[key] = orderMark{generation: o.Generation, deleting: o.DeletionTimestamp != nil}
	return old, ok
}

// forget drops what the desk knew of a deleted order.
func (d *deskWatch) forget(o *Order) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.seen, keyOf(o))
}

// tell narrates one event.
func (d *deskWatch) tell(e apiserver.Event) {
	o, ok := e.Object.(*Order)
	if !ok {
		return
	}
	old, known := d.mark(o)
	if e.Type == apiserver.EventDeleted {
		d.forget(o)
	}
	say := d.log.Say
	what := fmt.Sprintf("(rv %s, generation %d)", o.ResourceVersion, o.Generation)
	switch {
	case e.Type == apiserver.EventModified && o.DeletionTimestamp != nil && !old.deleting:
		what += fmt.Sprintf(": deletionTimestamp set, finalizers %v hold it", o.Finalizers)
	case e.Type == apiserver.EventModified && known && old.generation == o.Generation:
		say = d.log.Detail // a status or metadata write
	case e.Type == apiserver.EventDeleted:
		what = fmt.Sprintf("(rv %s)", o.ResourceVersion)
	}
	say("apiserver", "%s %s %s → watch", e.Type, keyOf(o), what)
}

// narratedWatch passes a watch's events on, telling each first.
type narratedWatch struct {
	in      apiserver.WatchInterface
	out     chan apiserver.Event
	stop    chan struct{}
	ctxDone <-chan struct{} // the watch's context: nobody reads after it ends
	once    sync.Once
	wg      sync.WaitGroup
}

func (w *narratedWatch) forward(tell func(apiserver.Event)) {
	defer close(w.out)
	for e := range w.in.ResultChan() {
		tell(e)
		select {
		case w.out <- e:
		case <-w.stop:
			return
		case <-w.ctxDone:
			return
		}
	}
}

func (w *narratedWatch) ResultChan() <-chan apiserver.Event { return w.out }

func (w *narratedWatch) Stop() {
	w.once.Do(func() {
		close(w.stop)
		w.in.Stop()
	})
}
