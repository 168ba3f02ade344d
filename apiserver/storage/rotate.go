package storage

import (
	"iter"
	"os"
	"time"
)

// Snapshots: when an Append finds one due (see [Options]), it starts a
// new log for the writes after it, under the owner's lock, so that the
// logs before hold exactly the writes up to there. The next writer to
// come out of Wait then writes the snapshot, outside every lock but the
// snapshot's own: it asks the owner for its objects (Start's state),
// which may by then be newer than the rotation (Load skips the writes a
// snapshot holds already), and removes the logs the snapshot replaces.

// rotation is a snapshot due: the logs up to resourceVersion at are to be
// replaced.
type rotation struct {
	at    int64
	taken bool // a writer is writing it
}

// snapshotDue reports whether logs that hold c are big enough, or old
// enough at now, for a snapshot (see [Options]).
func snapshotDue(c counts, o Options, now time.Time) bool {
	switch {
	case c.writes == 0:
		return false
	case o.SnapshotEvery > 0 && c.writes >= o.SnapshotEvery:
		return true
	case c.bytes >= max(o.SnapshotBytes, c.snapBytes):
		return true
	}
	return now.Sub(c.since) >= o.SnapshotAge
}

// rotateLocked starts a new log for the writes after rv, the newest
// appended, and marks a snapshot due. l.mu must be held.
func (l *Log) rotateLocked(rv int64) {
	seg, err := createSegment(l.dir, rv+1)
	if err != nil {
		return // the old log goes on; the next write tries again
	}
	if len(l.pend) > 0 {
		l.queued = append(l.queued, batch{seg: l.seg, buf: l.pend, frames: l.frames})
		l.pend, l.frames = nil, nil
	}
	l.retired = append(l.retired, l.seg)
	l.seg, l.rotation = seg, &rotation{at: rv}
	l.counts.writes, l.counts.bytes, l.counts.since = 0, 0, time.Time{}
	l.snapshotDue.Store(true)
}

// takeRotationLocked returns the snapshot due for the caller to write,
// if there is one and no one else writes it. l.mu must be held.
func (l *Log) takeRotationLocked() *rotation {
	r := l.rotation
	if r == nil || r.taken || l.err != nil {
		return nil
	}
	r.taken = true
	l.snapshotDue.Store(false)
	return r
}

// writeSnapshot writes the snapshot of the owner's objects, then removes
// the logs it replaces. A failure leaves them in place: nothing is lost,
// and a later snapshot replaces them.
func (l *Log) writeSnapshot(r *rotation) {
	l.snapMu.Lock()
	defer l.snapMu.Unlock()
	var size int64
	var err error
	if l.state != nil {
		rv, records := l.state()
		size, err = writeSnapshotFile(l.dir, rv, records)
	}
	l.mu.Lock()
	l.rotation = nil
	if err == nil {
		l.counts.snapBytes = size
	}
	l.mu.Unlock()
	if err != nil {
		return
	}
	names, froms, err := logs(l.dir)
	if err != nil {
		return
	}
	for i, name := range names {
		if froms[i] <= r.at {
			os.Remove(name)
		}
	}
}

// State returns what a snapshot must hold: the owner's newest
// resourceVersion, and one ADDED record per object as of it.
type State func() (rv int64, objects iter.Seq[Record])
