package storage

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of [Options].
const (
	// DefaultSnapshotBytes is how many bytes of log a data directory
	// holds at least before a snapshot replaces them.
	DefaultSnapshotBytes = 16 << 20
	// DefaultSnapshotAge is how old the oldest write not in a snapshot
	// may grow before a snapshot takes it in.
	DefaultSnapshotAge = time.Hour
)

// snapshotName is the snapshot's file name in a data directory.
const snapshotName = "snapshot"

// Options say when a [Log] asks for a snapshot, and where it reports the
// repairs it makes. The zero value asks for the defaults.
type Options struct {
	// SnapshotBytes: a snapshot is due once the logs since the last one
	// hold this many bytes, or as many as that snapshot (whichever is
	// more), so that a restart reads at most about twice the snapshot.
	// Default [DefaultSnapshotBytes].
	SnapshotBytes int64
	// SnapshotAge: a snapshot is due once the oldest logged write not in
	// a snapshot is this old, counted from the time the log keeps with
	// that write ([Record.Time]), so across restarts too: a process that
	// never lives an hour still snapshots an hour after the write.
	// Default [DefaultSnapshotAge].
	SnapshotAge time.Duration
	// SnapshotEvery, if positive, also makes a snapshot due every so many
	// writes. The counts go on across restarts: Load counts the writes
	// and bytes the logs hold, and reads the oldest write's time.
	SnapshotEvery int
	// Logger receives the repairs that [Log.Load] makes (a write cut short
	// by a crash, dropped). Default [slog.Default].
	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.SnapshotBytes <= 0 {
		o.SnapshotBytes = DefaultSnapshotBytes
	}
	if o.SnapshotAge <= 0 {
		o.SnapshotAge = DefaultSnapshotAge
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// Log is a data directory: a snapshot of every object, and the
// write-ahead logs of the writes since, as etcd's data directory holds its
// snapshot and WAL. Its owner appends every committed write ([Log.Append],
// in resourceVersion order, under its own lock) and acknowledges it only
// once [Log.Wait] says it is on the disk; concurrent writers share one
// sync (group commit). Every so often one of the writers writes a
// snapshot of the owner's objects, and the logs it replaces are removed.
//
// One process at a time: [Open] locks the directory (an advisory lock,
// as etcd and bbolt take one), and a second Open fails naming the
// process that holds it. A Log is safe for concurrent use.
type Log struct {
	dir  string
	opts Options
	lock *os.File // held while open

	mu   sync.Mutex // guards the fields below
	cond sync.Cond  // on mu: a sync ended
	seg  *segment   // the log appended to
	// pend is the writes appended since the last sync began, as frames
	// (frames holds where each starts) whose headers are not written yet.
	pend, spare         []byte
	frames, spareFrames []int
	queued              []batch        // writes of logs that a rotation left, to write first
	retired             []*segment     // logs that a rotation left, to sync and close
	appended            int64          // the newest resourceVersion appended
	synced              atomic.Int64   // the newest resourceVersion on the disk (read without mu)
	syncing             bool           // a writer is syncing (the leader)
	onSynced            func(rv int64) // told of every sync (Start)
	state               State          // the owner's objects, for snapshots (Start)
	err                 error          // once set (a failed sync, Close), Append and Wait fail with it
	counts              counts         // toward the next snapshot
	rotation            *rotation      // a snapshot due, or being written
	snapshotDue         atomic.Bool    // rotation is due and not taken (read without mu)
	last                loadedLog      // the newest log as Load left it
	repairs             []Repair       // what Load repaired
	snapMu              sync.Mutex     // serialises snapshot writers with Close
}

// counts are what decides whether a snapshot is due.
type counts struct {
	writes    int
	bytes     int64     // of logs since the last snapshot
	snapBytes int64     // of the last snapshot
	since     time.Time // the first write since the last snapshot (zero: none yet)
}

// loadedLog is the newest log as Load found it.
type loadedLog struct {
	path     string
	from     int64
	end      int64 // where its good frames end
	lastRV   int64 // its newest record's resourceVersion (0 if none)
	nonEmpty bool
}

// Repair is what [Log.Load] cut off the end of the last log: a write
// that a crash interrupted (never acknowledged), or zeros.
type Repair struct {
	Path    string // the log
	Offset  int64  // where its good frames end, and the cut
	Dropped int64  // how many bytes were cut off
	What    string // what they held
}

// Open opens the data directory dir, creating it if need be, and locks
// it for this process; a directory another process holds is a
// [*StorageError] naming that process. It reads nothing yet: [Log.Load]
// does, then [Log.Start].
func Open(dir string, opts Options) (*Log, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, &StorageError{Path: dir, Offset: -1, Err: err}
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	l := &Log{dir: dir, opts: opts.withDefaults(), lock: lock}
	l.cond.L = &l.mu
	return l, nil
}

// Repairs returns what [Log.Load] cut off the end of the last log, each
// also logged to [Options.Logger].
func (l *Log) Repairs() []Repair {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.repairs)
}

// Start makes the log ready for appending after resourceVersion last,
// which Load returned or more (a server that counts on from a higher
// resourceVersion starts a new log). onSynced, if not nil, is told the
// newest resourceVersion on the disk after every sync, before the writes
// it covers are acknowledged; state, if not nil, gives the objects when a
// snapshot is due (without it, none is written). Call it once, after
// Load.
func (l *Log) Start(last int64, onSynced func(rv int64), state State) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	ll := l.last
	var seg *segment
	var err error
	if ll.path != "" && (!ll.nonEmpty || ll.lastRV == last) {
		seg, err = openSegment(ll.path, ll.end)
	} else {
		seg, err = createSegment(l.dir, last+1)
	}
	if err != nil {
		return err
	}
	l.seg, l.appended, l.onSynced, l.state = seg, last, onSynced, state
	l.synced.Store(last)
	return nil
}

// Close writes and syncs what was appended, waits for a snapshot being
// written, and closes the log and the directory's lock: later Appends
// fail with [ErrClosed]. Closing twice, or a nil Log (an owner that keeps
// no log, as an in-memory server), does nothing.
func (l *Log) Close() error {
	if l == nil {
		return nil
	}
	l.snapMu.Lock()
	defer l.snapMu.Unlock()
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.syncing {
		l.cond.Wait()
	}
	if errors.Is(l.err, ErrClosed) {
		return nil
	}
	if l.err == nil && (len(l.pend) > 0 || len(l.queued) > 0 || len(l.retired) > 0) {
		l.lead()
	}
	err := l.err
	l.err = ErrClosed
	l.cond.Broadcast()
	if l.seg != nil {
		err = errors.Join(err, l.seg.close())
	}
	for _, s := range l.retired {
		s.f.Close()
	}
	return errors.Join(err, l.lock.Close())
}

// logName names the log whose first record is resourceVersion from, so
// that the names sort in resourceVersion order.
func logName(from int64) string { return fmt.Sprintf("wal-%020d.log", from) }

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
