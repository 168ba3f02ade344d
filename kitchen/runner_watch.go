package kitchen

import (
	"context"
	"fmt"
	"maps"
	"slices"
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

	mu      sync.Mutex // guards seen and pending
	seen    map[string]orderMark
	pending map[string][]func() // order key → lines about its garbage, told after its DELETED
}

// orderMark is what the desk last told about an order, to tell a change
// of spec or a deletion from a status write.
type orderMark struct {
	uid        string
	generation int64
	deleting   bool
}

func newDeskWatch(lw informer.ListerWatcher, log *Narrator) *deskWatch {
	return &deskWatch{lw: lw, log: log, seen: map[string]orderMark{}, pending: map[string][]func(){}}
}

func (d *deskWatch) List(ctx context.Context, opts apiserver.ListOptions) (*apiserver.List, error) {
	l, err := d.lw.List(ctx, opts)
	if err == nil {
		d.log.Detail("apiserver", "LIST orders: %d at rv %s", len(l.Items), l.ResourceVersion)
		listed := map[string]bool{}
		for _, obj := range l.Items {
			if o, ok := obj.(*Order); ok {
				d.mark(o)
				listed[keyOf(o)] = true
			}
		}
		// Orders deleted while the watch was down have no DELETED to tell.
		d.flush(func(key string) bool { return !listed[key] })
	}
	return l, err
}

func (d *deskWatch) Watch(ctx context.Context, opts apiserver.ListOptions) (apiserver.WatchInterface, error) {
	w, err := d.lw.Watch(ctx, opts)
	if err != nil {
		return nil, err
	}
	d.log.Detail("apiserver", "WATCH orders from rv %s", opts.ResourceVersion)
	return newNarratedWatch(ctx, w, d.tell), nil
}

// ownerGone reports whether the order ns/name with the given uid is on
// its way out as far as the desk has told: being deleted, deleted (and
// forgotten), or replaced by a namesake. The chef lets an order go only
// after the desk told its deletionTimestamp, so a cook deleted once its
// order is gone was deleted by the garbage collector.
func (d *deskWatch) ownerGone(ns, name, uid string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	m, ok := d.seen[ns+"/"+name]
	return !ok || m.deleting || m.uid != uid
}

// afterOwnerGone calls say now, or, if the desk has yet to tell the
// DELETED of the order ns/name with this uid, right after it does: the
// garbage collector deletes a cook after its order, and the story must
// not tell it first (the two watches run side by side).
func (d *deskWatch) afterOwnerGone(ns, name, uid string, say func()) {
	key := ns + "/" + name
	d.mu.Lock()
	if m, ok := d.seen[key]; ok && m.uid == uid {
		d.pending[key] = append(d.pending[key], say)
		d.mu.Unlock()
		return
	}
	d.mu.Unlock()
	say()
}

// flush tells the lines waiting for the orders whose key matches.
func (d *deskWatch) flush(match func(key string) bool) {
	d.mu.Lock()
	var lines []func()
	for _, key := range slices.Sorted(maps.Keys(d.pending)) {
		if match(key) {
			lines = append(lines, d.pending[key]...)
			delete(d.pending, key)
		}
	}
	d.mu.Unlock()
	for _, say := range lines {
		say()
	}
}

// gcWatch is the runner's line to the front desk for cooks. The desk says
// nothing of the cooks the chef creates and deletes (the chef and the
// brigade tell that), only of those the garbage collector deletes because
// their order is gone: no client asked for those deletes, so without this
// line the story would have a gap.
type gcWatch struct {
	lw     informer.ListerWatcher
	orders *deskWatch
}

func (g *gcWatch) List(ctx context.Context, opts apiserver.ListOptions) (*apiserver.List, error) {
	return g.lw.List(ctx, opts)
}

func (g *gcWatch) Watch(ctx context.Context, opts apiserver.ListOptions) (apiserver.WatchInterface, error) {
	w, err := g.lw.Watch(ctx, opts)
	if err != nil {
		return nil, err
	}
	return newNarratedWatch(ctx, w, g.tell), nil
}

// tell narrates a cook's DELETED event when the garbage collector sent it.
func (g *gcWatch) tell(e apiserver.Event) {
	c, ok := e.Object.(*Cook)
	if !ok || e.Type != apiserver.EventDeleted {
		return
	}
	g.orders.ifCollected(c, func(owner string) {
		g.orders.log.Say("apiserver", "garbage collector: DELETED %s (rv %s; owner %s gone) → watch",
			keyOf(c), c.ResourceVersion, owner)
	})
}

// ifCollected reports whether the deleted cook c was the garbage
// collector's (its order is gone) and, if so, has say tell it, naming the
// order, once the order's own DELETED has been told (see afterOwnerGone).
func (d *deskWatch) ifCollected(c *Cook, say func(owner string)) bool {
	ref := apiserver.GetControllerOf(c)
	if ref == nil || ref.Kind != "Order" || !d.ownerGone(c.Namespace, ref.Name, ref.UID) {
		return false
	}
	owner := c.Namespace + "/" + ref.Name
	d.afterOwnerGone(c.Namespace, ref.Name, ref.UID, func() { say(owner) })
	return true
}

// mark records o and returns what it was before.
func (d *deskWatch) mark(o *Order) (orderMark, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	key := keyOf(o)
	old, ok := d.seen[key]
	d.seen[key] = orderMark{uid: o.UID, generation: o.Generation, deleting: o.DeletionTimestamp != nil}
	return old, ok
}

// forget drops what the desk knew of a deleted order, once its DELETED
// has been told, and tells the lines that waited for it.
func (d *deskWatch) forget(o *Order) {
	key := keyOf(o)
	d.mu.Lock()
	delete(d.seen, key)
	lines := d.pending[key]
	delete(d.pending, key)
	d.mu.Unlock()
	for _, say := range lines {
		say()
	}
}

// tell narrates one event.
func (d *deskWatch) tell(e apiserver.Event) {
	o, ok := e.Object.(*Order)
	if !ok {
		return
	}
	old, known := d.mark(o)
	if e.Type == apiserver.EventDeleted {
		defer d.forget(o) // after the DELETED line: see afterOwnerGone
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

// newNarratedWatch starts passing w's events on, telling each first.
func newNarratedWatch(ctx context.Context, w apiserver.WatchInterface, tell func(apiserver.Event)) *narratedWatch {
	nw := &narratedWatch{in: w, out: make(chan apiserver.Event), stop: make(chan struct{}), ctxDone: ctx.Done()}
	nw.wg.Go(func() { nw.forward(tell) })
	return nw
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
