package apiserver

import (
	"encoding/json"
	"fmt"
	"io"
	"iter"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/storage"
)

// Open returns a server that keeps every acknowledged write in dir, as
// the real API server keeps them in etcd, and that starts from what dir
// holds: the same objects at the same resourceVersions. A client of the
// previous process that watches from an older resourceVersion gets 410
// Expired and lists again, as after a compaction: the history of events
// before the restart is not kept, only the objects.
//
// A write is appended to a log file in dir and synced to the disk before
// the server answers it; writers that come at once share one sync, which
// happens outside the server's lock. Nothing leaves the server before it
// is on the disk: a watcher hears of a write, and a read (get, list, the
// start of a watch, a write's refusal) answers from a state, only once
// the writes it shows are synced. Snapshots replace the logs as they grow
// ([Options.Storage]; package [storage] holds the format). A process
// killed at any moment loses nothing it acknowledged, and a write it did
// not acknowledge is either wholly there or not at all: a frame that a
// crash cut short at the end of the last log is dropped, and the repair
// logged. Any other damage, and a record the server cannot apply, is a
// [*storage.StorageError] that names the file and the place and says what
// to do ([storage.Recover] keeps what comes before it). If the disk
// refuses a sync, every later write fails (500) until a restart.
//
// One process at a time: dir is locked while open, and a second Open
// fails naming the process that has it. All kinds stored in dir must be
// registered in scheme before Open. To restore a backup made with
// [Server.Snapshot], put it into an empty directory under the name
// "snapshot" and Open that directory. Call [Server.Close] when done; a
// closed server refuses writes.
func Open(scheme *meta.Scheme, dir string, opts Options) (*Server, error) {
	log, err := storage.Open(dir, opts.Storage)
	if err != nil {
		return nil, err
	}
	s := NewServer(scheme, opts)
	last, err := log.Load(s.applyRecord)
	if err == nil {
		start := max(last, s.opts.ResourceVersionStart, 1)
		s.hist = newHistory(s.opts.HistorySize, start)
		s.hist.gated = true
		err = log.Start(start, s.synced)
	}
	if err != nil {
		log.Close()
		return nil, err
	}
	s.log = log
	return s, nil
}

// Close closes a durable server's log: later writes fail with 500
// InternalError, reads go on. On a server made by [NewServer] or
// [Restore] it does nothing.
func (s *Server) Close() error {
	if s.log == nil {
		return nil
	}
	return s.log.Close()
}

// persistLocked adds the write that commitLocked is about to make to the
// log's next sync, on a durable server (see [Open]); elsewhere it does
// nothing. s.mu must be held.
func (s *Server) persistLocked(key string, ch change) error {
	if s.log == nil {
		return nil
	}
	tm := ch.obj.obj.GetTypeMeta()
	rec := storage.Record{RV: s.hist.last + 1, Type: string(ch.typ), APIVersion: tm.APIVersion, Kind: tm.Kind, Key: key}
	if ch.typ != meta.EventDeleted {
		rec.Object = ch.obj.content
	}
	if err := s.log.Append(rec); err != nil {
		return meta.NewInternalError(fmt.Errorf("storage: %w", err))
	}
	return nil
}

// awaitDurable returns once every write up to rv is on the disk, on a
// durable server: whatever answers from a state that holds them waits for
// it. A sync that failed is a 500.
func (s *Server) awaitDurable(rv int64) error {
	if s.log == nil {
		return nil
	}
	if err := s.log.Wait(rv); err != nil {
		return meta.NewInternalError(fmt.Errorf("storage: %w", err))
	}
	return nil
}

// synced is told by the log that every write up to rv is on the disk:
// watchers may hear of them now.
func (s *Server) synced(rv int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hist.shown = max(s.hist.shown, rv)
	if !s.fanningOut && s.hist.fannedOut < s.hist.shown {
		s.fanningOut = true
		go s.fanOut()
	}
}

// pendingSnapshot is a snapshot that a durable server decided to write
// after a commit: the objects at the rotation's resourceVersion, written
// outside the lock (entries never change once committed).
type pendingSnapshot struct {
	rot     *storage.Rotation
	entries []*entry
}

// snapshotDueLocked starts a new log when the log asks for a snapshot and
// returns the snapshot to write, or nil. s.mu must be held.
func (s *Server) snapshotDueLocked() *pendingSnapshot {
	if s.log == nil {
		return nil
	}
	rot := s.log.Rotate(s.hist.last)
	if rot == nil {
		return nil
	}
	return &pendingSnapshot{rot: rot, entries: s.entriesLocked()}
}

// write writes the snapshot; a failure leaves the logs in place, and the
// next snapshot tries again.
func (p *pendingSnapshot) write() {
	_ = p.rot.Write(records(p.entries))
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

// records returns the snapshot records of entries, one ADDED record each.
func records(entries []*entry) iter.Seq[storage.Record] {
	return func(yield func(storage.Record) bool) {
		for _, e := range entries {
			om, tm := e.obj.GetObjectMeta(), e.obj.GetTypeMeta()
			rec := storage.Record{RV: e.rv, Type: string(meta.EventAdded), APIVersion: tm.APIVersion, Kind: tm.Kind,
				Key: objectKey(om.Namespace, om.Name), Object: e.content}
			if !yield(rec) {
				return
			}
		}
	}
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
	if err := s.awaitDurable(rv); err != nil {
		return "", err
	}
	return formatRV(rv), storage.WriteSnapshot(w, rv, records(entries))
}

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
// compaction (etcdutl's --mark-compacted). A snapshot that cannot be read
// is a [*storage.StorageError].
func Restore(scheme *meta.Scheme, r io.Reader, opts Options) (*Server, error) {
	s := NewServer(scheme, opts)
	last, err := storage.ReadSnapshot(r, "snapshot", s.applyRecord)
	if err != nil {
		return nil, err
	}
	s.hist = newHistory(s.opts.HistorySize, max(last, s.opts.ResourceVersionStart))
	return s, nil
}

// applyRecord makes one logged write the state of its key, as
// commitLocked did when it was made, without history or watchers. A
// record that cannot follow the ones before it (a create of a present
// object, a change of an absent one) is an error, never skipped.
func (s *Server) applyRecord(rec storage.Record) error {
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
	typ := meta.EventType(rec.Type)
	switch {
	case typ != meta.EventAdded && typ != meta.EventModified && typ != meta.EventDeleted:
		return fmt.Errorf("unknown record type %q", rec.Type)
	case (typ == meta.EventAdded) != (prev == nil):
		return fmt.Errorf("a write (%s) of %s %q, which the writes before it leave %s", typ, gvk.Kind, rec.Key,
			map[bool]string{true: "absent", false: "present"}[prev == nil])
	case typ == meta.EventDeleted:
		delete(objs, rec.Key)
		s.indexOwnersLocked(ref, meta.EventDeleted, prev, prev)
		return nil
	}
	obj := info.New()
	if err := json.Unmarshal(rec.Object, obj); err != nil {
		return fmt.Errorf("%s %q: %v", gvk.Kind, rec.Key, err)
	}
	*obj.GetTypeMeta() = info.TypeMeta()
	obj.GetObjectMeta().ResourceVersion = formatRV(rec.RV)
	e := &entry{obj: obj, content: rec.Object, rv: rec.RV}
	objs[rec.Key] = e
	s.indexOwnersLocked(ref, typ, e, prev)
	return nil
}
