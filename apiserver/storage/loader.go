package storage

import (
	"fmt"
	"runtime"
	"sync"
)

// Loader is how the owner of a data directory takes in the records
// [Log.Load] and [ReadSnapshot] read. Decoding an object costs far more
// than reading its record, and needs no order: Load decodes a batch of
// records on every processor at once, then applies them one by one, in
// order.
type Loader struct {
	// Decode prepares a record for Apply (decodes its object, say). It
	// runs on several goroutines at once, in no order. Nil: nothing to
	// prepare.
	Decode func(Record) (any, error)
	// Apply makes the record, with what Decode made of it, the owner's
	// state. It is called in resourceVersion order.
	Apply func(Record, any) error
}

// loadBatch is how many records are decoded at once.
const loadBatch = 512

// pending is a record read but not applied yet: where it was (for
// errors), the checks that must come just before it is applied (check,
// which may say it is to be skipped), and what Decode made of it.
type pending struct {
	rec   Record
	path  string
	at    int64
	check func(Record) (skip bool, err error)
	val   any
	err   error
}

// applier gathers records and applies them through a Loader, a batch at
// a time.
type applier struct {
	Loader
	batch []pending
}

// add queues rec, applying the batch when it is full.
func (a *applier) add(p pending) error {
	a.batch = append(a.batch, p)
	if len(a.batch) < loadBatch {
		return nil
	}
	return a.flush()
}

// flush decodes the queued records on every processor, then checks and
// applies them in order. A check that fails is damage; a record that
// Decode or Apply refuses is the owner's refusal. Either is a
// [*StorageError] at the record's frame, and nothing after it is applied.
func (a *applier) flush() error {
	defer func() { clear(a.batch); a.batch = a.batch[:0] }()
	a.decodeAll()
	for i := range a.batch {
		p := &a.batch[i]
		skip, err := p.check(p.rec)
		switch {
		case err != nil:
			return &StorageError{Path: p.path, Offset: p.at, Err: fmt.Errorf("%w; %s", err, adviceDamaged)}
		case skip:
			continue
		case p.err == nil:
			p.err = a.Apply(p.rec, p.val)
		}
		if p.err != nil {
			return &StorageError{Path: p.path, Offset: p.at, Err: p.err}
		}
	}
	return nil
}

// decodeAll runs Decode on every queued record, on up to GOMAXPROCS
// goroutines, each taking every n-th record.
func (a *applier) decodeAll() {
	if a.Decode == nil {
		return
	}
	n := min(runtime.GOMAXPROCS(0), (len(a.batch)+63)/64)
	var wg sync.WaitGroup
	for w := range n {
		wg.Go(func() {
			for i := w; i < len(a.batch); i += n {
				p := &a.batch[i]
				p.val, p.err = a.Decode(p.rec)
			}
		})
	}
	wg.Wait()
}
