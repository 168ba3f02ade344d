package apiserver

import (
	"cmp"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/gc"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/namespaces"
	"github.com/kitchensync/kitchensync/apiserver/storage"
	"github.com/kitchensync/kitchensync/trace"
)

// Default values of [Options].
const (
	DefaultHistorySize      = 10_000
	DefaultHistoryBytes     = 64 << 20
	DefaultWatchBufferSize  = 10_000
	DefaultMaxObjectBytes   = 1_572_864 // 1.5 MiB, etcd's default request limit
	DefaultBookmarkInterval = time.Minute
)

// Options configure a [Server]. The zero value asks for the defaults.
type Options struct {
	// HistorySize is how many events (one per resourceVersion, across all
	// resources) the server keeps for watches and paged lists that start
	// in the past; older resourceVersions get 410 Expired. Like the
	// Kubernetes watch cache, but shared by all resources. Default
	// [DefaultHistorySize].
	HistorySize int
	// HistoryBytes caps the JSON size of the states that the history alone
	// keeps (those its events replaced): past it the oldest events go, and
	// older resourceVersions get 410. Default [DefaultHistoryBytes].
	HistoryBytes int64
	// WatchBufferSize is how far, in resourceVersions (of any resource),
	// a watcher that is not reading may fall behind. Waiting events cost
	// it nothing, as they are read from the history that all watchers
	// share; so a watcher can fall no further behind than
	// [Options.HistorySize] either. When a write finds a watcher further
	// behind, it is cut off: its watch ends with a plain close, as the
	// real server terminates unresponsive watchers, and the client
	// re-watches from the last resourceVersion it saw. Default
	// [DefaultWatchBufferSize], as many as the default history holds, so
	// that an informer can keep up with a writer as fast as itself.
	WatchBufferSize int
	// MaxObjectBytes caps the JSON size of a stored object; a bigger one
	// is refused as kube-apiserver answers when etcd refuses it: 500,
	// "etcdserver: request is too large". Default [DefaultMaxObjectBytes].
	MaxObjectBytes int
	// BookmarkInterval is how often a watch that allows bookmarks gets a
	// BOOKMARK event, when there is news to report. Default
	// [DefaultBookmarkInterval].
	BookmarkInterval time.Duration
	// ResourceVersionStart is the resourceVersion a fresh server reports;
	// its first write gets the next one. The default, 1, is etcd's, and
	// keeps the numbers of tests and lessons small and fixed. A server
	// that replaces an earlier one (a restarted process) should start
	// above every resourceVersion the earlier one gave out, so that its
	// clients' resourceVersions are too old (410) rather than mistaken
	// for its own: [ResourceVersionFromClock] gives such a start.
	ResourceVersionStart int64
	// DisableGarbageCollection turns off the garbage collector, which
	// otherwise deletes an object's dependents (objects whose
	// ownerReferences name it) once it is gone, as a cluster's garbage
	// collector does, and carries out the propagation policies of
	// [meta.DeleteOptions]. With it off, a delete adds no propagation finalizer.
	DisableGarbageCollection bool
	// DisableNamespaceController turns off the namespace controller,
	// which otherwise empties a namespace being deleted and then lets it
	// go, as kube-controller-manager's does (see [namespaces.Object]; it
	// only runs when the scheme registers namespaces). With it off, a
	// deleted namespace stays Terminating until its finalizer is removed
	// through [ResourceClient.Finalize], as on a kube-apiserver running
	// without kube-controller-manager.
	DisableNamespaceController bool
	// CacheMutationDetector keeps the JSON of every committed object and
	// checks, whenever the server reads the object again (get, list,
	// write) and on [Server.CheckMutations], that nobody has changed it,
	// like client-go's cache mutation detector: objects from a watch, and
	// so from an informer's cache and its listers, are the server's own,
	// shared and read-only, and a change to one corrupts what every other
	// reader sees. A change is reported as a 500 naming the object. It
	// costs a JSON encoding per write and per object read; for tests and
	// lessons. Also turned on by the environment variable
	// [CacheMutationDetectorEnv].
	CacheMutationDetector bool
	// Tracer, when set, receives a record of every committed write
	// (trace.Created, trace.Updated, trace.Deleted, with its
	// resourceVersion) and of the faults CloseWatches and CompactHistory.
	// The server records what it commits, not what it answers: a
	// reflector records its own lists and watches, and the DeltaFIFO each
	// event it receives. Nil means none, at no cost.
	Tracer *trace.Tracer
	// CompactionDropsHistory makes [Server.CompactHistory] also empty the
	// history window, so that every older resourceVersion gets 410
	// Expired at once: a watch, an exact list or a continue token from
	// before the compaction must list again. For lessons and tests that
	// show a 410 on demand. Without it, a compaction is what an etcd
	// compaction is under a real API server, whose watch cache keeps
	// serving the events it holds to watches: only exact lists and
	// continue tokens from before it get 410, and watches from
	// resourceVersions that have left the window ([Options.HistorySize]).
	CompactionDropsHistory bool
	// Storage configures a durable server's data directory (see [Open]):
	// when it writes a snapshot of all objects and starts a new log, which
	// bounds how much a restart replays, and where it reports repairs.
	Storage storage.Options
}

func (o Options) withDefaults() Options {
	if o.HistorySize <= 0 {
		o.HistorySize = DefaultHistorySize
	}
	if o.HistoryBytes <= 0 {
		o.HistoryBytes = DefaultHistoryBytes
	}
	if o.WatchBufferSize <= 0 {
		o.WatchBufferSize = DefaultWatchBufferSize
	}
	if o.MaxObjectBytes <= 0 {
		o.MaxObjectBytes = DefaultMaxObjectBytes
	}
	if o.BookmarkInterval <= 0 {
		o.BookmarkInterval = DefaultBookmarkInterval
	}
	o.CacheMutationDetector = o.CacheMutationDetector || cacheMutationDetectorFromEnv()
	return o
}

// Server is an in-memory Kubernetes API server: it stores objects of the
// kinds its [meta.Scheme] knows and serves them through [Server.Resource] (an
// untyped [ResourceClient]) or, since it is a [client.Interface], through
// the typed [client.Client] ([client.New]).
//
// ResourceVersions. Every write (create, update, delete, a delete that
// only sets deletionTimestamp) takes the next value of one global counter,
// like etcd's revision, and stamps it on the object it writes. So a
// resourceVersion names a point in the server's history: a list says at
// which point it was read, and a watch from that point delivers exactly the
// changes after it. A write that changes nothing takes no resourceVersion.
//
// History. The server keeps the last [Options.HistorySize] events (one per
// resourceVersion, shared by all resources), like the Kubernetes watch
// cache. A watch or paged list that needs an older event gets 410 Expired:
// the client must list again. [Server.CompactHistory] compacts as etcd
// does, which, as under a real watch cache, leaves the window served;
// with [Options.CompactionDropsHistory] it forgets the window too.
//
// Watches. All watchers share one copy of each event, and of its object,
// as the Kubernetes watch cache shares its cyclic buffer, and each reads
// it from its own position. A writer appends its event to the history;
// one fan-out goroutine then filters the events written since it last
// ran through every watcher's selectors and puts them into the watcher's
// channel, all of them in a row and without waiting, so that a receiver
// is woken once per batch rather than once per event. A watcher whose
// channel is full is topped up from where it stopped by the next batch,
// or, when the writers pause, by a goroutine of its own. More than
// [Options.WatchBufferSize] behind, it is cut off (a plain close), so a
// reader can never slow down or block a writer. See
// [ResourceClient.Watch].
//
// Faults. For lessons and tests the server misbehaves on request,
// deterministically: [Server.CloseWatches] ends every watch,
// [Server.CompactHistory] (with [Options.CompactionDropsHistory]) makes
// old resourceVersions expire,
// [Server.FailNext] fails the next requests of a verb with a chosen error,
// and [Server.SetLatency] delays every request. [Server.RequestCount]
// tells how many requests each verb and resource received, e.g. to
// compare an informer with polling.
//
// Simplifications, compared with a real API server: no admission, no
// defaulting or schema validation beyond names, labels and size (but for
// the kinds a CustomResourceDefinition defines: package
// apiserver/apiextensions, through [meta.KindInfo]'s Normalize); server-side
// apply and strategic merge patch (for kinds that declare it) merge by a
// simpler schema than the real server's (see [ResourceClient.Patch]); deletes are immediate or wait for finalizers, with no grace
// period; the garbage collector deletes dependents inside the call that
// made the garbage and carries out a Foreground or Orphan policy
// [gc.Delay] later, and the namespace controller empties a deleted
// namespace inside the call ([namespaces.Object]); one history window.
//
// A Server is safe for concurrent use. Writers hold one mutex only long
// enough to update a map and append to the history ring; encoding, deep
// copies and the fan-out to watchers happen outside it.
type Server struct {
	scheme *meta.Scheme
	opts   Options

	// fanMu guards the watchers' delivery state; it is taken before mu
	// (see watch_fanout.go).
	fanMu      sync.Mutex
	lagging    map[*watcher]struct{} // live watchers with a full channel; guarded by fanMu
	fanningOut bool                  // a fan-out goroutine runs; guarded by mu
	mu         sync.Mutex            // guards objects, hist, watchers, advanced and dependents
	objects    map[meta.GroupResource]map[string]*entry
	hist       *history
	watchers   map[meta.GroupResource]map[*watcher]struct{}
	fanLists   map[meta.GroupResource]*watcherList // the watchers as the fan-out walks them
	// advanced, when not nil, is closed at the next write: readers
	// waiting for a resourceVersion the server has not reached wait on it.
	advanced chan struct{}
	// dependents maps an owner's UID to the objects whose ownerReferences
	// name it, for the garbage collector.
	dependents map[string]map[objectRef]struct{}
	// orders are the sorted entries of the latest lists (list_order.go).
	orders map[listOrderKey]listOrder
	// pages are the sorted entries of the latest paged lists, at their
	// first page's resourceVersion, for the pages that follow (list_order.go).
	pages map[listOrderKey]listOrder
	// hooks are called after each commit to their resource (hooks.go).
	hooks map[meta.GroupResource]CommitHook

	randMu sync.Mutex // guards rand
	rand   *rand.Rand // names from generateName, seeded: runs repeat

	faults faults

	log        *storage.Log           // the data directory of a durable server (see Open); nil in memory
	collector  *gc.Collector          // the garbage collector, over gcStore
	namespaces *namespaces.Controller // the namespace controller, over nsStore
}

// NewServer returns an empty server for the kinds registered in scheme.
// Kinds registered in scheme later are served too.
func NewServer(scheme *meta.Scheme, opts Options) *Server {
	opts = opts.withDefaults()
	s := &Server{
		scheme:     scheme,
		opts:       opts,
		objects:    make(map[meta.GroupResource]map[string]*entry),
		hist:       newHistory(opts, opts.ResourceVersionStart),
		watchers:   make(map[meta.GroupResource]map[*watcher]struct{}),
		fanLists:   make(map[meta.GroupResource]*watcherList),
		lagging:    make(map[*watcher]struct{}),
		dependents: make(map[string]map[objectRef]struct{}),
		rand:       rand.New(rand.NewPCG(1, 2)),
	}
	s.collector = gc.New(gcStore{s})
	s.namespaces = namespaces.NewController(nsStore{s})
	return s
}

// ResourceVersionFromClock returns a [Options.ResourceVersionStart] for a
// server started at now: the microseconds since 1970. A server started
// later starts higher, and above every resourceVersion an earlier one
// gave out unless that one wrote more than once a microsecond on average
// (etcd does not come close). It still reads as a number that grows.
func ResourceVersionFromClock(now time.Time) int64 { return now.UnixMicro() }

// Scheme returns the scheme the server was made with.
func (s *Server) Scheme() *meta.Scheme { return s.scheme }

// Options returns the options the server runs with, defaults filled in.
func (s *Server) Options() Options { return s.opts }

// ResourceVersion returns the latest committed resourceVersion. Like
// etcd, whose revision starts at 1, a fresh server is at "1" and its first
// write gets "2": it never reports "0", which clients read in a request as
// "any version".
func (s *Server) ResourceVersion() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return formatRV(s.hist.shown) // on a durable server, the newest on the disk
}

// change is what a mutation wants to commit. An empty typ commits nothing
// and obj is returned as it is (a no-op or a dry run).
type change struct {
	typ meta.EventType
	obj *entry
	by  string // who made the change, when no client did (trace.GarbageCollector, trace.NamespaceController)
	// reply, when set, is what the caller gets instead of obj: the
	// update that removes a deleting object's last finalizer answers
	// the object it asked for, while the event carries the stored one.
	reply *entry
}

// mutate reads the current state of key (nil if absent), lets fn decide
// the change outside the lock, and commits it if nobody wrote key in the
// meantime; otherwise fn runs again on the newer state. It returns the
// committed (or returned) entry.
func (s *Server) mutate(gr meta.GroupResource, key string, fn func(old *entry) (change, error)) (*entry, error) {
	for {
		s.mu.Lock()
		old, seen := s.objects[gr][key], s.hist.last
		s.mu.Unlock()
		if err := checkShared(gr, key, old); err != nil {
			return nil, err
		}
		ch, err := fn(old)
		if err != nil || ch.typ == "" {
			err = cmp.Or(s.awaitDurable(seen), err) // the answer tells of what it read
			if ch.reply != nil {
				return ch.reply, err
			}
			return ch.obj, err
		}
		s.mu.Lock()
		if s.objects[gr][key] != old {
			s.mu.Unlock()
			continue
		}
		if err := s.persistLocked(key, ch); err != nil {
			s.mu.Unlock()
			return nil, err
		}
		s.commitLocked(gr, key, ch, old)
		rv := s.hist.last
		garbage := s.garbageAfterLocked(gr, key, ch)
		terminating := s.namespaceAfterLocked(gr, ch)
		hook := s.hooks[gr]
		s.mu.Unlock()
		if err := s.awaitDurable(rv); err != nil {
			return nil, err
		}
		s.collector.Collect(garbage)
		s.syncNamespace(terminating)
		if hook != nil {
			hook(ch.typ, ch.obj.obj)
		}
		if ch.reply != nil {
			return ch.reply, nil
		}
		return ch.obj, nil
	}
}

// commitLocked makes ch.obj the state of key with the next resourceVersion,
// records the event and has it fanned out to the resource's watchers. For
// EventDeleted obj is the final state and the key is removed. s.mu must
// be held; obj must not be shared yet (its resourceVersion is set here).
func (s *Server) commitLocked(gr meta.GroupResource, key string, ch change, prev *entry) {
	typ, obj := ch.typ, ch.obj
	rv := s.hist.last + 1
	obj.rv = rv
	obj.obj.GetObjectMeta().ResourceVersion = formatRV(rv)
	s.rememberJSONLocked(obj)
	s.storeLocked(gr, key, typ, obj, prev)
	ev := &event{typ: typ, gr: gr, key: key, ns: obj.obj.GetObjectMeta().Namespace, obj: obj, prev: prev}
	s.forgetOrdersLocked(gr, ev.ns)
	if s.hist.add(ev); s.log == nil {
		s.hist.shown = rv // else once it is on the disk (Server.synced)
	}
	s.announceAdvanceLocked()
	s.traceCommitLocked(ch, key, prev)
	s.fanOutAfterCommitLocked(gr)
}

// storeLocked makes e the state of key in gr, or, for EventDeleted,
// removes key (e is its final state), and indexes its owners. s.mu must
// be held.
func (s *Server) storeLocked(gr meta.GroupResource, key string, typ meta.EventType, e, prev *entry) {
	objs := s.objects[gr]
	if objs == nil {
		objs = make(map[string]*entry)
		s.objects[gr] = objs
	}
	if typ == meta.EventDeleted {
		delete(objs, key)
	} else {
		objs[key] = e
	}
	s.indexOwnersLocked(objectRef{gr, key}, typ, e, prev)
}

// randomString returns n characters from the alphabet Kubernetes uses for
// generated names (no vowels, no look-alike digits).
func (s *Server) randomString(n int) string {
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	s.randMu.Lock()
	defer s.randMu.Unlock()
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[s.rand.IntN(len(alphabet))]
	}
	return string(b)
}

// newUID returns a random (version 4) UUID, as Kubernetes makes them.
// Unlike generated names, UIDs come from the process's randomly seeded
// source, not the server's fixed one: a UID must never repeat, not even
// across servers or restarts, or a client would mistake a new object for
// one it knew.
func (s *Server) newUID() string {
	hi, lo := rand.Uint64(), rand.Uint64()
	hi = hi&^0xf000 | 0x4000         // version 4
	lo = lo&^(0xc<<60) | (0x8 << 60) // RFC 4122 variant
	const hex = "0123456789abcdef"
	var b [36]byte
	pos := 0
	for i := range 32 {
		if i == 8 || i == 12 || i == 16 || i == 20 {
			b[pos] = '-'
			pos++
		}
		word, shift := hi, uint(60-4*i)
		if i >= 16 {
			word, shift = lo, uint(60-4*(i-16))
		}
		b[pos] = hex[(word>>shift)&0xf]
		pos++
	}
	return string(b[:])
}
