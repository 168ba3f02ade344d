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

// ReadSnapshot reads a snapshot written by [WriteSnapshot], giving each
// object's record to in (see [Loader]), and returns its resourceVersion.
// name names the snapshot in errors. A snapshot is written whole and
// renamed into place, so anything but whole frames is damage here: a
// [*StorageError].
func ReadSnapshot(r io.Reader, name string, in Loader) (int64, error) {
	fr := newFrameReader(r)
	a := &applier{Loader: in}
	head := Record{RV: -1}
	for {
		at := fr.off
		payload, err := fr.next()
		switch {
		case err == io.EOF && head.RV >= 0:
			return head.RV, a.flush()
		case err == io.EOF:
			err = errors.New("no snapshot header: this is not a snapshot")
		case err == nil:
			err = fr.records(payload, func(rec Record) error {
				if head.RV < 0 {
					return snapshotHeader(&head, rec)
				}
				return a.add(pending{rec: rec, path: name, at: at, check: head.check})
			})
		}
		if errors.As(err, new(*StorageError)) {
			return 0, err
		} else if err != nil {
			return 0, &StorageError{Path: name, Offset: at, Err: err}
		}
	}
}

// snapshotHeader reads the first record of a snapshot, its header, into
// head.
func snapshotHeader(head *Record, rec Record) error {
	if rec.Type != SnapshotType {
		return fmt.Errorf("the first record is %q, not a snapshot header: this is not a snapshot", rec.Type)
	}
	*head = rec
	head.RV = max(head.RV, 0)
	return nil
}

// check checks a record of the snapshot whose header is h.
func (h *Record) check(rec Record) (bool, error) {
	if rec.Type != "ADDED" || rec.RV > h.RV {
		return false, fmt.Errorf("a %s record at resourceVersion %d in a snapshot taken at %d", rec.Type, rec.RV, h.RV)
	}
	return false, nil
}
