package apiserver

import (
	"io"
	"math/rand/v2"

	"github.com/kitchensync/kitchensync/apiserver/gc"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/namespaces"
	"github.com/kitchensync/kitchensync/apiserver/storage"
)

// The three ways to make a server: in memory, on a data directory, from
// a snapshot. They come last in the reading order, as they wire to the
// core what stands beside it: the garbage collector and the namespace
// controller (over gcStore and nsStore), and the data directory.

// NewServer returns an empty server for the kinds registered in scheme.
// Kinds registered in scheme later are served too.
func NewServer(scheme *meta.Scheme, opts Options) *Server {
	opts = opts.withDefaults()
	s := &Server{
		watchCache: watchCache{
			hist:             newHistory(opts, opts.ResourceVersionStart),
			watchers:         make(map[meta.GroupResource]map[*watcher]struct{}),
			fanLists:         make(map[meta.GroupResource]*watcherList),
			lagging:          make(map[*watcher]struct{}),
			bufferSize:       opts.WatchBufferSize,
			bookmarkInterval: opts.BookmarkInterval,
		},
		scheme:  scheme,
		opts:    opts,
		objects: make(map[meta.GroupResource]map[string]*entry),
		owners:  make(ownerIndex),
		rand:    rand.New(rand.NewPCG(1, 2)),
	}
	s.collector = gc.New(gcStore{s})
	s.namespaces = namespaces.NewController(nsStore{s})
	return s
}

// Open returns a server that keeps every acknowledged write in dir, as
// the real API server keeps them in etcd, and starts from what dir holds:
// the same objects at the same resourceVersions (a watch from before the
// restart gets 410, as after a compaction). A write is answered once it
// is synced to the disk (writers at once share a sync, made outside the
// server's lock), and nothing leaves the server before: watchers hear of
// writes, and reads answer, only once what they show is on the disk. A
// crash loses no acknowledged write; damage is a [*storage.StorageError]
// naming file and byte (package [storage] tells what is repaired, what is
// refused, and how to recover). After a failed sync every write fails
// (500) until a restart. dir is locked while open: a second Open fails
// naming the holder. Register dir's kinds in scheme first; a backup from
// [Server.Snapshot] in an empty dir, as "snapshot", opens too.
func Open(scheme *meta.Scheme, dir string, opts Options) (*Server, error) {
	log, err := storage.Open(dir, opts.Storage)
	if err != nil {
		return nil, err
	}
	s := NewServer(scheme, opts)
	last, err := log.Load(s.loader())
	if err == nil {
		s.hist = newHistory(s.opts, max(last, s.opts.ResourceVersionStart))
		err = log.Start(s.hist.last, s.synced, s.state)
	}
	if err != nil {
		log.Close()
		return nil, err
	}
	s.log = log
	return s, nil
}

// Restore returns an in-memory server holding what a snapshot written by
// [Server.Snapshot] holds: the same objects at the same resourceVersions
// (etcdctl snapshot restore, or Velero): clients of the old server must
// list again. It counts on from the snapshot's resourceVersion, or from
// opts.ResourceVersionStart if higher (e.g. [ResourceVersionFromClock],
// as etcdutl's --bump-revision, when the old server went on writing), and
// every older resourceVersion answers 410 Expired (--mark-compacted). A
// snapshot that cannot be read is a [*storage.StorageError].
func Restore(scheme *meta.Scheme, r io.Reader, opts Options) (*Server, error) {
	s := NewServer(scheme, opts)
	last, err := storage.ReadSnapshot(r, "snapshot", s.loader())
	if err != nil {
		return nil, err
	}
	s.hist = newHistory(s.opts, max(last, s.opts.ResourceVersionStart))
	return s, nil
}
