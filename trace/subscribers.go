package trace

import (
	"slices"
	"sync"
	"sync/atomic"
)

// Recorder keeps every record a [Tracer] emits, for tests and for
// programs that render a run after it ended. It is safe for concurrent
// use.
type Recorder struct {
	mu   sync.Mutex // guards recs
	recs []Record

	stop func()
}

// NewRecorder subscribes a new Recorder to t. A Recorder of a nil Tracer
// records nothing.
func NewRecorder(t *Tracer) *Recorder {
	r := &Recorder{}
	r.stop = t.Subscribe(r.record)
	return r
}

func (r *Recorder) record(rec Record) {
	r.mu.Lock()
	r.recs = append(r.recs, rec)
	r.mu.Unlock()
}

// Records returns a copy of the records so far, oldest first.
func (r *Recorder) Records() []Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.recs)
}

// Reset forgets the records so far.
func (r *Recorder) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.recs = nil
}

// Stop unsubscribes the Recorder; it keeps the records it has. Stopping
// twice does nothing.
func (r *Recorder) Stop() { r.stop() }

// Feed delivers records over a buffered channel, for consumers that are
// slow or far away, such as a web page fed by Server-Sent Events. It never
// blocks the machinery: a record that finds the buffer full is dropped and
// counted ([Feed.Dropped]), so a consumer that falls behind loses records
// but never slows down a write or a queue. A consumer that must not lose
// any uses [Tracer.Subscribe] and keeps its callback quick.
type Feed struct {
	// C receives the records, oldest first. It is closed by [Feed.Close].
	C <-chan Record

	c       chan Record
	dropped atomic.Uint64
	stop    func()
	once    sync.Once
}

// Feed subscribes a Feed whose channel buffers size records (at least 1).
// The caller must call [Feed.Close] when done. A Feed of a nil Tracer
// receives nothing until closed.
func (t *Tracer) Feed(size int) *Feed {
	c := make(chan Record, max(size, 1))
	f := &Feed{C: c, c: c}
	f.stop = t.Subscribe(f.offer)
	return f
}

func (f *Feed) offer(r Record) {
	select {
	case f.c <- r:
	default:
		f.dropped.Add(1)
	}
}

// Dropped returns how many records found the buffer full and were lost.
// Their Seq numbers are missing from what C delivers.
func (f *Feed) Dropped() uint64 { return f.dropped.Load() }

// Close unsubscribes the Feed and closes C, after the records still
// buffered, which can still be read. Closing twice does nothing.
func (f *Feed) Close() {
	f.once.Do(func() {
		f.stop() // after this, offer is never called again
		close(f.c)
	})
}
