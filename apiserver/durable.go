package apiserver

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// DefaultSnapshotEvery is how many writes a durable server logs before it
// writes a snapshot and starts a new log (see [Options.SnapshotEvery]).
const DefaultSnapshotEvery = 10000

// StorageError says what is wrong with a durable server's data directory
// or a snapshot: which file, where in it, and what to do.
type StorageError struct {
	Path   string // the file (or directory)
	Offset int64  // the byte where the bad record starts, or -1
	Err    error
}

// Error says which file, where in it, and what is wrong.
func (e *StorageError) Error() string {
	if e.Offset < 0 {
		return fmt.Sprintf("apiserver storage: %s: %v", e.Path, e.Err)
	}
	return fmt.Sprintf("apiserver storage: %s: record at byte %d: %v", e.Path, e.Offset, e.Err)
}

// Unwrap returns the underlying error, for errors.Is and errors.As.
func (e *StorageError) Unwrap() error { return e.Err }

// disk is a durable server's write-ahead log: the file that every
// committed write is appended to (and synced) before the write is
// acknowledged. Its fields are guarded by the server's mu.
type disk struct {
	dir      string
	f        *os.File // the current log, named by the first resourceVersion it may hold
	size     int64    // bytes of complete records in f
	logged   int      // records since the last snapshot
	every    int      // Options.SnapshotEvery
	rotating bool     // a snapshot is being written
	err      error    // once set (a failed write that could not be undone, Close), every write fails with it
	buf      []byte
	snapMu   sync.Mutex // serialises snapshot writers with Close
}

// Open returns a server that keeps every acknowledged write in dir, as
// the real API server keeps them in etcd, and that starts from what dir
// holds: the same objects at the same resourceVersions. A client of the
// previous process that watches from an older resourceVersion gets 410
// Expired and lists again, as after a compaction: the history of events
// before the restart is not kept, only the objects.
//
// A write is appended to a log file in dir and synced to the disk before
// the server answers it; every [Options.SnapshotEvery] writes the server
// writes a snapshot of all objects and starts a new log. A process killed
// at any moment loses nothing it acknowledged, and a write it did not
// acknowledge is either wholly there or not at all: a record cut short by
// the crash is found by its checksum and dropped when dir is opened again.
//
// All kinds stored in dir must be registered in scheme before Open. To
// restore a backup made with [Server.Snapshot], put it into an empty
// directory under the name "snapshot" and Open that directory. Call
// [Server.Close] when done; a closed server refuses writes.
func Open(scheme *meta.Scheme, dir string, opts Options) (*Server, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, &StorageError{Path: dir, Offset: -1, Err: err}
	}
	s := NewServer(scheme, opts)
	last, err := s.loadDir(dir)
	if err != nil {
		return nil, err
	}
	start := max(last, s.opts.ResourceVersionStart, 1)
	s.hist = newHistory(s.opts.HistorySize, start)
	// Append to the newest log, or start one. (A log's name is the lowest
	// resourceVersion it may hold.)
	d := &disk{dir: dir, every: s.opts.SnapshotEvery}
	_, froms, err := logs(dir)
	if err != nil {
		return nil, err
	}
	from := start + 1
	if len(froms) > 0 {
		from = froms[len(froms)-1]
	}
	if d.f, err = d.openLog(from); err != nil {
		return nil, err
	}
	s.disk = d
	return s, nil
}

// Close closes a durable server's log: later writes fail with 500
// InternalError, reads go on. On a server made by [NewServer] or
// [Restore] it does nothing.
func (s *Server) Close() error {
	s.mu.Lock()
	d := s.disk
	s.mu.Unlock()
	if d == nil {
		return nil
	}
	d.snapMu.Lock() // wait for a snapshot being written
	defer d.snapMu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if errors.Is(d.err, errClosed) {
		return nil
	}
	d.err = errClosed
	return d.f.Close()
}

var errClosed = errors.New("the server is closed")

// logName names the log whose first record is resourceVersion from, so
// that the names sort in resourceVersion order.
func logName(from int64) string { return fmt.Sprintf("wal-%020d.log", from) }

// openLog opens (creating it) the log for records from resourceVersion
// from on, ready for appending, and makes its name durable.
func (d *disk) openLog(from int64) (*os.File, error) {
	path := filepath.Join(d.dir, logName(from))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, &StorageError{Path: path, Offset: -1, Err: err}
	}
	info, err := f.Stat()
	if err == nil {
		d.size = info.Size()
		err = syncDir(d.dir)
	}
	if err != nil {
		f.Close()
		return nil, &StorageError{Path: path, Offset: -1, Err: err}
	}
	return f, nil
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
