package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"
)

// adviceDamaged is what to do about a damaged data directory.
const adviceDamaged = "the data directory is damaged: to start from what comes before the damage, " +
	"run storage.Recover on it (examples/serve: -recover), which moves the damaged part aside; " +
	"or start from a backup (Server.Snapshot)"

// Load reads the data directory, its snapshot and then its logs in order,
// and gives every record to in (see [Loader]): the snapshot's objects as
// ADDED, then each logged write. It returns the newest resourceVersion.
//
// Only the end of the last log may be cut off: a frame there that a crash
// cut short (the writes of a sync that never finished, which were never
// acknowledged) or zeros are dropped, the log is cut back to its last good
// frame, and the repair is logged ([Options.Logger], [Log.Repairs]). Any
// other bad frame, a record in refuses, or a record that is not newer
// than the one before it (two processes wrote the directory) is a
// [*StorageError] naming the file and the byte, and Load stops there:
// nothing is skipped without a word.
func (l *Log) Load(in Loader) (int64, error) {
	snapRV, err := l.loadSnapshot(in)
	if err != nil {
		return 0, err
	}
	names, froms, err := logs(l.dir)
	if err != nil {
		return 0, err
	}
	ld := loader{l: l, snapRV: snapRV, last: snapRV, a: &applier{Loader: in}}
	for i, name := range names {
		laterEmpty := func() bool { return allEmpty(names[i+1:]) }
		if err := ld.log(name, froms[i], laterEmpty); err != nil {
			return 0, err
		}
	}
	if l.counts.writes == 0 {
		l.counts.since = time.Time{} // a time the snapshot took in; the next write starts the count
	}
	return ld.last, nil
}

// loadSnapshot reads the directory's snapshot, if it has one, and
// returns its resourceVersion (0 if none).
func (l *Log) loadSnapshot(in Loader) (int64, error) {
	snap := filepath.Join(l.dir, snapshotName)
	f, err := os.Open(snap)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return 0, nil
	case err != nil:
		return 0, &StorageError{Path: snap, Offset: -1, Err: err}
	}
	defer f.Close()
	rv, err := ReadSnapshot(f, snap, in)
	if err != nil {
		return 0, err
	}
	if info, err := f.Stat(); err == nil {
		l.counts.snapBytes = info.Size()
	}
	return rv, nil
}

// loader is one Load under way.
type loader struct {
	l      *Log
	snapRV int64 // the snapshot's resourceVersion
	last   int64 // the newest resourceVersion applied
	a      *applier
}

// log applies the records of the log path, whose first resourceVersion
// is from. A log that starts before the snapshot holds writes that the
// snapshot has (a crash came between the snapshot and their removal, or
// the snapshot is newer than the log's start): they are skipped.
func (ld *loader) log(path string, from int64, laterEmpty func() bool) error {
	f, err := os.Open(path)
	if err != nil {
		return &StorageError{Path: path, Offset: -1, Err: err}
	}
	defer f.Close()
	ll := loadedLog{path: path, from: from}
	fr := newFrameReader(f)
	for {
		at := fr.off
		payload, err := fr.next()
		switch {
		case err == io.EOF:
			err = nil
		case errors.Is(err, errNoFrame):
			err = ld.l.repairTail(f, path, at, laterEmpty)
		case err != nil:
			err = &StorageError{Path: path, Offset: at, Err: err}
		default:
			err = fr.records(payload, func(rec Record) error {
				ll.nonEmpty, ll.lastRV = true, rec.RV
				return ld.a.add(pending{rec: rec, path: path, at: at, check: func(rec Record) (bool, error) { return ld.check(rec, from) }})
			})
			if errors.As(err, new(*StorageError)) {
				return err
			} else if err != nil {
				err = &StorageError{Path: path, Offset: at, Err: fmt.Errorf("%w; %s", err, adviceDamaged)}
			}
		}
		if err != nil || payload == nil {
			ll.end = fr.off
			ld.l.last = ll
			if err != nil {
				return err
			}
			return ld.a.flush()
		}
		ld.l.counts.bytes += int64(headerBytes + len(payload))
	}
}

// check checks, just before rec is applied, that it is newer than
// everything before it, and counts it; a record the snapshot has already
// is skipped.
//
// The age of what no snapshot holds is counted from the newest Time up
// to the first write counted: the first write after the last rotation
// has one (see Append), and the snapshot may hold it and a few more. A
// log an older version wrote has none; then from the first Time after.
func (ld *loader) check(rec Record, from int64) (skip bool, err error) {
	if c := &ld.l.counts; !rec.Time.IsZero() && (c.writes == 0 || c.since.IsZero()) {
		c.since = rec.Time
	}
	switch {
	case from <= ld.snapRV && rec.RV <= ld.snapRV:
		return true, nil // in the snapshot already
	case rec.RV <= ld.last || rec.RV < from:
		return false, fmt.Errorf("a write at resourceVersion %d after one at %d (a log from %d): two processes wrote this "+
			"directory at once, or it was put together from two", rec.RV, ld.last, from)
	}
	ld.last = rec.RV
	ld.l.counts.writes++
	return false, nil
}

// repairTail decides what the bytes of the log f from at on, where no
// frame is, are: a crash's cut (only possible at the end of the last log
// with data: laterEmpty) is cut off and logged; anything else is a
// [*StorageError].
func (l *Log) repairTail(f *os.File, path string, at int64, laterEmpty func() bool) error {
	info, err := f.Stat()
	if err != nil {
		return &StorageError{Path: path, Offset: at, Err: err}
	}
	rest := make([]byte, info.Size()-at)
	if _, err := f.ReadAt(rest, at); err != nil {
		return &StorageError{Path: path, Offset: at, Err: err}
	}
	dropped, err := classifyTail(rest)
	if err == nil && !isZero(rest) && !laterEmpty() {
		err = errors.New("a write cut short, with newer logs after it: a crash cuts only the last")
	}
	if err != nil {
		return &StorageError{Path: path, Offset: at, Err: fmt.Errorf("%w; %s", err, adviceDamaged)}
	}
	if err := os.Truncate(path, at); err != nil {
		return &StorageError{Path: path, Offset: at, Err: err}
	}
	r := Repair{Path: path, Offset: at, Dropped: int64(len(rest)), What: dropped}
	l.repairs = append(l.repairs, r)
	level, msg := slog.LevelWarn, "storage: cut the end off the last log: a write that a crash interrupted, never acknowledged"
	if isZero(rest) {
		level, msg = slog.LevelInfo, "storage: cut zeros off the end of the last log: no write lost"
	}
	l.opts.Logger.Log(context.Background(), level, msg, "file", path, "offset", at, "dropped_bytes", r.Dropped, "what", dropped)
	return nil
}

// allEmpty reports whether none of the logs paths holds a byte other than
// zero.
func allEmpty(paths []string) bool {
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil || !isZero(b) {
			return false
		}
	}
	return true
}
