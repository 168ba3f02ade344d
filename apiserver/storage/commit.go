package storage

import (
	"fmt"
	"runtime"
	"slices"
	"time"
)

// Group commit: how writes reach the disk.
//
// Append only adds a write's record to the batch of pending writes, in
// memory, under the owner's lock; nothing waits there. A writer then
// calls Wait, outside the owner's lock, for its own resourceVersion. The
// first writer to find no sync under way becomes the leader: it lets the
// writers that are ready to run append first (gatherLocked), takes the
// whole batch, writes it as one frame with one write, syncs the file
// once, and wakes everyone whose write that sync covered; writers who
// came meanwhile wait, and the next of them leads the next batch. So
// sixteen writers at once share about one sync, and one writer alone
// pays one sync per write, as before. etcd commits its raft log the same
// way.

// batch is writes for one log file, as frames whose headers are yet to be
// written (frames holds where each starts in buf).
type batch struct {
	seg    *segment
	off    int64
	buf    []byte
	frames []int
}

// Append adds rec, a committed write, to the writes the next sync makes
// durable. Call it in resourceVersion order (under the owner's lock), and
// acknowledge the write only once [Log.Wait] for rec.RV returns. It fails
// only once the log has failed or is closed.
func (l *Log) Append(rec Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return l.err
	}
	if n := len(l.frames); n == 0 || len(l.pend)-l.frames[n-1] >= frameTarget {
		l.frames = append(l.frames, len(l.pend))
		l.pend = append(l.pend, make([]byte, headerBytes)...)
	}
	now := time.Now()
	if l.counts.since.IsZero() {
		// The first write no snapshot holds: the log says when it came,
		// so that its age goes on across restarts (see Load).
		rec.Time = now.UTC().Truncate(time.Microsecond)
		l.counts.since = rec.Time
	}
	before := len(l.pend)
	l.pend = appendRecord(l.pend, rec)
	l.appended = rec.RV
	l.counts.writes++
	l.counts.bytes += int64(len(l.pend) - before)
	if l.rotation == nil && l.state != nil && snapshotDue(l.counts, l.opts, now) {
		l.rotateLocked(rec.RV)
	}
	return nil
}

// Wait returns once every write appended up to resourceVersion rv is on
// the disk (at once on a nil Log), syncing it if no other writer is (see above), and, when a
// snapshot is due, after writing it. An error means the disk refused a
// write: the log is broken (every later Append and Wait fails), and what
// was not synced may be lost; restart the server, which finds every
// write acknowledged before.
func (l *Log) Wait(rv int64) error {
	if l == nil || l.synced.Load() >= rv && !l.snapshotDue.Load() {
		return nil // no log (see Close), or nothing to wait for
	}
	l.mu.Lock()
	rv = min(rv, l.appended) // nothing newer to wait for
	for l.synced.Load() < rv {
		switch {
		case l.err != nil:
			l.mu.Unlock()
			return l.err
		case l.syncing:
			l.cond.Wait()
		default:
			l.lead()
		}
	}
	r := l.takeRotationLocked()
	l.mu.Unlock()
	if r != nil {
		l.writeSnapshot(r)
	}
	return nil
}

// lead writes and syncs every pending write, as the leader (see above).
// l.mu must be held; it is released while the disk works.
func (l *Log) lead() {
	l.syncing = true
	l.gatherLocked()
	work, retired, last := l.takeLocked()
	l.mu.Unlock()
	err := writeAndSync(work, retired)
	if err == nil && l.onSynced != nil {
		l.onSynced(last)
	}
	l.mu.Lock()
	l.syncing = false
	if err != nil {
		l.err = fmt.Errorf("a write to the disk failed, and the writes since the last sync may be lost: "+
			"restart the server (it finds every write it acknowledged): %w", err)
	} else {
		l.synced.Store(last)
	}
	if n := len(work); n > 0 && l.spare == nil {
		l.spare, l.spareFrames = work[n-1].buf[:0], work[n-1].frames[:0]
	}
	l.cond.Broadcast()
}

// gatherRounds bounds how often a leader yields to let writers that are
// about to append join its sync.
const gatherRounds = 8

// gatherLocked lets the writers that can run now (those the last sync
// woke, on their way to their next write) append before the leader takes
// the batch: it yields, and again while each yield brought a write, up to
// gatherRounds times. One writer alone loses one yield; sixteen share a
// sync about half again as often as without. l.mu must be held (and is
// released while yielding), with l.syncing set so that no one else leads.
func (l *Log) gatherLocked() {
	for range gatherRounds {
		n := l.appended
		l.mu.Unlock()
		runtime.Gosched()
		l.mu.Lock()
		if l.appended == n {
			return
		}
	}
}

// takeLocked hands the pending writes to the leader, each batch placed in
// its file, with the logs that rotations left (to close) and the newest
// resourceVersion they hold. l.mu must be held.
func (l *Log) takeLocked() (work []batch, retired []*segment, last int64) {
	work, l.queued = l.queued, nil
	if len(l.pend) > 0 {
		work = append(work, batch{seg: l.seg, buf: l.pend, frames: l.frames})
		l.pend, l.frames, l.spare, l.spareFrames = l.spare, l.spareFrames, nil, nil
	}
	for i := range work {
		b := &work[i]
		b.off = b.seg.end
		b.seg.end += int64(len(b.buf))
	}
	retired, l.retired = l.retired, nil
	return work, retired, l.appended
}

// writeAndSync writes work in order. Each log a rotation left gets its
// last writes, then is synced and closed before anything is written to a
// newer one, so that a crash can cut only the last log; the current one
// is synced last.
func writeAndSync(work []batch, retired []*segment) error {
	for _, old := range retired {
		for _, b := range work {
			if b.seg == old {
				if err := b.write(); err != nil {
					return err
				}
			}
		}
		if err := old.close(); err != nil {
			return err
		}
	}
	var cur *segment
	for _, b := range work {
		if slices.Contains(retired, b.seg) {
			continue
		}
		if err := b.write(); err != nil {
			return err
		}
		cur = b.seg
	}
	if cur != nil {
		if err := datasync(cur.f); err != nil {
			return &StorageError{Path: cur.path, Offset: -1, Err: err}
		}
	}
	return nil
}

// write seals b's frames and writes them in place.
func (b batch) write() error {
	for j, start := range b.frames {
		end := len(b.buf)
		if j+1 < len(b.frames) {
			end = b.frames[j+1]
		}
		sealFrame(b.buf[start:end])
	}
	if err := b.seg.write(b.buf, b.off); err != nil {
		return &StorageError{Path: b.seg.path, Offset: b.off, Err: err}
	}
	return nil
}
