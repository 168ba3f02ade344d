package apiserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// snapshotName is the snapshot's file name in a data directory.
const snapshotName = "snapshot"

// Restore returns an in-memory server holding what a snapshot written by
// [Server.Snapshot] holds: the same objects at the same resourceVersions.
// This is the backup scene of the stories (etcdctl snapshot restore, or
// Velero): clients of the server the snapshot came from must list again.
// A restored server counts on from the snapshot's resourceVersion unless
// opts.ResourceVersionStart is higher — set it (e.g. with
// [ResourceVersionFromClock]) when the old server went on writing after
// the snapshot, as etcdutl's --bump-revision does, so that no client
// mistakes a resourceVersion of the old server for one of the new.
// Either way every older resourceVersion answers 410 Expired, as after a
// compaction (etcdutl's --mark-compacted).
func Restore(scheme *meta.Scheme, r io.Reader, opts Options) (*Server, error) {
	s := NewServer(scheme, opts)
	last, err := s.loadSnapshot(r, "snapshot")
	if err != nil {
		return nil, err
	}
	s.hist = newHistory(s.opts.HistorySize, max(last, s.opts.ResourceVersionStart))
	return s, nil
}

// loadDir fills s from a data directory: its snapshot, then its logs in
// order. A record cut short at the end of the last log (a crash in the
// middle of a write) is cut off; anywhere else it is damage, and an error.
// It returns the newest resourceVersion.
func (s *Server) loadDir(dir string) (int64, error) {
	var last int64
	snap := filepath.Join(dir, snapshotName)
	switch f, err := os.Open(snap); {
	case err == nil:
		last, err = s.loadSnapshot(f, snap)
		f.Close()
		if err != nil {
			return 0, err
		}
	case !errors.Is(err, os.ErrNotExist):
		return 0, &StorageError{Path: snap, Offset: -1, Err: err}
	}
	names, _, err := logs(dir)
	if err != nil {
		return 0, err
	}
	for i, name := range names {
		if last, err = s.loadLog(name, last, i == len(names)-1); err != nil {
			return 0, err
		}
	}
	return last, nil
}

// loadLog applies the records of one log newer than last.
func (s *Server) loadLog(name string, last int64, isLast bool) (int64, error) {
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
		if err := s.applyRecord(rec); err != nil {
			return 0, &StorageError{Path: name, Offset: at, Err: err}
		}
		last = rec.RV
	}
}

// loadSnapshot applies a snapshot and returns its resourceVersion. A
// snapshot is written whole and renamed into place, so a record cut short
// is damage here.
func (s *Server) loadSnapshot(r io.Reader, name string) (int64, error) {
	fr := newFrameReader(r)
	head, err := fr.next()
	if err == nil && head.Type != snapshotType {
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
		if err == nil && (rec.Type != meta.EventAdded || rec.RV > head.RV) {
			err = fmt.Errorf("a %s record at resourceVersion %d in a snapshot taken at %d", rec.Type, rec.RV, head.RV)
		}
		if err == nil {
			err = s.applyRecord(rec)
		}
		if err != nil {
			return 0, &StorageError{Path: name, Offset: at, Err: err}
		}
	}
}

// applyRecord makes one logged write the state of its key, as
// commitLocked did when it was made, without history or watchers.
func (s *Server) applyRecord(rec record) error {
	gvk := meta.ParseGroupVersion(rec.APIVersion).WithKind(rec.Kind)
	info, ok := s.scheme.KindForGVK(gvk)
	if !ok {
		return fmt.Errorf("kind %s is not registered: register every kind the data holds in the scheme before opening it", gvk)
	}
	gr := info.GroupResource()
	s.mu.Lock()
	defer s.mu.Unlock()
	objs := s.objects[gr]
	if objs == nil {
		objs = make(map[string]*entry)
		s.objects[gr] = objs
	}
	prev := objs[rec.Key]
	ref := objectRef{gr, rec.Key}
	s.orders = nil // restored writes have no history to tell stale orders by
	switch rec.Type {
	case meta.EventDeleted:
		delete(objs, rec.Key)
		if prev != nil {
			s.indexOwnersLocked(ref, meta.EventDeleted, prev, prev)
		}
		return nil
	case meta.EventAdded, meta.EventModified:
	default:
		return fmt.Errorf("unknown record type %q", rec.Type)
	}
	obj := info.New()
	if err := json.Unmarshal(rec.Object, obj); err != nil {
		return fmt.Errorf("%s %q: %v", gvk.Kind, rec.Key, err)
	}
	*obj.GetTypeMeta() = info.TypeMeta()
	obj.GetObjectMeta().ResourceVersion = formatRV(rec.RV)
	e := &entry{obj: obj, content: rec.Object, rv: rec.RV}
	objs[rec.Key] = e
	s.indexOwnersLocked(ref, rec.Type, e, prev)
	return nil
}
