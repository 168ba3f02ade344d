package storage

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// DefaultSnapshotEvery is how many writes a [Log] takes before it asks
// for a snapshot and starts a new log file.
const DefaultSnapshotEvery = 10000

// snapshotName is the snapshot's file name in a data directory.
const snapshotName = "snapshot"

// Log is a data directory: a snapshot of every object, and the
// write-ahead logs of the writes since, as etcd's data directory holds its
// snapshot and WAL. Every committed write is appended (and synced) before
// the write is acknowledged ([Log.Append]); every so many writes the owner
// writes a snapshot and the logs it replaces are removed ([Log.Rotate]).
//
// A Log is safe for concurrent use, but its owner must call Append in
// resourceVersion order, as the API server does under its own lock.
type Log struct {
	dir   string
	every int

	mu       sync.Mutex // guards the fields below
	f        *os.File   // the current log, named by the first resourceVersion it may hold
	size     int64      // bytes of complete records in f
	logged   int        // records since the last snapshot
	rotating bool       // a snapshot is being written
	err      error      // once set (a failed write that could not be undone, Close), every Append fails with it
	buf      []byte

	snapMu sync.Mutex // serialises snapshot writers with Close
}

// Open opens the data directory dir, creating it if need be, for a Log
// that asks for a snapshot every every writes (DefaultSnapshotEvery if
// not positive). It reads nothing yet: [Log.Load] does, then
// [Log.Start].
func Open(dir string, every int) (*Log, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, &StorageError{Path: dir, Offset: -1, Err: err}
	}
	if every <= 0 {
		every = DefaultSnapshotEvery
	}
	return &Log{dir: dir, every: every}, nil
}

// Load reads the data directory, its snapshot and then its logs in order,
// and calls apply for every record (the snapshot's objects as ADDED,
// then each logged write newer than the snapshot). A record cut short at
// the end of the last log (a crash in the middle of a write, never
// acknowledged) is cut off; anywhere else it is damage, and an error. It
// returns the newest resourceVersion.
func (l *Log) Load(apply func(Record) error) (int64, error) {
	var last int64
	snap := filepath.Join(l.dir, snapshotName)
	switch f, err := os.Open(snap); {
	case err == nil:
		last, err = ReadSnapshot(f, snap, apply)
		f.Close()
		if err != nil {
			return 0, err
		}
	case !errors.Is(err, os.ErrNotExist):
		return 0, &StorageError{Path: snap, Offset: -1, Err: err}
	}
	names, _, err := logs(l.dir)
	if err != nil {
		return 0, err
	}
	for i, name := range names {
		if last, err = loadLog(name, last, i == len(names)-1, apply); err != nil {
			return 0, err
		}
	}
	return last, nil
}

// loadLog applies the records of one log newer than last.
func loadLog(name string, last int64, isLast bool, apply func(Record) error) (int64, error) {
	f, err := os.Open(name)
	if err != nil {
		return 0, &StorageError{Path: name, Offset: -1, Err: err}
	}
	defer f.Close()
	fr := newFrameReader(f)
	for {
		at := fr.good
		rec, err := fr.next()
		switch {
		case err == io.EOF:
			return last, nil
		case errors.Is(err, errTorn) && isLast:
			// The write the crash interrupted: it was never
			// acknowledged, so it is dropped.
			if err := os.Truncate(name, at); err != nil {
				return 0, &StorageError{Path: name, Offset: at, Err: err}
			}
			return last, nil
		case errors.Is(err, errTorn):
			return 0, &StorageError{Path: name, Offset: at, Err: fmt.Errorf("%w before the last log: the data directory is damaged; restore a snapshot", err)}
		case err != nil:
			return 0, &StorageError{Path: name, Offset: at, Err: err}
		}
		if rec.RV <= last {
			continue // already in the snapshot
		}
		if err := apply(rec); err != nil {
			return 0, &StorageError{Path: name, Offset: at, Err: err}
		}
		last = rec.RV
	}
}

// Start opens the newest log for appending, or starts one for the writes
// after resourceVersion last. Call it once, after Load.
func (l *Log) Start(last int64) error {
	_, froms, err := logs(l.dir)
	if err != nil {
		return err
	}
	from := last + 1
	if len(froms) > 0 {
		from = froms[len(froms)-1]
	}
	f, size, err := openLog(l.dir, from)
	if err != nil {
		return err
	}
	l.mu.Lock()
	l.f, l.size = f, size
	l.mu.Unlock()
	return nil
}

// Append writes rec at the end of the current log and syncs it to the
// disk. A write the disk refuses is not kept: the log is cut back to its
// last complete record and the error returned; if even that fails, every
// later Append fails.
func (l *Log) Append(rec Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return l.err
	}
	buf, err := appendFrame(l.buf[:0], rec)
	if err == nil {
		l.buf = buf
		_, err = l.f.Write(buf)
	}
	if err == nil {
		err = l.f.Sync()
	}
	if err != nil {
		if terr := l.f.Truncate(l.size); terr != nil {
			l.err = fmt.Errorf("a failed write could not be undone (%v): restart the server", terr)
		}
		return err
	}
	l.size += int64(len(buf))
	l.logged++
	return nil
}

// Close waits for a snapshot being written and closes the log: later
// Appends fail with [ErrClosed]. Closing twice does nothing.
func (l *Log) Close() error {
	l.snapMu.Lock()
	defer l.snapMu.Unlock()
	l.mu.Lock()
	defer l.mu.Unlock()
	if errors.Is(l.err, ErrClosed) {
		return nil
	}
	l.err = ErrClosed
	if l.f == nil {
		return nil
	}
	return l.f.Close()
}

// logName names the log whose first record is resourceVersion from, so
// that the names sort in resourceVersion order.
func logName(from int64) string { return fmt.Sprintf("wal-%020d.log", from) }

// openLog opens (creating it) the log in dir for records from
// resourceVersion from on, ready for appending, makes its name durable,
// and returns its size.
func openLog(dir string, from int64) (*os.File, int64, error) {
	path := filepath.Join(dir, logName(from))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, 0, &StorageError{Path: path, Offset: -1, Err: err}
	}
	info, err := f.Stat()
	if err == nil {
		err = syncDir(dir)
	}
	if err != nil {
		f.Close()
		return nil, 0, &StorageError{Path: path, Offset: -1, Err: err}
	}
	return f, info.Size(), nil
}

// syncDir makes the names in dir durable (a created or renamed file).
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// logs lists dir's log files with the first resourceVersion of each, in
// order.
func logs(dir string) ([]string, []int64, error) {
	names, err := filepath.Glob(filepath.Join(dir, "wal-*.log"))
	if err != nil {
		return nil, nil, err
	}
	slices.Sort(names)
	froms := make([]int64, 0, len(names))
	for _, n := range names {
		from, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(n), "wal-"), ".log"), 10, 64)
		if err != nil {
			return nil, nil, &StorageError{Path: n, Offset: -1, Err: errors.New("not a log name this server writes; move the file out of the data directory")}
		}
		froms = append(froms, from)
	}
	return names, froms, nil
}
