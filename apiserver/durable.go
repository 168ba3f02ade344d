package apiserver

import (
	"cmp"
	"fmt"
	"io"
	"iter"

	"github.com/kitchensync/kitchensync/apiserver/internal/jsonenc"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/storage"
)

// A durable server (see [Open]) appends every commit to its log
// (persistLocked) and answers once the log has synced it (awaitDurable);
// the log says when it has (synced). A snapshot is the state at one
// resourceVersion (state), and a restart reads the records back (loader).

// Close closes a durable server's log: later writes fail with 500
// InternalError, reads go on. On a server made by [NewServer] or
// [Restore] it does nothing.
func (s *Server) Close() error { return s.log.Close() }

// persistLocked adds the write that commitLocked is about to make to the
// log's next sync, on a durable server (see [Open]); elsewhere it does
// nothing. s.mu must be held.
func (s *Server) persistLocked(key string, ch change) error {
	if s.log == nil {
		return nil
	}
	return storageError(s.log.Append(recordOf(s.hist.last+1, ch.typ, key, ch.obj)))
}

// storageError is a 500 for what the log refused, or nil.
func storageError(err error) error {
	if err == nil {
		return nil
	}
	return meta.NewInternalError(fmt.Errorf("storage: %w", err))
}

// recordOf is the record of a write of type typ, at resourceVersion rv,
// that makes e the state of key: its JSON is e's content as it is.
func recordOf(rv int64, typ meta.EventType, key string, e *entry) storage.Record {
	tm := e.obj.GetTypeMeta()
	rec := storage.Record{RV: rv, Type: string(typ), APIVersion: tm.APIVersion, Kind: tm.Kind, Key: key}
	if typ != meta.EventDeleted {
		rec.Object = e.content
	}
	return rec
}

// awaitDurable returns once every write up to rv is on the disk (what a
// durable server answers waits for what it shows); a failed sync is 500.
func (s *Server) awaitDurable(rv int64) error { return storageError(s.log.Wait(rv)) }

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

// state is what a snapshot of the data directory holds: every object,
// at the newest resourceVersion, in [Server.storedLocked]'s order (the
// same state makes the same bytes). Entries never change once committed:
// the records are read after the lock is released.
func (s *Server) state() (int64, iter.Seq[storage.Record]) {
	s.mu.Lock()
	rv, all := s.hist.last, s.storedLocked()
	s.mu.Unlock()
	return rv, func(yield func(storage.Record) bool) {
		for _, st := range all {
			if !yield(recordOf(st.e.rv, meta.EventAdded, st.key, st.e)) {
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
	rv, records := s.state()
	if err := s.awaitDurable(rv); err != nil {
		return "", err
	}
	return formatRV(rv), storage.WriteSnapshot(w, rv, records)
}

// loader takes in a data directory's records: decodeRecord (on several
// goroutines at once), then applyRecord, in order.
func (s *Server) loader() storage.Loader {
	return storage.Loader{Decode: s.decodeRecord, Apply: s.applyRecord}
}

// decoded is a logged write made ready to apply: its resource, and the
// entry it stores (nil for a delete).
type decoded struct {
	gr meta.GroupResource
	e  *entry
}

// decodeRecord decodes the object of a logged write, of a registered kind.
func (s *Server) decodeRecord(rec storage.Record) (any, error) {
	gvk := meta.ParseGroupVersion(rec.APIVersion).WithKind(rec.Kind)
	info, ok := s.scheme.KindForGVK(gvk)
	switch typ := meta.EventType(rec.Type); {
	case !ok:
		return nil, fmt.Errorf("kind %s is not registered: register every kind the data holds in the scheme before opening it", gvk)
	case typ == meta.EventDeleted:
		return decoded{gr: info.GroupResource()}, nil
	case typ != meta.EventAdded && typ != meta.EventModified:
		return nil, fmt.Errorf("unknown record type %q", rec.Type)
	}
	obj := info.New()
	if err := jsonenc.Unmarshal(rec.Object, obj); err != nil { // obj is new: the typed decoder, or json.Unmarshal
		return nil, fmt.Errorf("%s %q: %v", gvk.Kind, rec.Key, err)
	}
	*obj.GetTypeMeta() = info.TypeMeta()
	obj.GetObjectMeta().ResourceVersion = formatRV(rec.RV)
	return decoded{info.GroupResource(), &entry{obj: obj, content: rec.Object, rv: rec.RV}}, nil
}

// applyRecord makes one logged write the state of its key, as
// commitLocked did when it was made, without history or watchers. A
// record that cannot follow the ones before it (a create of a present
// object, a change of an absent one) is an error, never skipped.
func (s *Server) applyRecord(rec storage.Record, v any) error {
	d := v.(decoded)
	typ := meta.EventType(rec.Type)
	s.mu.Lock()
	defer s.mu.Unlock()
	prev := s.objects[d.gr][rec.Key]
	if (typ == meta.EventAdded) != (prev == nil) {
		return fmt.Errorf("a write (%s) of %s %q, which the writes before it leave %s", typ, rec.Kind, rec.Key,
			map[bool]string{true: "absent", false: "present"}[prev == nil])
	}
	s.orders.latest = nil // restored writes have no history to tell stale orders by
	s.storeLocked(d.gr, rec.Key, typ, cmp.Or(d.e, prev), prev)
	return nil
}
