package apiserver

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/kitchensync/kitchensync/apiserver/gc"
	"github.com/kitchensync/kitchensync/apiserver/internal/owncopy"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/namespaces"
	"github.com/kitchensync/kitchensync/apiserver/storage"
)

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
	// watchCache is the history, the watchers and the server's lock mu
	// (watch.go).
	watchCache

	scheme *meta.Scheme
	opts   Options

	// Guarded by mu:
	objects map[meta.GroupResource]map[string]*entry
	owners  ownerIndex                        // the owner index, for the garbage collector (owners.go)
	orders  listOrders                        // the sorted entries of the latest lists (list_order.go)
	hooks   map[meta.GroupResource]CommitHook // called after each commit to their resource

	randMu sync.Mutex // guards rand
	rand   *rand.Rand // names from generateName, seeded: runs repeat

	recent owncopy.Recent // labels a create's stored state may share (see createChange)

	faults faults // the injected faults and the request counts (requests.go)

	log        *storage.Log           // the data directory of a durable server (see Open); nil in memory
	collector  *gc.Collector          // the garbage collector, over gcStore
	namespaces *namespaces.Controller // the namespace controller, over nsStore
}

// CommitHook is told of a change committed to a resource: the event's
// type and the object as committed (shared: read it, never change it).
type CommitHook func(typ meta.EventType, obj meta.Object)

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
	s.owners.index(objectRef{gr, key}, typ, e, prev)
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

// storedLocked returns every stored object, sorted by group, resource and
// key: the same state always comes out in the same order. s.mu must be
// held.
func (s *Server) storedLocked() []stored {
	var all []stored
	for gr, objs := range s.objects {
		for key, e := range objs {
			all = append(all, stored{gr, key, e})
		}
	}
	slices.SortFunc(all, func(a, b stored) int {
		return cmp.Or(cmp.Compare(a.gr.Group, b.gr.Group), cmp.Compare(a.gr.Resource, b.gr.Resource), cmp.Compare(a.key, b.key))
	})
	return all
}

// lookup returns the stored entry at ref, or nil.
func (s *Server) lookup(ref objectRef) *entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.objects[ref.gr][ref.key]
}

// currentLocked returns the current entries of gr in namespace ns ("" for
// all), unsorted. s.mu must be held.
func (s *Server) currentLocked(gr meta.GroupResource, ns string) []*entry {
	out := make([]*entry, 0, len(s.objects[gr]))
	for _, e := range s.objects[gr] {
		if ns == "" || e.obj.GetObjectMeta().Namespace == ns {
			out = append(out, e)
		}
	}
	return out
}
