package storage

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"time"
)

// Rotation is a snapshot that a [Log] asked for: the objects as of
// resourceVersion RV, to be written with [Rotation.Write] outside the
// owner's lock. The log already appends to a new file.
type Rotation struct {
	l *Log
	// RV is the resourceVersion the snapshot must hold the objects at.
	RV     int64
	counts counts // what the logs it replaces held
}

// Rotate starts a new log file and returns the snapshot to write, if one
// is due (see [Options]) and none is being written; otherwise nil. rv is
// the newest resourceVersion, which the last Append wrote. Call it in
// the same order as Append: the new log takes the writes after rv.
func (l *Log) Rotate(rv int64) *Rotation {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil || l.rotating || !snapshotDue(l.counts, l.opts, time.Now()) {
		return nil
	}
	seg, err := createSegment(l.dir, rv+1)
	if err != nil {
		return nil // the old log goes on; the next write tries again
	}
	if len(l.pend) > 0 {
		l.queued = append(l.queued, batch{seg: l.seg, buf: l.pend, frames: l.frames})
		l.pend, l.frames = nil, nil
	}
	l.retired = append(l.retired, l.seg)
	l.seg, l.rotating = seg, true
	r := &Rotation{l: l, RV: rv, counts: l.counts}
	l.counts.writes, l.counts.bytes = 0, 0
	return r
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

// Write writes the snapshot of records (one ADDED record per object, as
// of r.RV), then removes the logs it makes unneeded. A failure leaves the
// logs in place: nothing is lost, and the next write that finds a
// snapshot due tries again.
func (r *Rotation) Write(records iter.Seq[Record]) error {
	l := r.l
	l.snapMu.Lock()
	defer l.snapMu.Unlock()
	size, err := writeSnapshotFile(l.dir, r.RV, records)
	l.mu.Lock()
	l.rotating = false
	if err != nil {
		l.counts.writes += r.counts.writes
		l.counts.bytes += r.counts.bytes
	} else {
		l.counts.snapBytes, l.counts.since = size, time.Now()
	}
	l.mu.Unlock()
	if err != nil {
		return err
	}
	names, froms, err := logs(l.dir)
	if err != nil {
		return err
	}
	for i, name := range names {
		if froms[i] <= r.RV {
			os.Remove(name)
		}
	}
	return nil
}

// writeSnapshotFile writes a snapshot beside the old one and renames it
// into place, so that a crash leaves one whole snapshot or the other.
func writeSnapshotFile(dir string, rv int64, records iter.Seq[Record]) (int64, error) {
	tmp := filepath.Join(dir, snapshotName+".tmp")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return 0, err
	}
	err = WriteSnapshot(f, rv, records)
	var size int64
	if err == nil {
		size, err = f.Seek(0, io.SeekCurrent)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, snapshotName))
	}
	if err == nil {
		err = syncDir(dir)
	}
	return size, err
}

// WriteSnapshot writes a snapshot taken at resourceVersion rv to w: the
// header, then records (each an ADDED record of one object), as
// `etcdctl snapshot save` writes one of a cluster.
func WriteSnapshot(w io.Writer, rv int64, records iter.Seq[Record]) error {
	buf := appendFrame(nil, Record{RV: rv, Type: SnapshotType})
	for rec := range records {
		buf = appendFrame(buf, rec)
		if len(buf) >= 1<<20 {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	_, err := w.Write(buf)
	return err
}

// ReadSnapshot reads a snapshot written by [WriteSnapshot], calling apply
// for each object's record, and returns its resourceVersion. name names
// the snapshot in errors. A snapshot is written whole and renamed into
// place, so anything but whole frames is damage here: a [*StorageError].
func ReadSnapshot(r io.Reader, name string, apply func(Record) error) (int64, error) {
	fr := newFrameReader(r)
	head := Record{RV: -1}
	for {
		at := fr.off
		payload, err := fr.next()
		switch {
		case err == io.EOF && head.RV >= 0:
			return head.RV, nil
		case err == io.EOF:
			err = errors.New("no snapshot header: this is not a snapshot")
		case err == nil:
			err = decodeRecords(payload, func(rec Record) error { return snapshotRecord(&head, rec, apply) })
		}
		if err != nil {
			return 0, &StorageError{Path: name, Offset: at, Err: err}
		}
	}
}

// snapshotRecord checks one record of a snapshot whose header (RV -1
// until it is read) is head, and applies it.
func snapshotRecord(head *Record, rec Record, apply func(Record) error) error {
	switch {
	case head.RV < 0 && rec.Type != SnapshotType:
		return fmt.Errorf("the first record is %q, not a snapshot header: this is not a snapshot", rec.Type)
	case head.RV < 0:
		*head = rec
		head.RV = max(head.RV, 0)
		return nil
	case rec.Type != "ADDED" || rec.RV > head.RV:
		return fmt.Errorf("a %s record at resourceVersion %d in a snapshot taken at %d", rec.Type, rec.RV, head.RV)
	}
	return apply(rec)
}
