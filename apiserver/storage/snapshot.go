package storage

import (
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
)

// Rotation is a snapshot that a [Log] asked for: the objects as of
// resourceVersion RV, to be written with [Rotation.Write] outside the
// owner's lock. The log already appends to a new file.
type Rotation struct {
	l *Log
	// RV is the resourceVersion the snapshot must hold the objects at.
	RV int64
}

// Rotate starts a new log file and returns the snapshot to write, if the
// current file holds enough writes since the last snapshot and none is
// being written; otherwise nil. rv is the newest resourceVersion, which
// the last Append wrote. Call it in the same order as Append.
func (l *Log) Rotate(rv int64) *Rotation {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil || l.rotating || l.logged < l.every {
		return nil
	}
	f, size, err := openLog(l.dir, rv+1)
	if err != nil {
		return nil // the old log goes on; the next write tries again
	}
	l.f.Close()
	l.f, l.size, l.logged, l.rotating = f, size, 0, true
	return &Rotation{l: l, RV: rv}
}

// Write writes the snapshot of records (one ADDED record per object, as
// of r.RV), then removes the logs it makes unneeded. A failure leaves the
// logs in place: nothing is lost, the next snapshot tries again.
func (r *Rotation) Write(records iter.Seq[Record]) error {
	l := r.l
	l.snapMu.Lock()
	defer l.snapMu.Unlock()
	err := writeSnapshotFile(l.dir, r.RV, records)
	l.mu.Lock()
	l.rotating = false
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
func writeSnapshotFile(dir string, rv int64, records iter.Seq[Record]) error {
	tmp := filepath.Join(dir, snapshotName+".tmp")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	err = WriteSnapshot(f, rv, records)
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
	return err
}

// WriteSnapshot writes a snapshot taken at resourceVersion rv to w: the
// header, then records (each an ADDED record of one object), as
// `etcdctl snapshot save` writes one of a cluster.
func WriteSnapshot(w io.Writer, rv int64, records iter.Seq[Record]) error {
	buf, err := appendFrame(nil, Record{RV: rv, Type: SnapshotType})
	if err != nil {
		return err
	}
	for rec := range records {
		if buf, err = appendFrame(buf, rec); err != nil {
			return err
		}
		if len(buf) >= 1<<20 {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	_, err = w.Write(buf)
	return err
}

// ReadSnapshot reads a snapshot written by [WriteSnapshot], calling apply
// for each object's record, and returns its resourceVersion. name names
// the snapshot in errors. A snapshot is written whole and renamed into
// place, so a record cut short is damage here: a [*StorageError].
func ReadSnapshot(r io.Reader, name string, apply func(Record) error) (int64, error) {
	fr := newFrameReader(r)
	head, err := fr.next()
	if err == nil && head.Type != SnapshotType {
		err = fmt.Errorf("the first record is %q, not a snapshot header: this is not a snapshot", head.Type)
	}
	if err != nil {
		return 0, &StorageError{Path: name, Offset: 0, Err: err}
	}
	for {
		at := fr.good
		rec, err := fr.next()
		if err == io.EOF {
			return head.RV, nil
		}
		if err == nil && (rec.Type != "ADDED" || rec.RV > head.RV) {
			err = fmt.Errorf("a %s record at resourceVersion %d in a snapshot taken at %d", rec.Type, rec.RV, head.RV)
		}
		if err == nil {
			err = apply(rec)
		}
		if err != nil {
			return 0, &StorageError{Path: name, Offset: at, Err: err}
		}
	}
}
