package trace

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Tracer hands each [Record] the machinery emits to its subscribers. A nil
// *Tracer is valid and never has subscribers, so a component whose
// options leave the tracer nil pays one nil check per hand-off.
//
// Create one with [New] and give it to every component you want to hear
// from; then subscribe with [Tracer.Subscribe], [NewRecorder] or
// [Tracer.Feed]. A Tracer is safe for concurrent use.
type Tracer struct {
	active atomic.Int32 // len(subs), readable without mu

	mu   sync.Mutex // guards seq, next and subs, and serializes delivery
	seq  uint64
	next int          // id of the next subscriber
	subs []subscriber // in the order they subscribed
}

type subscriber struct {
	id int
	fn func(Record)
}

// New returns a Tracer without subscribers.
func New() *Tracer { return &Tracer{} }

// Enabled reports whether anybody listens: one atomic load. Emitters call
// it before they build a Record, so that a silent tracer costs nothing:
//
//	if t.Enabled() {
//		t.Emit(trace.Record{Component: trace.Workqueue, Action: trace.Added, Key: key})
//	}
func (t *Tracer) Enabled() bool {
	return t != nil && t.active.Load() > 0
}

// Emit numbers r (Seq), stamps it with the time (Time) and calls every
// subscriber with it, in the order they subscribed. Calls are serialized:
// subscribers receive records one at a time, in Seq order, even when many
// goroutines emit. Emit on a nil Tracer, or one without subscribers, does
// nothing.
func (t *Tracer) Emit(r Record) {
	if !t.Enabled() {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.subs) == 0 {
		return // the last subscriber left after Enabled
	}
	t.seq++
	r.Seq = t.seq
	r.Time = time.Now()
	for _, s := range t.subs {
		s.fn(r)
	}
}

// Subscribe calls fn with every record emitted from now on, until
// unsubscribe is called; after unsubscribe returns, fn is not called
// again. Subscribing to a nil Tracer does nothing.
//
// fn runs synchronously inside the component that emits, often while it
// holds its own lock (the API server emits a write while it commits it, so
// that records come in resourceVersion order). So fn must be quick, and it
// must not call back into the machinery — no request to the server, no
// Add to a queue, no Emit — or it may deadlock. To do slow work, hand the
// record to another goroutine, as [Tracer.Feed] does.
func (t *Tracer) Subscribe(fn func(Record)) (unsubscribe func()) {
	if t == nil {
		return func() {}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	id := t.next
	t.next++
	t.subs = append(t.subs, subscriber{id, fn})
	t.active.Store(int32(len(t.subs)))
	var once sync.Once
	return func() { once.Do(func() { t.unsubscribe(id) }) }
}

func (t *Tracer) unsubscribe(id int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.subs = slices.DeleteFunc(t.subs, func(s subscriber) bool { return s.id == id })
	t.active.Store(int32(len(t.subs)))
}
