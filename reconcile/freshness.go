package reconcile

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Freshness lets a controller read its own writes: it records the
// resourceVersion of each write the controller makes on behalf of an
// object, and before the next reconcile of that object tells whether the
// caches have caught up with those writes. A [Controller] with
// [Options].Freshness skips (and requeues) a reconcile whose caches are
// older, instead of acting on a view that does not yet show what it did
// last time — creating a child twice, say, because the cache does not
// have the first one yet.
//
// It is kube-controller-manager's staleness mitigation (Kubernetes 1.36,
// its ConsistencyStore with WroteAt, EnsureReady and Clear, used by the
// ReplicaSet, DaemonSet, StatefulSet and Job controllers), small:
//
//   - [Freshness.Track] names the caches to check, one per resource: an
//     informer's [store.Indexer], whose LastStoreSyncResourceVersion says
//     how far it has caught up.
//   - [Freshness.WroteAt] records, for an object (the owner), that the
//     controller wrote a resource at a resourceVersion.
//   - [Freshness.EnsureReady] reports whether every cache the owner's
//     writes went to is at or past them.
//   - [Freshness.Clear] forgets an owner; the controller calls it when the
//     owner is deleted.
//
// # What it assumes
//
// resourceVersions are opaque strings in Kubernetes, and may be compared
// only where the server promises an order. Freshness compares them as
// unsigned integers. kitchensync's server promises that: one global
// counter that only increases, like etcd's revision; and Kubernetes 1.35
// documents resourceVersions as comparable integers, which is what
// kube-controller-manager relies on. A write's resourceVersion that is
// not a decimal integer is refused by WroteAt.
//
// # A cache that cannot tell
//
// Only a cache behind an atomic queue (the informer default,
// [informer.QueueAtomic]) records a resourceVersion; behind
// [informer.QueueInOrder] or [informer.QueueDeltaFIFO] its
// LastStoreSyncResourceVersion stays "", as client-go's store returns ""
// with its AtomicFIFO gate off. Such a cache cannot say how far it has
// caught up, so it holds nothing back: EnsureReady passes over it, as it
// passes over a resource that is not tracked, and over a cache whose
// resourceVersion is not a number. That is kube-controller-manager's
// rule (pkg/controller/util/consistency, ownerRecord.EnsureReady: a ""
// read means the feature is off, and a comparison error must not block
// syncing). Freshness then protects nothing: a controller that relies on
// it to trust its cache (as the kitchen's chef does) should leave it off
// behind such a queue and read from the API server instead.
//
// One simplification the other way: kube-controller-manager forgets an
// owner's record once EnsureReady has found it ready; Freshness keeps it
// until [Freshness.Clear] or a newer write, so a cache that falls back
// behind that write (a relist from an older view) holds the owner back
// again.
//
// The zero value is not usable; use [NewFreshness]. Safe for concurrent
// use.
type Freshness struct {
	mu      sync.Mutex                                       // guards caches and written
	caches  map[meta.GroupResource]Watermark                 // by resource
	written map[NamespacedName]map[meta.GroupResource]uint64 // newest write per owner and resource
}

// Watermark is what [Freshness] needs of a cache: how far it has caught
// up with the server. A *store.Indexer is one.
type Watermark interface {
	LastStoreSyncResourceVersion() string
}

// NewFreshness returns a Freshness that tracks no cache yet.
func NewFreshness() *Freshness {
	return &Freshness{caches: map[meta.GroupResource]Watermark{}, written: map[NamespacedName]map[meta.GroupResource]uint64{}}
}

// Track makes EnsureReady check cache for writes to resource gr. A second
// Track of gr replaces the first.
func (f *Freshness) Track(gr meta.GroupResource, cache Watermark) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.caches[gr] = cache
}

// WroteAt records that the controller, reconciling owner, wrote an object
// of resource gr and the server answered resourceVersion rv (the
// resourceVersion of the object a create, update or patch returns).
// Only the newest write per owner and resource is kept. An rv that is
// not a decimal integer is an error, and nothing is recorded.
func (f *Freshness) WroteAt(owner NamespacedName, gr meta.GroupResource, rv string) error {
	v, err := parseRV(rv)
	if err != nil {
		return fmt.Errorf("reconcile: Freshness.WroteAt %s for %s: %w", gr, owner, err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	w := f.written[owner]
	if w == nil {
		w = map[meta.GroupResource]uint64{}
		f.written[owner] = w
	}
	w[gr] = max(w[gr], v)
	return nil
}

// EnsureReady reports whether the caches have caught up with every write
// recorded for owner: each written resource's cache is at or past the
// newest write. An owner with no recorded write is ready. A write that
// cannot be checked does not hold the owner back: one to a resource that
// is not tracked, or whose cache reports no resourceVersion ("", behind a
// queue that is not atomic) or one that is not a number.
func (f *Freshness) EnsureReady(owner NamespacedName) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for gr, wrote := range f.written[owner] {
		cache, ok := f.caches[gr]
		if !ok {
			continue
		}
		at, err := parseRV(cache.LastStoreSyncResourceVersion())
		if err != nil {
			continue // "" or not a number: the cache cannot tell
		}
		if at < wrote {
			return false
		}
	}
	return true
}

// Clear forgets the writes recorded for owner: it was deleted, or the
// controller no longer cares.
func (f *Freshness) Clear(owner NamespacedName) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.written, owner)
}

// StoreResourceVersion is one tracked cache's resourceVersion, the value
// of the store_resource_version metric.
type StoreResourceVersion struct {
	Resource meta.GroupResource
	// Version is the cache's LastStoreSyncResourceVersion as a number; 0
	// while it has none (or one that is not a number).
	Version int64
}

// storeResourceVersions reads every tracked cache, sorted by resource.
func (f *Freshness) storeResourceVersions() []StoreResourceVersion {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]StoreResourceVersion, 0, len(f.caches))
	for gr, cache := range f.caches {
		v, _ := parseRV(cache.LastStoreSyncResourceVersion())
		out = append(out, StoreResourceVersion{Resource: gr, Version: int64(min(v, 1<<63-1))})
	}
	slices.SortFunc(out, func(a, b StoreResourceVersion) int { return compareGR(a.Resource, b.Resource) })
	return out
}

func compareGR(a, b meta.GroupResource) int {
	return cmp.Or(strings.Compare(a.Group, b.Group), strings.Compare(a.Resource, b.Resource))
}

// parseRV reads a resourceVersion as the unsigned integer kitchensync's
// server (and etcd) makes it.
func parseRV(rv string) (uint64, error) {
	v, err := strconv.ParseUint(rv, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("resourceVersion %q is not a decimal integer", rv)
	}
	return v, nil
}
