package apiserver

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// persistLocked appends the write that commitLocked is about to make to
// the log and syncs it, on a durable server (see [Open]); elsewhere it
// does nothing. A write the disk refuses is not committed: the log is cut
// back to its last complete record and the request fails with 500; if
// even that fails, the server refuses every later write. s.mu must be
// held.
func (s *Server) persistLocked(key string, ch change) error {
	d := s.disk
	if d == nil {
		return nil
	}
	if d.err != nil {
		return meta.NewInternalError(fmt.Errorf("storage: %w", d.err))
	}
	tm := ch.obj.obj.GetTypeMeta()
	rec := record{RV: s.hist.last + 1, Type: ch.typ, APIVersion: tm.APIVersion, Kind: tm.Kind, Key: key}
	if ch.typ != meta.EventDeleted {
		rec.Object = ch.obj.content
	}
	buf, err := appendFrame(d.buf[:0], rec)
	if err == nil {
		d.buf = buf
		_, err = d.f.Write(buf)
	}
	if err == nil {
		err = d.f.Sync()
	}
	if err != nil {
		if terr := d.f.Truncate(d.size); terr != nil {
			d.err = fmt.Errorf("a failed write could not be undone (%v): restart the server", terr)
		}
		return meta.NewInternalError(fmt.Errorf("storage: %w", err))
	}
	d.size += int64(len(buf))
	d.logged++
	return nil
}

// pendingSnapshot is a snapshot that a durable server decided to write
// after a commit: the objects at resourceVersion rv, written outside the
// lock (entries never change once committed).
type pendingSnapshot struct {
	d       *disk
	rv      int64
	entries []*entry
}

// snapshotDueLocked starts a new log after every Options.SnapshotEvery
// writes and returns the snapshot to write, or nil. s.mu must be held.
func (s *Server) snapshotDueLocked() *pendingSnapshot {
	d := s.disk
	if d == nil || d.err != nil || d.rotating || d.logged < d.every {
		return nil
	}
	f, err := d.openLog(s.hist.last + 1)
	if err != nil {
		return nil // the old log goes on; the next write tries again
	}
	d.f.Close()
	d.f, d.logged, d.rotating = f, 0, true
	return &pendingSnapshot{d: d, rv: s.hist.last, entries: s.entriesLocked()}
}

// write writes the snapshot, then removes the logs it makes unneeded.
// A failure leaves the logs in place: nothing is lost, the next snapshot
// tries again.
func (p *pendingSnapshot) write(s *Server) {
	p.d.snapMu.Lock()
	defer p.d.snapMu.Unlock()
	err := writeSnapshotFile(p.d.dir, p.rv, p.entries)
	s.mu.Lock()
	p.d.rotating = false
	s.mu.Unlock()
	if err != nil {
		return
	}
	names, froms, err := logs(p.d.dir)
	if err != nil {
		return
	}
	for i, name := range names {
		if froms[i] <= p.rv {
			os.Remove(name)
		}
	}
}

// writeSnapshotFile writes a snapshot beside the old one and renames it
// into place, so that a crash leaves one whole snapshot or the other.
func writeSnapshotFile(dir string, rv int64, entries []*entry) error {
	tmp := filepath.Join(dir, snapshotName+".tmp")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	err = writeSnapshot(f, rv, entries)
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

// entriesLocked returns every stored object in [Server.storedLocked]'s
// order, so that snapshots of the same state are the same bytes. s.mu
// must be held.
func (s *Server) entriesLocked() []*entry {
	all := s.storedLocked()
	out := make([]*entry, len(all))
	for i, st := range all {
		out[i] = st.e
	}
	return out
}

// Snapshot writes every object the server holds, at one resourceVersion
// (which it returns), to w: a backup, as `etcdctl snapshot save` makes
// one of a cluster. [Restore] reads it back, and [Open] reads it as a data
// directory's "snapshot" file. Writes go on meanwhile: the snapshot is the
// state at the returned resourceVersion, not later.
func (s *Server) Snapshot(w io.Writer) (resourceVersion string, err error) {
	s.mu.Lock()
	rv, entries := s.hist.last, s.entriesLocked()
	s.mu.Unlock()
	return formatRV(rv), writeSnapshot(w, rv, entries)
}

// writeSnapshot writes the header and one ADDED record per entry.
func writeSnapshot(w io.Writer, rv int64, entries []*entry) error {
	buf, err := appendFrame(nil, record{RV: rv, Type: snapshotType})
	if err != nil {
		return err
	}
	for _, e := range entries {
		om, tm := e.obj.GetObjectMeta(), e.obj.GetTypeMeta()
		rec := record{RV: e.rv, Type: meta.EventAdded, APIVersion: tm.APIVersion, Kind: tm.Kind,
			Key: objectKey(om.Namespace, om.Name), Object: e.content}
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
