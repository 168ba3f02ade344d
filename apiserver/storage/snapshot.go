package storage

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
)

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
