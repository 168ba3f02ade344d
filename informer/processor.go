package informer

import (
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/trace"
)

// This file is the handlers' side of a SharedIndexInformer: each handler
// gets a listener, an unbounded ordered buffer drained by its own
// goroutine, so that a slow handler never blocks the informer or the other
// handlers (client-go's sharedProcessor and processorListener). The
// informer appends under its lock; the listener's goroutine calls the
// handler without any lock held.

// notificationKind says which handler method a notification calls.
type notificationKind uint8

const (
	addNotification notificationKind = iota
	updateNotification
	deleteNotification
)

// notification is one call to make on a handler.
type notification[T meta.Object] struct {
	kind   notificationKind
	flag   bool // isInInitialList for adds, finalStateUnknown for deletes
	oldObj T    // updates only
	newObj T    // the object of adds and deletes, the new one of updates
}

// ring is an unbounded FIFO over a circular slice that doubles when full,
// like client-go's buffer.RingGrowing. The zero value is an empty ring.
type ring[E any] struct {
	items []E
	head  int // index of the oldest element
	n     int // number of elements
}

func (r *ring[E]) push(e E) {
	if r.n == len(r.items) {
		grown := make([]E, max(16, 2*len(r.items)))
		for i := range r.n {
			grown[i] = r.items[(r.head+i)%len(r.items)]
		}
		r.items, r.head = grown, 0
	}
	r.items[(r.head+r.n)%len(r.items)] = e
	r.n++
}

func (r *ring[E]) pop() (E, bool) {
	var zero E
	if r.n == 0 {
		return zero, false
	}
	e := r.items[r.head]
	r.items[r.head] = zero // let the object be collected
	r.head = (r.head + 1) % len(r.items)
	r.n--
	return e, true
}

// Registration is the handle [SharedIndexInformer.AddEventHandler] returns
// (client-go's ResourceEventHandlerRegistration): ask it whether its
// handler has seen the initial list, or pass it to
// [SharedIndexInformer.RemoveEventHandler]. Safe for concurrent use.
type Registration struct {
	owner any // the informer that issued it

	mu       sync.Mutex // guards pending, upstream and closed
	pending  int        // initial-list adds queued but not yet delivered
	upstream bool       // the informer has synced (its first list is in the cache)
	closed   bool
	synced   chan struct{} // closed once upstream && pending == 0
}

// ResourceEventHandlerRegistration is client-go's name for [Registration].
type ResourceEventHandlerRegistration = Registration

func newRegistration(owner any) *Registration {
	return &Registration{owner: owner, synced: make(chan struct{})}
}

// HasSynced reports whether the handler has been delivered — has returned
// from OnAdd for — every object of the informer's initial list (for a
// handler added late: everything cached when it was added). It is the
// per-handler answer of kubernetes#113763: the informer's own HasSynced
// only says the cache is filled, not that a handler has seen it.
func (r *Registration) HasSynced() bool {
	select {
	case <-r.synced:
		return true
	default:
		return false
	}
}

// Synced returns a channel that is closed once [Registration.HasSynced]
// is true, for waiting without polling.
func (r *Registration) Synced() <-chan struct{} { return r.synced }

// startInitial counts one initial-list add queued for the handler.
func (r *Registration) startInitial() {
	r.mu.Lock()
	r.pending++
	r.mu.Unlock()
}

// finishInitial counts one initial-list add delivered.
func (r *Registration) finishInitial() {
	r.mu.Lock()
	r.pending--
	r.maybeCloseLocked()
	r.mu.Unlock()
}

// upstreamSynced records that the informer's cache holds its first list
// and every initial add for this handler has been queued.
func (r *Registration) upstreamSynced() {
	r.mu.Lock()
	r.upstream = true
	r.maybeCloseLocked()
	r.mu.Unlock()
}

// maybeCloseLocked must be called with r.mu held.
func (r *Registration) maybeCloseLocked() {
	if r.upstream && r.pending == 0 && !r.closed {
		r.closed = true
		close(r.synced)
	}
}

// listener delivers notifications to one handler, in order, from its own
// goroutine.
type listener[T meta.Object] struct {
	handler ResourceEventHandler[T]
	reg     *Registration

	// For the trace: the informer's tracer and name, and the handler's
	// number (1 for the first added).
	tracer *trace.Tracer
	name   string
	num    int

	// Resync bookkeeping, guarded by the informer's mu.
	requestedResync time.Duration // what the handler asked for
	resyncPeriod    time.Duration // what it gets (see effectiveResyncPeriod)
	nextResync      time.Time
	// resyncing says whether updates with an unchanged resourceVersion
	// (a resync's Sync deltas, a relist's Replaced ones for objects that
	// did not change) reach this handler. It starts true and only the
	// resync check (dueForResync) recomputes it, as client-go's
	// sharedProcessor does; so a handler of an informer without a resync
	// period receives them after every relist.
	resyncing bool

	mu      sync.Mutex // guards buf
	buf     ring[notification[T]]
	wake    chan struct{} // capacity 1: "buf may have grown"
	stop    chan struct{} // closed to end run, dropping what is buffered
	stopped sync.Once
}

func newListener[T meta.Object](h ResourceEventHandler[T], reg *Registration, requested, period time.Duration, now time.Time) *listener[T] {
	return &listener[T]{
		handler:         h,
		reg:             reg,
		requestedResync: requested,
		resyncPeriod:    period,
		nextResync:      nextResync(now, period),
		resyncing:       true, // until the first resync check says otherwise
		wake:            make(chan struct{}, 1),
		stop:            make(chan struct{}),
	}
}

// add queues n without ever blocking.
func (l *listener[T]) add(n notification[T]) {
	if n.kind == addNotification && n.flag {
		l.reg.startInitial()
	}
	l.mu.Lock()
	l.buf.push(n)
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default: // a wake-up is already pending
	}
}

func (l *listener[T]) next() (notification[T], bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.pop()
}

// run calls the handler for each notification until stop is closed.
func (l *listener[T]) run() {
	for {
		n, ok := l.next()
		if !ok {
			select {
			case <-l.wake:
				continue
			case <-l.stop:
				return
			}
		}
		select {
		case <-l.stop:
			return
		default:
		}
		l.deliver(n)
	}
}

// deliver makes one handler call. A panic in the handler is not
// recovered, as with client-go's default: a handler that failed half-way
// has a view of the world nobody can trust.
func (l *listener[T]) deliver(n notification[T]) {
	l.traceCall(n)
	switch n.kind {
	case addNotification:
		l.handler.OnAdd(n.newObj, n.flag)
		if n.flag {
			l.reg.finishInitial()
		}
	case updateNotification:
		l.handler.OnUpdate(n.oldObj, n.newObj)
	case deleteNotification:
		l.handler.OnDelete(n.newObj, n.flag)
	}
}

// shutdown ends run after the notification being delivered, if any.
func (l *listener[T]) shutdown() {
	l.stopped.Do(func() { close(l.stop) })
}

// dueForResync decides, at now, whether this handler takes part in the
// resync that is about to happen, and if so schedules its next one.
// Must be called with the informer's mu held.
func (l *listener[T]) dueForResync(now time.Time) bool {
	l.resyncing = resyncDue(now, l.nextResync, l.resyncPeriod)
	if l.resyncing {
		l.nextResync = nextResync(now, l.resyncPeriod)
	}
	return l.resyncing
}
