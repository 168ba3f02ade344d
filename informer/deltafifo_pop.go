package informer

import (
	"context"
	"slices"
)

// Pop waits until something is queued, takes the oldest key off the queue
// with all its pending deltas (one delta in in-order mode), and calls
// process (if not nil) with them while the FIFO is locked. It returns the
// deltas and process's error; the deltas are gone from the FIFO either way
// (client-go dropped its ErrRequeue long ago; retrying is the consumer's
// business).
//
// Pop returns ctx's error as soon as ctx is done, even with items queued,
// and [ErrFIFOClosed] when the FIFO is closed and empty: items queued
// before Close are still popped. A nil ctx waits forever.
//
// Several goroutines may Pop at once, but then two of them can process
// different deltas of the same object concurrently; informers use one.
func (f *DeltaFIFO[T]) Pop(ctx context.Context, process PopProcessFunc[T]) (Deltas[T], error) {
	if ctx == nil {
		ctx = context.Background()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.waitLocked(ctx); err != nil {
		return nil, err
	}
	isInInitialList := !f.hasSynced
	key, deltas := f.takeLocked()
	var err error
	if process != nil {
		err = process(key, deltas, isInInitialList)
	}
	// Only now, with the last initial item processed, may the FIFO count
	// as synced: Synced closes at once, and whoever waits on it must find
	// that item in the cache.
	if f.initialPopulationCount > 0 {
		f.initialPopulationCount--
		f.checkSyncedLocked()
	}
	return deltas, err
}

// waitLocked blocks on cond until something is queued, the FIFO is
// closed and empty, or ctx is done. Call with mu held.
func (f *DeltaFIFO[T]) waitLocked(ctx context.Context) error {
	var stop func() bool
	defer func() {
		if stop != nil {
			stop()
		}
	}()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if f.lenLocked() > 0 {
			return nil
		}
		if f.closed {
			return ErrFIFOClosed
		}
		if stop == nil {
			// Wake this wait when ctx ends. Taking mu orders the
			// broadcast after our Wait has started.
			stop = context.AfterFunc(ctx, func() {
				f.mu.Lock()
				defer f.mu.Unlock()
				f.cond.Broadcast()
			})
		}
		f.cond.Wait()
	}
}

// takeLocked removes the head of the queue. Call with mu held and the
// queue not empty.
func (f *DeltaFIFO[T]) takeLocked() (string, Deltas[T]) {
	if f.inOrder {
		ev := f.events[0]
		f.events[0] = keyedDelta[T]{}
		f.events = f.events[1:]
		return ev.key, Deltas[T]{ev.delta}
	}
	key := f.queue[0]
	f.queue[0] = ""
	f.queue = f.queue[1:]
	deltas := f.items[key]
	delete(f.items, key)
	if len(f.queue) == 0 {
		f.releaseDrainedLocked()
	}
	return key, deltas
}

// shrinkAfter is the backlog past which a drained queue gives its memory
// back rather than keep it for the next burst.
const shrinkAfter = 1024

// releaseDrainedLocked lets the garbage collector have the map buckets
// and queue array that a large backlog grew, once it has drained: without
// it an informer keeps, for its whole life, room for as many pending keys
// as its first list had objects. Call with mu held and the queue empty.
func (f *DeltaFIFO[T]) releaseDrainedLocked() {
	if f.peak > shrinkAfter {
		f.items = map[string]Deltas[T]{}
		f.queue = nil // its array is as big as the backlog was
		f.peak = 0
	}
}

// Close wakes every waiting Pop; from now on Pop drains what is queued
// and then returns [ErrFIFOClosed]. Add, Update and friends still work
// (as in client-go), so a producer racing with Close does not fail.
func (f *DeltaFIFO[T]) Close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	f.cond.Broadcast()
}

// IsClosed reports whether Close was called.
func (f *DeltaFIFO[T]) IsClosed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.closed
}

// HasSynced reports whether the first population has been delivered: the
// first Replace was called and every queue entry it left has been popped
// (and processed), or an Add, Update or Delete came before any Replace.
// Like client-go, it does not wait for later deltas.
func (f *DeltaFIFO[T]) HasSynced() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.hasSynced
}

// Synced returns a channel that is closed when HasSynced becomes true, so
// that callers can wait for sync without polling.
func (f *DeltaFIFO[T]) Synced() <-chan struct{} { return f.synced }

// ListKeys returns the queued keys in queue order (each once, also in
// in-order mode).
func (f *DeltaFIFO[T]) ListKeys() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.inOrder {
		return slices.Clone(f.queue)
	}
	keys := []string{}
	seen := map[string]bool{}
	for _, ev := range f.events {
		if !seen[ev.key] {
			seen[ev.key] = true
			keys = append(keys, ev.key)
		}
	}
	return keys
}

// Len returns the number of queue entries: keys in classic mode, deltas in
// in-order mode.
func (f *DeltaFIFO[T]) Len() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.lenLocked()
}
