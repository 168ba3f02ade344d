package apiserver

import (
	"os"
	"strconv"
	"time"

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
	// [CacheMutationDetectorEnv]. Without it, stored states with equal
	// labels may share one map: such a change may show in other objects.
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

// CacheMutationDetectorEnv names the environment variable that turns on
// [Options].CacheMutationDetector for every server a process makes, like
// client-go's KUBE_CACHE_MUTATION_DETECTOR:
//
//	KITCHENSYNC_CACHE_MUTATION_DETECTOR=true go test ./...
const CacheMutationDetectorEnv = "KITCHENSYNC_CACHE_MUTATION_DETECTOR"

// cacheMutationDetectorFromEnv reports whether [CacheMutationDetectorEnv]
// is set to a true value ("1", "true", ...).
func cacheMutationDetectorFromEnv() bool {
	on, _ := strconv.ParseBool(os.Getenv(CacheMutationDetectorEnv))
	return on
}

// ResourceVersionFromClock returns a [Options.ResourceVersionStart] for a
// server started at now: the microseconds since 1970. A server started
// later starts higher, and above every resourceVersion an earlier one
// gave out unless that one wrote more than once a microsecond on average
// (etcd does not come close). It still reads as a number that grows.
func ResourceVersionFromClock(now time.Time) int64 { return now.UnixMicro() }
